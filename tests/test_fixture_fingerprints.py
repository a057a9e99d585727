"""Content fingerprints of NetCDF fixtures (tests/brainio_fixtures.py): a file another CPU writes with other last bits
matches the stored fingerprint; a file with other data does not, and the failure says which variable differs."""

import json

import numpy as np
import pytest
import xarray as xr

import brainio_fixtures as bf


def assembly(values, stimulus_ids=None):
    presentations, neuroids = values.shape
    return xr.Dataset(
        {"data": (("presentation", "neuroid"), values)},
        coords={"stimulus_id": ("presentation", stimulus_ids or [f"s{i}" for i in range(presentations)]),
                "repetition": ("presentation", np.arange(presentations) % 2),
                "x": ("neuroid", np.linspace(-1.0, 1.0, neuroids))})


def fingerprint(tmp_path, name, values, **kwargs):
    path = tmp_path / f"{name}.nc"
    assembly(values, **kwargs).to_netcdf(path)
    return bf.content_fingerprint(path)


@pytest.fixture
def responses():
    """Firing rates in the hundreds, float32 (as BLAS products of the fixture writers give them), a NaN among them."""
    values = np.random.default_rng(0).normal(150.0, 40.0, (200, 30)).astype(np.float32)
    values[3, 4] = np.nan
    return values


def test_other_last_bits_match_and_other_data_do_not(tmp_path, responses):
    stored = fingerprint(tmp_path, "stored", responses)
    # another CPU's kernel: every value a few float32 steps away (the digest that rounded to 9 decimals differed here)
    steps = np.random.default_rng(1).integers(-3, 4, responses.shape)
    other_cpu = responses.copy()
    for _ in range(3):
        moving = steps != 0
        other_cpu[moving] = np.nextafter(other_cpu[moving], np.where(steps[moving] > 0, np.inf, -np.inf),
                                         dtype=np.float32)
        steps = steps - np.sign(steps)
    assert not np.array_equal(other_cpu[np.isfinite(other_cpu)], responses[np.isfinite(responses)])
    assert bf.fingerprint_mismatches(stored, fingerprint(tmp_path, "other_cpu", other_cpu)) == []

    # one value changed by a thousandth of the data's scale: a different fixture
    changed = responses.copy()
    changed[0, 0] += 0.2
    problems = bf.fingerprint_mismatches(stored, fingerprint(tmp_path, "changed", changed))
    assert problems and all(line.startswith("data.") for line in problems), problems
    assert any(line.startswith("data.samples[0]") for line in problems), problems


def test_shape_nan_and_coordinates_are_compared_exactly(tmp_path, responses):
    stored = fingerprint(tmp_path, "stored", responses)
    fewer = bf.fingerprint_mismatches(stored, fingerprint(tmp_path, "fewer", responses[:-1]))
    assert any(line.startswith("data.shape") for line in fewer), fewer
    another_nan = responses.copy()
    another_nan[5, 5] = np.nan
    assert any(line.startswith("data.nan") for line in
               bf.fingerprint_mismatches(stored, fingerprint(tmp_path, "another_nan", another_nan)))
    ids = [f"s{i}" for i in range(200)]
    ids[7] = "t7"  # the same length: the strings alone differ
    renamed = bf.fingerprint_mismatches(stored, fingerprint(tmp_path, "renamed", responses, stimulus_ids=ids))
    assert renamed == [f"stimulus_id.sha1: {bf.content_fingerprint(tmp_path / 'renamed.nc')['stimulus_id']['sha1']} "
                       f"here, {stored['stimulus_id']['sha1']} stored"]
    fingerprints_without = {key: value for key, value in stored.items() if key != "x"}
    assert bf.fingerprint_mismatches(fingerprints_without, stored) == ["variables ['x'] in one file only"]


def test_a_differing_file_fails_with_what_differs_and_a_matching_one_passes(tmp_path, responses, monkeypatch):
    """assert_files_are_the_reference_ones: equal sha1s pass; a NetCDF file with other bytes passes on its stored
    fingerprint, fails with the differing variables otherwise, and fails without one."""
    path = tmp_path / "assy.nc"
    assembly(responses).to_netcdf(path)
    store = tmp_path / "fingerprints.json"
    store.write_text(json.dumps({"assy.nc": bf.content_fingerprint(path)}))
    monkeypatch.setattr(bf, "CONTENT_FINGERPRINTS", store)
    bf.assert_files_are_the_reference_ones(tmp_path, {"assy.nc": "same"}, {"assy.nc": "same"})
    bf.assert_files_are_the_reference_ones(tmp_path, {"assy.nc": "here"}, {"assy.nc": "reference"})
    changed = responses.copy()
    changed[10, 10] *= 1.5
    assembly(changed).to_netcdf(path)
    with pytest.raises(AssertionError, match=r"assy\.nc.*data\.samples\[|assy\.nc.*data\.(sum|max|min)"):
        bf.assert_files_are_the_reference_ones(tmp_path, {"assy.nc": "here"}, {"assy.nc": "reference"})
    store.write_text("{}")
    with pytest.raises(AssertionError, match="no stored fingerprint"):
        bf.assert_files_are_the_reference_ones(tmp_path, {"assy.nc": "here"}, {"assy.nc": "reference"})


def test_every_reference_compared_fixture_has_a_fingerprint():
    """The files the reference tests compare by sha1 (each family's stored fixture_sha1) have a fingerprint, so a CPU
    that writes other last bits passes on content, not on luck."""
    stored = json.loads(bf.CONTENT_FINGERPRINTS.read_text())
    references = sorted(bf.CONTENT_FINGERPRINTS.parent.glob("*reference*.json"))
    compared = set()
    for reference in references:
        sums = json.loads(reference.read_text()).get("fixture_sha1")
        if isinstance(sums, dict):
            compared |= {name for name in sums if name.endswith(".nc")}
    assert compared, f"no fixture_sha1 in {[r.name for r in references]}"
    assert not compared - set(stored), sorted(compared - set(stored))
