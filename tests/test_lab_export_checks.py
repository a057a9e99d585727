"""A lab's export meets `brainpipe package` and the declared behaviour entry (issue 37, items 5-9 and 12): what the
run would refuse later is refused when packaging (or when the workflow starts), naming the file, the value and the
accepted forms; nothing is left behind by a failure, and no job is started that would delete a good output."""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
import yaml

from lab_export_fixtures import entries, lab_command
from lab_export_fixtures import package as run_package
from workflow_runs import ROOT, snakemake, with_config

sys.path.insert(0, str(ROOT / "examples" / "lab_export"))
from make_export import make_export  # noqa: E402

#: the lab's names for the choices' columns (examples/lab_export/make_export.py)
CHOICES = "stimulus_id=image,subject=participant,choice=response,truth=correct_label,condition=noise_level"


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    workdir = with_config(tmp_path_factory.mktemp("checks"))
    make_export(workdir / "export")
    return workdir


def choices_command(choices, *extra, out, name="MyLab2024"):
    return lab_command(Path("export"), "--choices", choices, "--coords", CHOICES, *extra, name=name, out=out)


def edited_choices(export, tmp_path, edit, name="choices.csv"):
    rows = pd.read_csv(export / "export/choices.csv")
    rows = edit(rows)
    rows.to_csv(tmp_path / name, index=False)
    return tmp_path / name


# ---- item 5: one column both stimulus_id and filename ----

@pytest.mark.parametrize("coords", ["stimulus_id=file,filename=file", "filename=file,stimulus_id=file"])
def test_one_column_can_be_both_the_stimulus_id_and_the_filename(export, tmp_path, coords):
    """A table with one column `file` naming each image: it is the id and the image (it used to say `missing
    column(s) filename`, listing the already renamed columns). The choices name the stimuli by the same column."""
    table = pd.read_csv(export / "export/image_table.csv").drop(columns="image").rename(columns={"filename": "file"})
    table.to_csv(tmp_path / "files.csv", index=False)
    rows = pd.read_csv(export / "export/choices.csv")
    rows.assign(file=rows.pop("image") + ".png").to_csv(tmp_path / "choices.csv", index=False)
    run = run_package(export, "--name", "MyFiles2024", "--images", "export/images", "--stimuli", tmp_path / "files.csv",
                      "--choices", tmp_path / "choices.csv", "--visual-degrees", 8, "--out", tmp_path / "out",
                      "--coords", f"{coords},subject=participant,choice=response,truth=correct_label")
    written = pd.read_csv(tmp_path / "out/stimulus_MyFiles2024.csv")
    assert list(written.columns[:2]) == ["stimulus_id", "filename"]
    assert (written["stimulus_id"] == written["filename"]).all() and written["filename"].iloc[0] == "img000.png"
    from brainpipe.behaviour.data import load_behaviour

    human = load_behaviour(tmp_path / "out/assy_MyFiles2024.nc", tmp_path / "out/stimulus_MyFiles2024.csv")
    assert set(human["stimulus_id"].values) == set(written["stimulus_id"])
    assert "filename" not in entries(run.stdout)["MyFiles2024"]["behaviour"]  # nothing extra declared


# ---- item 6: labels mapped to ImageNet classes ----

def plane_choices(export, tmp_path):
    """The export's choices with the boats called planes: a label brainpipe does not map by itself."""
    return edited_choices(export, tmp_path, lambda rows: rows.replace({"boat": "plane"}))


@pytest.mark.parametrize("labels, plane", [
    ("plane=airplane,bird,car,dog", (404,)),                             # a label brainpipe maps
    ("bird,car,dog,plane=404+n04552348+airliner", (404, 895)),           # index, WordNet id, class name, mixed
    ("{plane: [404], bird: bird, car: car, dog: dog}", (404,)),          # inline YAML, as the config key
    ("labels.yaml", (404, 895)),                                         # a mapping file
])
def test_labels_map_to_imagenet_classes_in_any_form(export, tmp_path, labels, plane):
    from brainpipe.benchmarks.declared_behaviour import declared_behaviour_family

    (tmp_path / "labels.yaml").write_text("plane: [airplane, 895]\nbird: bird\ncar: [car]\ndog: dog\n")
    if labels == "labels.yaml":
        labels = tmp_path / "labels.yaml"
    run = run_package(export, *choices_command(plane_choices(export, tmp_path), "--labels", labels, out=tmp_path))
    from brainpipe.behaviour.tasks import label_indices

    zoo = entries(run.stdout)
    family, _, _ = declared_behaviour_family("MyLab2024", zoo["MyLab2024"])  # the printed entry, as a config reads it
    mapped = dict(e if isinstance(e, tuple) else (e, None) for e in family.behaviours[0].choice_labels)
    assert set(mapped) == {"plane", "bird", "car", "dog"}
    assert mapped["plane"] == plane
    assert mapped["car"] in (None, tuple(label_indices("car")))  # by name, or mapped to itself: the same classes


def test_imagenet_label_set_takes_wordnet_ids(export, tmp_path):
    """`--labels imagenet` (README: the config key's third form): people answered with WordNet ids."""
    from brainpipe.behaviour._synsets import SYNSETS
    from brainpipe.behaviour.tasks import label_indices

    ids = {label: SYNSETS[label_indices(label)[0]] for label in ("bird", "boat", "car", "dog")}
    choices = edited_choices(export, tmp_path, lambda rows: rows.replace(ids))
    run = run_package(export, *choices_command(choices, "--labels", "imagenet", out=tmp_path))
    assert entries(run.stdout)["MyLab2024"]["labels"] == "imagenet"
    refused = run_package(export, *choices_command(plane_choices(export, tmp_path), "--labels", "imagenet",
                                                   out=tmp_path / "no"), check=False)
    assert refused.returncode == 1 and "not among the 1000 ImageNet WordNet ids" in refused.stderr
    assert "every truth and choice is a WordNet id" in refused.stderr and not (tmp_path / "no").exists()


def test_labels_without_a_mapping_are_all_named_with_the_accepted_forms(export, tmp_path):
    run = run_package(export, *choices_command(plane_choices(export, tmp_path), out=tmp_path / "out"), check=False)
    assert run.returncode == 1 and not (tmp_path / "out").exists()
    assert "the truth column's labels" in run.stderr
    assert "label 'plane' (did you mean 'airplane'?) has no ImageNet class mapping" in run.stderr
    assert "--labels bird,car,dog,plane=airplane " in run.stderr  # a command that works, with the labels' order
    for form in ("ImageNet class index 0-999", "WordNet id (n02690373)", "ImageNet class name (airliner)",
                 "labels.yaml"):
        assert form in run.stderr
    run = run_package(export, *choices_command(plane_choices(export, tmp_path), "--labels",
                                               "plane,greeble,bird,car,dog", out=tmp_path / "out"), check=False)
    assert "labels 'plane' (did you mean 'airplane'?), 'greeble' have no ImageNet class mapping" in run.stderr
    assert "--labels plane=airplane,greeble=<ImageNet classes>,bird,car,dog " in run.stderr
    run = run_package(export, *choices_command(plane_choices(export, tmp_path), "--labels",
                                               "plane=aeroplanx,bird,car,dog", out=tmp_path / "out"), check=False)
    assert "--labels, label 'plane': " in run.stderr and "'aeroplanx' is none of them" in run.stderr


def test_the_config_key_takes_the_same_forms_and_names_every_unmapped_label():
    from brainpipe.benchmarks.declared_behaviour import declared_behaviour_family

    entry = {"stimuli": {"csv": "s.csv", "zip": "s.zip"}, "behaviour": {"file": "b.nc"}, "task": "label",
             "visual_degrees": 8}
    family, _, _ = declared_behaviour_family("MyChoices", {**entry, "labels": [
        "dog", {"plane": ["airplane", 895]}, {"tabby": "n02123045"}, {"liner": "airliner"}, {"number": 7}]})
    assert family.behaviours[0].choice_labels == (
        "dog", ("plane", (404, 895)), ("tabby", (281,)), ("liner", (404,)), ("number", (7,)))
    with pytest.raises(ValueError) as caught:
        declared_behaviour_family("MyChoices", {**entry, "labels": ["plane", "dog", "greeble"]})
    message = str(caught.value)
    assert message.startswith("config benchmark_zoo.MyChoices.labels: labels 'plane' (did you mean 'airplane'?), "
                              "'greeble' have no ImageNet class mapping")
    assert "labels: {plane: [<ImageNet classes>], greeble: [<ImageNet classes>], ...}" in message
    assert "WordNet id (n02690373)" in message
    # a name alone is never looked up among ImageNet's class names: 'plane' is also the carpenter's plane (726)
    with pytest.raises(ValueError, match="label 'plane'"):
        declared_behaviour_family("MyChoices", {**entry, "labels": ["plane"]})


# ---- item 7: label sets and choices the run would refuse ----

def test_a_choice_outside_the_labels_is_refused_when_packaging(export, tmp_path):
    """`truck` chosen once, never a truth: the run's ceiling job refused it; packaging said nothing (rc 0)."""
    def truck(rows):
        rows.loc[3, "response"] = "truck"
        return rows

    run = run_package(export, *choices_command(edited_choices(export, tmp_path, truck), out=tmp_path / "out"),
                      check=False)
    assert run.returncode == 1 and not (tmp_path / "out").exists()
    assert ("choices.csv: 1 trial(s) have a choice that is not among the 4 labels ['bird', 'boat', 'car', 'dog'] "
            "(the truth column's values): 'truck' (1 trial(s)), first on line 5.") in run.stderr
    assert "--labels bird,boat,car,dog,truck" in run.stderr
    # with the label declared, it packages (a choice of a label no truth holds is an error people made)
    run_package(export, *choices_command(tmp_path / "choices.csv", "--labels", "bird,boat,car,dog,truck",
                                         out=tmp_path / "out"))


def test_labels_that_leave_out_truths_are_refused_when_packaging(export, tmp_path):
    """--labels without two of the truths: the entry used to be printed with them silently dropped."""
    run = run_package(export, *choices_command("export/choices.csv", "--labels", "bird,boat", out=tmp_path / "out"),
                      check=False)
    assert run.returncode == 1 and not (tmp_path / "out").exists()
    assert "have a truth that is not among the 2 labels ['bird', 'boat']: " in run.stderr
    assert "'car' (80 trial(s))" in run.stderr and "'dog' (80 trial(s))" in run.stderr


def declared(export, tmp_path, name="MyLab2024"):
    return entries(run_package(export, *choices_command("export/choices.csv", out=tmp_path, name=name)).stdout)


def test_declared_labels_the_trials_contradict_stop_the_workflow_at_its_start(export, tmp_path):
    """A config edit drops a label the trials hold: refused when the workflow starts (cached by the files' sha1s),
    not by the ceiling job."""
    from brainpipe.pipeline.declared_files import DeclaredDataError, check_declared_behaviour

    zoo = declared(export, tmp_path)
    cache = tmp_path / "cache.json"
    check_declared_behaviour({"benchmark_zoo": zoo}, cache)  # as packaged: fine
    zoo["MyLab2024"]["labels"] = ["bird", "boat", "car"]
    with pytest.raises(DeclaredDataError) as caught:
        check_declared_behaviour({"benchmark_zoo": zoo}, cache)
    assert str(caught.value).startswith(f"config benchmark_zoo.MyLab2024.labels: {tmp_path}/assy_MyLab2024.nc: 80 "
                                        "trial(s) have a truth that is not among the 3 labels")
    assert "'dog' (80 trial(s))" in str(caught.value)
    with pytest.raises(DeclaredDataError):  # the cached verdict
        check_declared_behaviour({"benchmark_zoo": zoo}, cache)


@pytest.mark.slow  # a real workflow run (fetch, prepare and ceiling of one behavioural benchmark)
def test_a_label_edit_the_trials_contradict_deletes_no_ceiling(export, tmp_path):
    """The ceiling of the packaged entry, then the labels edited so that the trials contradict them: the run
    stops before any job and the ceiling file stays as it was (a failing ceiling job used to delete it: Snakemake
    removes a job's outputs before running it, and again when it fails)."""
    workdir = with_config(tmp_path / "work")
    zoo = declared(export, tmp_path / "data")
    target = "results/ceilings/MyLab2024-error_consistency.json"

    def config(zoo):
        path = workdir / "lab.yaml"
        path.write_text(yaml.safe_dump({"models": ["alexnet_untrained"], "benchmark_zoo": zoo,
                                        "benchmarks": ["MyLab2024-error_consistency"]}))
        return ROOT / "tests/configs/tiny.yaml", path

    snakemake(workdir, "--", target, configfiles=config(zoo))  # ('--': the target is no config file)
    ceiling = workdir / target
    before = (ceiling.read_bytes(), ceiling.stat().st_mtime_ns)
    zoo["MyLab2024"]["labels"] = ["bird", "boat", "car"]
    run = snakemake(workdir, "--", target, configfiles=config(zoo), check=False)
    assert run.returncode != 0
    assert ceiling.is_file() and (ceiling.read_bytes(), ceiling.stat().st_mtime_ns) == before
    assert "config benchmark_zoo.MyLab2024.labels: " in run.stdout + run.stderr
    assert "'dog' (80 trial(s))" in run.stdout + run.stderr


# ---- item 8: a missing truth column; no folder left behind ----

def test_a_missing_truth_column_names_the_file_and_leaves_no_folder(export, tmp_path):
    choices = edited_choices(export, tmp_path, lambda rows: rows.drop(columns="correct_label"), "no_truth.csv")
    out = tmp_path / "new/out"
    run = run_package(export, *choices_command(choices, out=out), check=False)
    assert run.returncode == 1
    assert f"{choices}: missing column(s) truth; it has ['subject', 'stimulus_id', 'choice', 'condition']" in run.stderr
    assert "truth=correct_label" in run.stderr
    assert not (tmp_path / "new").exists()


def test_a_failure_after_the_checks_removes_the_folders_it_made(export, tmp_path, monkeypatch):
    """A failure while writing (disk full) leaves no new folder behind; a folder that existed stays."""
    from brainpipe.pipeline import packaging

    def disk_full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(packaging, "write_zip", disk_full)
    args = dict(name="MyLab2024", images=export / "export/images", stimuli=export / "export/image_table.csv",
                responses=None, visual_degrees=8, choices=export / "export/choices.csv",
                coords=dict(pair.split("=") for pair in CHOICES.split(",")))
    with pytest.raises(OSError, match="No space left"):
        packaging.package(out=tmp_path / "a/b/out", **args)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "kept").mkdir()
    with pytest.raises(OSError, match="No space left"):
        packaging.package(out=tmp_path / "kept/out", **args)
    assert [path.name for path in tmp_path.iterdir()] == ["kept"] and list((tmp_path / "kept").iterdir()) == []


# ---- item 9: stimulus ids the stimulus set does not hold ----

def test_unknown_stimulus_ids_are_named_when_packaging(export, tmp_path):
    def unknown(rows):
        rows.loc[[0, 5], "image"] = ["img999", "img998"]
        return rows

    run = run_package(export, *choices_command(edited_choices(export, tmp_path, unknown), out=tmp_path / "out"),
                      check=False)
    assert run.returncode == 1 and not (tmp_path / "out").exists()
    assert "choices.csv: 2 stimulus id(s) are not in the stimulus CSV: 'img998', 'img999'" in run.stderr


def test_unknown_stimulus_ids_in_a_declared_file_stop_the_workflow_naming_them(export, tmp_path):
    """A behaviour file written by other code (or edited) names stimuli the stimulus set lacks: the ceiling said
    the subjects saw different stimuli; now the workflow's start names the ids."""
    from brainpipe.pipeline.declared_files import DeclaredDataError, check_declared_behaviour

    zoo = declared(export, tmp_path)
    human = xr.load_dataarray(tmp_path / "assy_MyLab2024.nc")
    ids = human["stimulus_id"].values.astype(object)
    ids[np.flatnonzero(ids == "img007")] = "img007b"
    human.assign_coords(stimulus_id=("presentation", ids)).to_netcdf(tmp_path / "edited.nc")
    zoo["MyLab2024"]["behaviour"] = {"file": str(tmp_path / "edited.nc")}  # no sha1: written by other code
    with pytest.raises(DeclaredDataError) as caught:
        check_declared_behaviour({"benchmark_zoo": zoo}, tmp_path / "cache.json")
    assert str(caught.value).startswith(
        f"config benchmark_zoo.MyLab2024.behaviour.file: {tmp_path}/edited.nc: 1 stimulus id(s) of the trials are "
        f"not in the stimulus set {tmp_path}/stimulus_MyLab2024.csv: 'img007b' (4 time(s))")
    # through the workflow: stops before any job, with the same message
    config = export / "unknown.yaml"
    config.write_text(yaml.safe_dump({"models": ["alexnet_untrained"], "benchmark_zoo": zoo,
                                      "benchmarks": ["MyLab2024-error_consistency"]}))
    run = snakemake(export, "-n", configfiles=(ROOT / "tests/configs/tiny.yaml", config), check=False)
    assert run.returncode != 0 and "'img007b' (4 time(s))" in run.stdout + run.stderr


# ---- item 12: the label task's benchmarks, named in full ----

def test_a_model_without_logits_names_every_label_benchmark_suffix():
    from brainpipe import benchmarks as bench
    from brainpipe.pipeline.model_layers import behaviour_layer
    from brainpipe.pipeline.workflow_config import ConfigError

    with pytest.raises(ConfigError) as caught:
        behaviour_layer({"architecture": "pixels"}, "label", name="pixels")
    message = str(caught.value)
    assert "-accuracy," in message  # the declared label task's metric (brainpipe package's entries)
    suffixes = {b.name for f in bench.builtin().families.values() for b in f.behaviours or ()
                if b.task == "label" and not b.identifier}
    assert {"top1", "error_consistency", "accuracy_distance"} <= suffixes
    for suffix in suffixes:
        assert f"-{suffix}" in message
