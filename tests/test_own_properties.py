"""A user's own properties benchmark (README "Your own benchmark → properties"): `brainpipe package --properties`
checks and writes the files, a benchmark_zoo declaration with a built-in property set and one with the user's own
property function file score end to end through snakemake, touching nothing under src/ or workflow/."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
import yaml

from brainpipe import cli
from brainpipe.properties.ks_similarity import bootstrap_similarity

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "own_properties"
SNAKEMAKE = Path(sys.executable).parent / "snakemake"


def make_data(folder):
    subprocess.run([sys.executable, str(EXAMPLE / "make_data.py"), str(folder)], check=True, capture_output=True)
    return folder


def package(folder, name, out, property_set="ringach2002", measures="or_bandwidth=bandwidth", properties=None,
            capsys=None):
    args = ["package", "--name", name, "--images", str(folder / "images"), "--stimuli", str(folder / "stimuli.csv"),
            "--properties", str(properties or folder / "properties.csv"), "--bins", str(folder / "bins.yaml"),
            "--property-set", property_set, "--measures", measures, "--neurons", "SyntheticGratings",
            "--visual-degrees", "8", "--out", str(out)]
    return cli.main(args)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return make_data(tmp_path_factory.mktemp("own_properties"))


def test_package_writes_a_property_table_with_bins_and_a_declaration_the_config_accepts(data, tmp_path, capsys):
    assert package(data, "MyTuning", tmp_path / "out", measures="or_bandwidth=bandwidth,cv=circular_variance") == 0
    printed = capsys.readouterr().out
    block = yaml.safe_load(printed[printed.index("benchmark_zoo:"):])
    entry = block["benchmark_zoo"]["MyTuning"]
    assert entry["properties"]["measures"] == {"or_bandwidth": "bandwidth", "cv": "circular_variance"}
    with xr.open_dataarray(tmp_path / "out" / "properties.nc") as table:
        assert table.dims == ("neuroid", "neuronal_property") and table.sizes["neuroid"] == 200
        np.testing.assert_array_equal(table.attrs["bandwidth_bins"], np.linspace(0, 90, 18))
    from brainpipe.benchmarks import from_config
    registry = from_config(block)
    assert registry.benchmark("MyTuning-cv").measure.property == "circular_variance"


@pytest.mark.parametrize("broken, message", [
    ("nan_row", "1 neuron row(s) hold no value in any property (CSV lines [4])"),
    ("no_column", "no column 'bandwidth' (measure or_bandwidth)"),
    ("no_phase", "lack the column(s) ['phase'] that property set ringach2002 needs"),
])
def test_package_refuses_bad_tables_naming_the_file_and_writes_nothing(data, tmp_path, capsys, broken, message):
    table = pd.read_csv(data / "properties.csv")
    stimuli = data / "stimuli.csv"
    if broken == "nan_row":
        table.loc[2, ["circular_variance", "bandwidth", "peak_rate"]] = np.nan
    if broken == "no_column":
        table = table.drop(columns="bandwidth")
    if broken == "no_phase":
        stimuli = tmp_path / "stimuli.csv"
        pd.read_csv(data / "stimuli.csv").drop(columns="phase").to_csv(stimuli, index=False)
    table.to_csv(tmp_path / "bad.csv", index=False)
    args = ["package", "--name", "Bad", "--images", str(data / "images"), "--stimuli", str(stimuli),
            "--properties", str(tmp_path / "bad.csv"), "--bins", str(data / "bins.yaml"), "--measures",
            "or_bandwidth=bandwidth", "--visual-degrees", "8", "--out", str(tmp_path / "out")]
    assert cli.main(args) == 1
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


@pytest.mark.slow
def test_declared_and_plugin_property_sets_score_end_to_end(data, tmp_path):
    work = tmp_path / "work"
    (work / "config").mkdir(parents=True)
    entries = {}
    for name, property_set, measures in (
            ("MyTuning", "ringach2002", "or_bandwidth=bandwidth,circular_variance=circular_variance"),
            ("MyOwnSet", str(EXAMPLE / "my_properties.py"), "peak_rate=peak_rate,cv=circular_variance"),
            ("MyBroken", str(tmp_path / "broken.py"), "peak_rate=peak_rate")):
        if name == "MyBroken":
            (tmp_path / "broken.py").write_text("def properties(responses, baseline, stimuli):\n"
                                                "    raise KeyError('spatial_phase')\n")
        assert package(data, name, tmp_path / name, property_set, measures) == 0
        entries[name] = yaml.safe_load(cli_entry(tmp_path / name, name, property_set, measures))
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    config.update(models=["alexnet_untrained"], benchmark_zoo=entries,
                  benchmarks=["MyTuning-or_bandwidth", "MyTuning-circular_variance", "MyOwnSet-peak_rate",
                              "MyOwnSet-cv"])
    (work / "config" / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    run = subprocess.run([str(SNAKEMAKE), "-s", str(REPO / "Snakefile"), "--cores", "2"], cwd=work, env=env,
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    log = run.stdout + run.stderr
    assert len(re.findall(r"^(?:local)?rule properties_receptive_fields:$", log, flags=re.M)) == 1  # shared
    for identifier in config["benchmarks"]:
        score = json.loads((work / "results" / "alexnet_untrained" / f"{identifier}.json").read_text())
        assert score["origin"].startswith("config benchmark_zoo.") and 0 <= score["raw"] <= 1, identifier
    # the plugin's property, scored as the library scores it on the stage's files
    folder = work / "results/properties/alexnet_untrained/features.2/SyntheticGratings"
    with xr.open_dataarray(folder / "plugin_my_properties.nc") as model:
        values = model.sel(neuronal_property="peak_rate").values[model["responsive"].values]
    with xr.open_dataarray(work / "resources/properties/MyOwnSet_properties.nc") as recorded:
        expected = bootstrap_similarity(values, recorded.sel(neuronal_property="peak_rate").values,
                                        recorded.attrs["peak_rate_bins"], rng=0)
    score = json.loads((work / "results/alexnet_untrained/MyOwnSet-peak_rate.json").read_text())
    assert score["raw"] == expected.score and score["n_units"] == len(values) > 0
    # a property function that raises: one error naming the file and function, no score written
    broken = subprocess.run([str(SNAKEMAKE), "-s", str(REPO / "Snakefile"), "--cores", "2",
                             "results/alexnet_untrained/MyBroken-peak_rate.json"], cwd=work, env=env,
                            capture_output=True, text=True, timeout=900)
    assert broken.returncode != 0
    assert "broken.py:properties raised KeyError: 'spatial_phase'" in broken.stdout + broken.stderr
    assert not (work / "results/alexnet_untrained/MyBroken-peak_rate.json").exists()
    assert not (folder / "plugin_broken.nc").exists()


def cli_entry(out, name, property_set, measures):
    """The benchmark_zoo entry `brainpipe package` printed, rebuilt from the files it wrote (same content)."""
    from brainpipe.data.download import sha1_of
    entry = {"properties": {"file": str(out / "properties.nc"), "sha1": sha1_of(out / "properties.nc"),
                            "property_set": property_set,
                            "measures": dict(pair.split("=") for pair in measures.split(","))},
             "stimuli": {"csv": str(out / "stimuli.csv"), "zip": str(out / "stimuli.zip")},
             "visual_degrees": 8.0, "neurons": "SyntheticGratings"}
    return yaml.safe_dump(entry)


@pytest.mark.parametrize("change, key, message", [
    ({"neurons": "Marques2021"}, "neurons", "unknown neurons definition 'Marques2021' (did you mean 'Marques2020'?)"),
    ({"properties": {"file": "p.nc", "property_set": "ringach2003", "measures": {"a": "b"}}},
     "properties.property_set", "unknown property set 'ringach2003'"),
    ({"properties": {"file": "p.nc", "property_set": "missing.py", "measures": {"a": "b"}}},
     "properties.property_set", "missing.py does not exist"),
    ({"properties": {"file": "p.nc", "property_set": "ringach2002", "measures": {"Or-Bw": "bandwidth"}}},
     "properties.measures", "lowercase letters, digits and _ only"),
    ({"properties": {"file": "p.nc", "property_set": "ringach2002"}}, "properties.measures", "missing"),
])
def test_a_bad_declaration_names_the_key(tmp_path, change, key, message):
    from brainpipe.benchmarks import from_config
    entry = {"properties": {"file": "p.nc", "property_set": "ringach2002", "measures": {"or_bandwidth": "bandwidth"}},
             "stimuli": {"csv": "s.csv", "zip": "s.zip"}, "visual_degrees": 8, **change}
    with pytest.raises(ValueError) as error:
        from_config({"benchmark_zoo": {"MyTuning": entry}}, tmp_path)
    assert f"benchmark_zoo.MyTuning.{key}" in str(error.value) and message in str(error.value)
