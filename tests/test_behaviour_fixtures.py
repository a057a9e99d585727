"""Behavioural fixture files in the real layouts, served on loopback, fetched by brainpipe.data.download and scored by the
behaviour library: one path per family (Rajalingham2018, Geirhos2021, Hebart2023, Ferguson2024)."""

import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from PIL import Image

import behaviour_fixtures as bf
from brainio_fixtures import local_http_server
from brainpipe import benchmarks
from brainpipe.behaviour import metrics, tasks
from brainpipe.benchmarks.families import ferguson2024, hebart2023
from brainpipe.benchmarks.families.geirhos2021 import GEIRHOS2021, GEIRHOS2021_EXCLUDE_CONDITIONS
from brainpipe.benchmarks.families.rajalingham2018 import RAJALINGHAM2018
from brainpipe.data.catalog import Catalog, brainio_assembly, brainio_stimuli
from brainpipe.data.brainio import fetch_stimulus_set
from brainpipe.data.download import fetch_file
from brainpipe.io import read_netcdf


def load_behaviour(nc_path, stimuli_csv):
    """Read a behavioural assembly and merge the stimulus columns along ``presentation`` by ``stimulus_id``
    (brainio's StimulusMergeAssemblyLoader). ``brainpipe.data.brainio.load_assembly`` requires a ``neuroid`` dim today,
    so behavioural assemblies need this (or that function relaxed) in the workflow."""
    assembly = read_netcdf(nc_path)
    if "stimulus_id" not in assembly.coords:
        assembly = assembly.assign_coords(stimulus_id=("presentation", assembly["image_id"].values.astype(str)))
    ids = np.array([str(v) for v in assembly["stimulus_id"].values], dtype=object)
    table = pd.read_csv(stimuli_csv, dtype={"stimulus_id": str}).set_index("stimulus_id")
    extra = {c: ("presentation", table[c].reindex(ids).to_numpy(object)) for c in table.columns
             if c not in assembly.coords}
    return assembly.assign_coords(extra)


def _catalog():
    """A catalog of the behavioural families built from the family modules' data (the real sha1s)."""
    assemblies = {"Rajalingham2018.public": brainio_assembly(*RAJALINGHAM2018["assemblies"]["Rajalingham2018.public"]),
                  "Geirhos2021_colour": brainio_assembly("brendel.Geirhos2021_colour",
                                                         GEIRHOS2021["colour"]["assembly_sha1"], "Geirhos2021_colour"),
                  "Hebart2023": hebart2023.ASSEMBLIES["Hebart2023"],
                  "Ferguson2024_tilted_line": ferguson2024.ASSEMBLIES["Ferguson2024_tilted_line"]}
    stimulus_sets = {
        "objectome.public": brainio_stimuli("objectome.public", *RAJALINGHAM2018["stimulus_sets"]["objectome.public"]),
        "Geirhos2021_colour": brainio_stimuli("Geirhos2021_colour", GEIRHOS2021["colour"]["csv_sha1"],
                                              GEIRHOS2021["colour"]["zip_sha1"]),
        "Hebart2023": hebart2023.STIMULUS_SETS["Hebart2023"],
        "Ferguson2024_tilted_line": ferguson2024.STIMULUS_SETS["Ferguson2024_tilted_line"],
        "Ferguson2024_tilted_line_training_stimuli":
            ferguson2024.STIMULUS_SETS["Ferguson2024_tilted_line_training_stimuli"],
    }
    return Catalog(assemblies=assemblies, stimulus_sets=stimulus_sets)


@pytest.fixture(scope="module")
def fetched(tmp_path_factory):
    root = tmp_path_factory.mktemp("behaviour-store")
    sums = bf.write_behaviour_store(root)
    catalog = _catalog()
    names = {entry.file.name for entry in catalog.assemblies.values()} | \
        {f.name for entry in catalog.stimulus_sets.values() for f in (entry.csv, entry.zip)}
    assert names == set(sums)  # the fixture writes exactly the catalog's object names
    catalog = catalog.with_checksums(sums)
    work = tmp_path_factory.mktemp("behaviour-fetched")
    out = {}
    with local_http_server(root) as server:
        for key, entry in catalog.stimulus_sets.items():
            out[key] = fetch_stimulus_set(key, work / "cache", server.url, work / key, catalog=catalog, progress=None)
        for key, entry in catalog.assemblies.items():
            nc = fetch_file(entry.file, work / "cache", server.url, progress=None)
            out["assy:" + key] = load_behaviour(nc, out[entry.stimulus_set])
        assert all(path.startswith("/") for path in server.requests)
    return out


def _pixel_features(stimuli_csv, size=8):
    table = pd.read_csv(stimuli_csv, dtype={"stimulus_id": str})
    pixels = [np.asarray(Image.open(stimuli_csv.parent / f).convert("RGB").resize((size, size)), dtype=float).ravel()
              for f in table["filename"]]
    return table, xr.DataArray(np.array(pixels) / 255, dims=("presentation", "neuroid"),
                               coords={"stimulus_id": ("presentation", table["stimulus_id"].to_numpy(object))})


def test_same_seed_byte_identical(tmp_path):
    assert bf.write_behaviour_store(tmp_path / "a") == bf.write_behaviour_store(tmp_path / "b")


def test_rajalingham2018_public(fetched):
    human = fetched["assy:Rajalingham2018.public"]
    assert {"stimulus_id", "image_id", "truth", "sample_obj", "dist_obj", "choice", "image_label"} <= set(human.coords)
    table, features = _pixel_features(fetched["objectome.public"])
    features = features.assign_coords(image_label=("presentation", table["image_label"].to_numpy(object)))
    with pytest.warns(UserWarning, match="same images"):  # the public benchmark fits and tests on the same images
        probabilities = tasks.probabilities(features, features)
    raw = metrics.i2n(probabilities, human)
    ceiling = metrics.i2n_ceiling(human, skipna=True)
    assert 0 < ceiling.score < 1 and raw.values.sizes["split"] == 2
    behaviour = benchmarks.parse("Rajalingham2018public-i2n").behaviour
    ceiled = metrics.normalise(raw, ceiling, behaviour.normalisation, behaviour.clip)
    assert np.isfinite(ceiled.score)


def test_geirhos2021_colour(fetched):
    human = fetched["assy:Geirhos2021_colour"]
    keep = ~np.isin(human["condition"].values, GEIRHOS2021_EXCLUDE_CONDITIONS["colour"])
    human = human.isel(presentation=np.flatnonzero(keep))
    assert set(human["condition"].values) == {"bw"} and len(set(human["truth"].values)) == 16
    table = pd.read_csv(fetched["Geirhos2021_colour"], dtype={"stimulus_id": str})
    table = table[table["condition"] != "cr"]
    rng = np.random.default_rng(0)
    logits = xr.DataArray(rng.normal(size=(len(table), 1000)), dims=("presentation", "neuroid"),
                          coords={"stimulus_id": ("presentation", table["stimulus_id"].to_numpy(object)),
                                  "truth": ("presentation", table["truth"].to_numpy(object)),
                                  "condition": ("presentation", table["condition"].astype(str).to_numpy(object))})
    labels = tasks.label(logits, sorted(set(human["truth"].values)))
    raw = metrics.error_consistency(labels, human)
    ceiling = metrics.error_consistency_ceiling(human)
    assert 0 < ceiling.score < 1
    behaviour = benchmarks.parse("Geirhos2021colour-error_consistency").behaviour
    ceiled = metrics.normalise(raw, ceiling, behaviour.normalisation, behaviour.clip)
    assert 0 <= ceiled.score <= 1
    top1 = metrics.accuracy(labels, table["truth"].to_numpy())
    assert 0 <= top1.score <= 1


def test_hebart2023(fetched):
    human = fetched["assy:Hebart2023"]
    assert {"triplet_id", "image_1", "image_2", "image_3"} <= set(human.coords)
    table, features = _pixel_features(fetched["Hebart2023"])
    triplets = np.stack([human[f"image_{k}"].values for k in (1, 2, 3)], axis=1)
    choices = tasks.odd_one_out(features, triplets)
    raw = metrics.odd_one_out_match(choices, human)
    behaviour = benchmarks.parse("Hebart2023-match").behaviour
    ceiled = metrics.normalise(raw, hebart2023.CEILING, behaviour.normalisation, behaviour.clip)
    assert 0 <= ceiled.score <= 1
    constant = features.copy(data=np.ones(features.shape))
    assert metrics.odd_one_out_match(tasks.odd_one_out(constant, triplets), human).score == 1.0  # the tie hazard
    with pytest.raises(ValueError, match="triplet stimuli have no features"):
        tasks.odd_one_out(features.isel(presentation=slice(1, None)), triplets)


def test_ferguson2024(fetched):
    human = fetched["assy:Ferguson2024_tilted_line"]
    settings = ferguson2024.EXPERIMENTS["tilted_line"]
    test_table, test_features = _pixel_features(fetched["Ferguson2024_tilted_line"], size=16)
    fit_table, fit_features = _pixel_features(fetched["Ferguson2024_tilted_line_training_stimuli"], size=16)
    label_of = lambda t: np.where(t["image_number"] % 2 == 0, "oddball", "same").astype(object)  # noqa: E731
    fit_features = fit_features.assign_coords(image_label=("presentation", label_of(fit_table)))
    # Ferguson2024's training and test sets reuse the ids first_block_<n>/second_block_<n> for different images
    # (both packaged by the same script): the images differ, so no "fitted on the test images" warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        probabilities = tasks.probabilities(fit_features, test_features)
    assert list(probabilities["choice"].values) == ["oddball", "same"]  # first fitting image is even
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = metrics.model_choices(probabilities.assign_coords(block=("presentation", test_table["block"].to_numpy(object))),
                                      test_table["image_number"], label_of(test_table))
    model_integral = metrics.integral(model, settings.lapse_rate)
    human_integral = metrics.integral(human, settings.lapse_rate)
    raw = metrics.value_delta(model_integral, human_integral, scale=ferguson2024.SCALE)
    behaviour = benchmarks.parse("Ferguson2024tilted_line-value_delta").behaviour
    ceiled = metrics.normalise(raw, settings.ceiling[0], behaviour.normalisation, behaviour.clip)
    assert 0 <= ceiled.score <= 1
    assert raw.score == pytest.approx(np.exp(-0.75 * abs(model_integral - human_integral)))
