"""brainpipe.score from Python: same stages, same caches and the identical number as the command line."""

import json
import re
import shutil

import numpy as np
import pytest

import brainpipe
from brainpipe.api import fingerprint
from workflow_runs import ROOT, snakemake


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_score_from_python_equals_the_command_line_and_shares_the_cache(repo_config, capsys):
    s = brainpipe.score("pixels", "SyntheticShapes.IT-pls")
    # not silent for minutes: one progress line, rewritten (\r) as Snakemake's jobs finish, ended by a newline
    progress = capsys.readouterr().err
    assert progress.startswith("\rbrainpipe: scoring pixels on SyntheticShapes.IT-pls: planning") and \
        progress.endswith("\n") and progress.count("\n") == 1, progress
    counts = re.findall(r"(\d+) of (\d+) jobs \(\d+%\) done, latest job: (\w+)", progress)
    assert len(counts) >= 5 and counts[-1][0] == counts[-1][1] and counts[-1][2] == "score", counts
    brainpipe.score("pixels", "SyntheticShapes.IT-pls")
    assert capsys.readouterr().err.endswith("nothing to do (all up to date)\n")
    on_disk = json.loads((repo_config / "results/pixels/SyntheticShapes.IT-pls.json").read_text())
    assert float(s) == on_disk["score"] and s.raw == on_disk["raw"] and s.ceiling == on_disk["ceiling"]
    assert s.layer == "pixels" and len(s.per_fold) == 3 and s.attrs["benchmark"] == "SyntheticShapes.IT-pls"
    # the command line finds everything done: one cache, one number
    dry = snakemake(repo_config, "-n", "results/pixels/SyntheticShapes.IT-pls.json",
                    configfiles=(repo_config / "config/config.yaml",))
    assert "Nothing to be done" in dry.stdout + dry.stderr


@pytest.mark.slow  # a second model through the whole workflow (about 25 s here)
def test_score_a_spec_with_settings(repo_config):
    spec = {"architecture": "alexnet", "weights": None, "seed": 1, "visual_degrees": 8,
            "layers": {"V4": "features.7", "IT": "features.12"}}
    s = brainpipe.score(spec, "SyntheticShapes.V4-pls", name="alexnet_seed1", splits=2)
    assert len(s.per_fold) == 2 and s.layer == "features.7" and s.attrs["data"]["settings"]["splits"] == 2
    assert brainpipe.load_benchmark("SyntheticShapes.V4-pls").n_folds == 3  # the working directory's config


def test_bad_model_is_one_clear_error(repo_config):
    with pytest.raises(ValueError, match="not in model_zoo"):
        brainpipe.score("nope", "SyntheticShapes.IT-pls")
    with pytest.raises(ValueError, match="needs name="):
        brainpipe.score({"architecture": "alexnet"}, "SyntheticShapes.IT-pls")
    with pytest.raises(RuntimeError, match="unknown family 'Nope2020'"):
        brainpipe.score("pixels", "Nope2020.IT-pls")


# --- models that live in this Python session ----------------------------------------------------------------------

def small_net(seed=0):
    import torch

    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Conv2d(3, 8, 5, stride=4), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(4),
                               torch.nn.Flatten())


SMALL = {"layers": {"V4": "1", "IT": "2"}, "preprocessing": {"image_size": 32}}


def activation_files(workdir, name):
    return sorted((workdir / "results/activations" / name).glob("*/*.nc"))


def stamps(files):
    return [f.stat().st_mtime_ns for f in files]


@pytest.mark.slow  # ~60 s: five workflow runs
def test_in_memory_network_scores_reuses_and_recomputes_on_new_weights(repo_config):
    import yaml

    net = small_net()
    first = brainpipe.score(net, "SyntheticShapes.IT-pls", name="mynet", **SMALL)
    assert np.isfinite(float(first)) and first.layer == "2" and first.model == "mynet"
    files = activation_files(repo_config, "mynet")
    written = stamps(files)
    assert [f.name for f in files] == ["1.nc", "2.nc"]  # every region of the stimulus set, as the job extracts
    assert net.training  # handed back as it came
    # unchanged network: the activations are reused, the score is the same number
    again = brainpipe.score(net, "SyntheticShapes.IT-pls", name="mynet", **SMALL)
    assert float(again) == float(first) and stamps(activation_files(repo_config, "mynet")) == written
    # the command line, given the entry the score records, finds everything up to date
    entry = {k: v for k, v in first.attrs["model_spec"].items() if k in ("architecture", "layers", "visual_degrees",
                                                                          "preprocessing")}
    assert entry["architecture"] == f"inprocess:{fingerprint(net)}"
    (repo_config / "inprocess.yaml").write_text(yaml.safe_dump({"model_zoo": {"mynet": entry}, "models": ["mynet"]},
                                                               sort_keys=False))
    configs = (repo_config / "config/config.yaml", repo_config / "inprocess.yaml")
    dry = snakemake(repo_config, "-n", "results/mynet/SyntheticShapes.IT-pls.json", configfiles=configs)
    assert "Nothing to be done" in dry.stdout + dry.stderr
    # new weights: another fingerprint, so the activations are recomputed, not reused
    import torch

    with torch.no_grad():
        net[0].weight.mul_(-1)
    changed = brainpipe.score(net, "SyntheticShapes.IT-pls", name="mynet", **SMALL)
    assert float(changed) != float(first)
    assert changed.attrs["model_spec"]["architecture"] != entry["architecture"]
    assert all(a < b for a, b in zip(written, stamps(activation_files(repo_config, "mynet"))))
    # activations deleted, then another benchmark on the same images: the workflow cannot rebuild them and says so
    entry["architecture"] = changed.attrs["model_spec"]["architecture"]
    (repo_config / "inprocess.yaml").write_text(yaml.safe_dump({"model_zoo": {"mynet": entry}, "models": ["mynet"]},
                                                               sort_keys=False))
    shutil.rmtree(files[0].parent)
    failed = snakemake(repo_config, "-p", "results/mynet/SyntheticShapes.V4-pls.json", configfiles=configs,
                       check=False)  # -p ends the --configfile list
    assert failed.returncode != 0
    assert "Call brainpipe.score(<your model>, ...) again from Python" in failed.stdout + failed.stderr
    # ... and score does
    assert np.isfinite(float(brainpipe.score(net, "SyntheticShapes.V4-pls", name="mynet", **SMALL)))


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_brain_model_class_defined_here_scores_finite(repo_config):
    from PIL import Image

    class RandomPixels:  # a notebook-style class: not importable by any workflow job
        regions = ("V4", "IT")

        def __init__(self, seed):
            self.projection = np.random.default_rng(seed).standard_normal((8 * 8 * 3, 40))

        def visual_degrees(self):
            return 8

        def start_recording(self, region, time_bins):
            assert list(time_bins) == [(70, 170)]
            self.region = region

        def look_at(self, stimuli):
            pixels = [np.asarray(Image.open(p).convert("RGB").resize((8, 8)), float).ravel() / 255 for p in stimuli]
            return np.stack(pixels) @ self.projection

    s = brainpipe.score(RandomPixels(0), "SyntheticShapes.IT-pls", name="random_pixels")
    assert np.isfinite(float(s)) and np.isfinite(s.raw) and s.layer == "IT"
    assert [f.name for f in activation_files(repo_config, "random_pixels")] == ["IT.nc", "V4.nc"]
    # equal state, equal fingerprint (reused); another seed, another fingerprint
    assert fingerprint(RandomPixels(0)) == fingerprint(RandomPixels(0)) != fingerprint(RandomPixels(1))


def test_fingerprint_follows_weights_buffers_and_structure():
    import copy

    import torch

    net = small_net()
    assert fingerprint(net) == fingerprint(copy.deepcopy(net)) == fingerprint(small_net())
    assert fingerprint(small_net(seed=1)) != fingerprint(net)
    strided = small_net()
    strided[0].stride = (2, 2)  # no tensor changes, the computation does
    assert fingerprint(strided) != fingerprint(net)
    with_bn = torch.nn.Sequential(torch.nn.BatchNorm2d(3))
    before = fingerprint(with_bn)
    with_bn[0].running_mean += 1  # a buffer, not a parameter
    assert fingerprint(with_bn) != before
    half = small_net().to(torch.bfloat16)  # dtypes without a numpy equivalent hash too
    assert fingerprint(half) != fingerprint(net)


def test_in_memory_model_errors_name_the_argument(repo_config):
    net = small_net()
    with pytest.raises(ValueError, match="needs name="):
        brainpipe.score(net, "SyntheticShapes.IT-pls", layers={"IT": "2"})
    with pytest.raises(ValueError, match=r"needs layers=\{region: module name\}"):
        brainpipe.score(net, "SyntheticShapes.IT-pls", name="mynet")
    with pytest.raises(ValueError, match=r"layers\['IT'\]: no module '22'; did you mean '2'\?"):
        brainpipe.score(net, "SyntheticShapes.IT-pls", name="mynet", layers={"IT": "22"})
    with pytest.raises(ValueError, match=r"sweep\['IT'\]: no module 'conv'"):
        brainpipe.score(net, "SyntheticShapes.IT-pls", name="mynet", layers={"IT": "2"}, sweep={"IT": ["conv"]})
    with pytest.raises(ValueError, match="is a model_zoo entry of the config"):
        brainpipe.score(net, "SyntheticShapes.IT-pls", name="alexnet_untrained", layers={"IT": "2"})
    with pytest.raises(ValueError, match="commits nothing to it"):
        brainpipe.score(net, "SyntheticShapes.IT-pls", name="mynet", layers={"V4": "2"})
    with pytest.raises(ValueError, match="preprocessing"):
        brainpipe.score(net, "SyntheticShapes.IT-pls", name="mynet", layers={"IT": "2"},
                        preprocessing={"image_size": -1})
    with pytest.raises(TypeError, match="BrainModel interface"):
        brainpipe.score(object(), "SyntheticShapes.IT-pls", name="thing")
    with pytest.raises(TypeError, match="layers= describes an in-memory model"):
        brainpipe.score("pixels", "SyntheticShapes.IT-pls", layers={"IT": "pixels"})
    assert not (repo_config / "results").exists()  # every check before any file is written


def test_workflow_checks_an_inprocess_entry_form():
    from brainpipe.pipeline.workflow_config import ConfigError, check_model

    check_model("m", {"architecture": "inprocess:0123abcd", "layers": {"IT": "anything"}})  # names: Python's job
    with pytest.raises(ConfigError, match="'inprocess:<hex fingerprint>'"):
        check_model("m", {"architecture": "inprocess:", "layers": {"IT": "x"}})
    with pytest.raises(ConfigError, match="model_zoo.m.weights_file: an in-process model brings its own weights"):
        check_model("m", {"architecture": "inprocess:ab", "layers": {"IT": "x"}, "weights_file": "w.pt"})
    with pytest.raises(ConfigError, match="model_zoo.m.sweep: 'all'"):
        check_model("m", {"architecture": "inprocess:ab", "layers": {"IT": "x"}, "sweep": {"IT": "all"}})


@pytest.mark.slow
def test_in_memory_alexnet_gives_the_zoo_alexnet_untrained_score(repo_config):
    import torch

    from brainpipe.models._torchvision import import_torchvision

    torch.manual_seed(0)  # as the zoo builds alexnet_untrained (seed 0, untrained)
    net = import_torchvision().models.alexnet(weights=None)
    mine = brainpipe.score(net, "SyntheticShapes.IT-pls", name="my_alexnet",
                           layers={"V4": "features.7", "IT": "features.12"})
    zoo = brainpipe.score("alexnet_untrained", "SyntheticShapes.IT-pls")
    assert float(mine) == float(zoo) and mine.raw == zoo.raw and mine.per_fold == zoo.per_fold


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_readme_look_at_block_gives_the_workflows_activations(repo_config):
    """Docs "In Python" (docs/guide/python.md): the load_model(...).look_at(...) block, run as written, records what the workflow's
    activations job wrote (the stimuli placed on the model's 8° screen from the set's 10°), not the un-placed images
    (before: 18 % apart)."""
    import re

    import xarray as xr

    folder = "results/activations/alexnet_untrained/SyntheticShapes--target8.00--source10.00"
    snakemake(repo_config, "--cores", "2", f"{folder}/features.12.nc", configfiles=(repo_config / "config/config.yaml",))
    from docs_text import section as doc_section

    section = doc_section("In Python")  # docs/guide/python.md
    block = re.findall(r"```python\n(.*?)```", section, flags=re.S)[-1]
    assert "look_at(" in block
    namespace = {"brainpipe": brainpipe}
    exec(compile(block, "docs/guide/python.md", "exec"), namespace)
    mine = namespace["activations"]
    with xr.open_dataarray(repo_config / folder / "features.12.nc") as job:
        job = job.load()
    assert mine.shape == job.shape and list(mine["stimulus_id"].values) == list(job["stimulus_id"].values)
    np.testing.assert_allclose(mine.values, job.values, rtol=1e-4, atol=1e-5)
    # the placed copy is temporary: nothing is left beside the workflow's files
    assert not list((repo_config / "resources/stimuli").glob("*--target*"))


def test_look_at_places_on_screen_or_asks_for_the_degrees(repo_config, demo_stimuli, tmp_path):
    from brainpipe.data.screen import place_on_screen
    from brainpipe.models.brain_model import BrainModel

    model = brainpipe.load_model("pixels")  # 8°; the config's SyntheticShapes benchmarks show their set at 10°
    model.start_recording("IT")
    assert model.stimulus_degrees["SyntheticShapes"] == 10.0
    with pytest.raises(ValueError, match=r"visual degrees its images span are unknown .* source_visual_degrees="):
        model.look_at(demo_stimuli)  # a folder no benchmark names, without a degrees column
    placed = tmp_path / "placed"
    place_on_screen(demo_stimuli, placed, 8.0, 16.0)
    plain = BrainModel.from_spec("pixels", {"architecture": "pixels", "layers": {"IT": "pixels"}})
    plain.start_recording("IT")
    expected = plain.look_at(placed, source_visual_degrees=8)  # already at the model's 8°: read as it is
    np.testing.assert_array_equal(model.look_at(demo_stimuli, source_visual_degrees=16).values, expected.values)
    np.testing.assert_array_equal(model.look_at(placed).values, expected.values)  # its degrees column says 8°
    assert not np.array_equal(model.look_at(demo_stimuli, source_visual_degrees=8).values, expected.values)


@pytest.mark.slow
def test_readme_python_examples_run(repo_config):
    """The docs' "In Python" code blocks (docs/guide/python.md), run as written in a working directory with the tiny
    config."""
    import re

    from docs_text import section as doc_section

    section = doc_section("In Python")
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 2
    namespace = {"__name__": "__main__"}
    for block in blocks:
        exec(compile(block, "docs/guide/python.md", "exec"), namespace)
    assert np.isfinite(float(namespace["s"])) and namespace["activations"].dims == ("presentation", "neuroid")
    assert namespace["benchmark"].n_folds == 3  # the working directory's (tiny) config
    assert {p.name for p in (repo_config / "results").iterdir()} >= {"alexnet_untrained", "alexnet_seed1",
                                                                       "my_resnet18", "random_pixels"}
