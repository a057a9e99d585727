#!/usr/bin/env python
"""The suite store: fixture files for every Brain-Score 2.4.2 identifier (``brainpipe list --select
suite:brainscore``) in one folder, under the object names and in the formats Brain-Score downloads, written by the
per-family fixture writers of tests/*_fixtures.py.

    .venv/bin/python tests/reference/suite_store.py --scale small --out STORE

STORE then holds the files, ``checksums.json`` (object name -> sha1: brainpipe's ``data.checksums_override``, with
``data.base_url`` the folder served over HTTP) and ``manifest.json``: the scale, every file's sha1, per group of
identifiers its files, the stand-in weights and layer commitments both sides are run with (tests/reference/
suite_table.py reads them), and ``unwritable``: each identifier whose data could not be written, with the reason
(none at present). Same scale and seed → byte-identical files.

A *group* is one writer's files and the identifiers scored on them. Where a writer exists for one data set of a
family only, the group says how the others are made of it (Geirhos2021's 16 other conditions and Rajalingham2018's
private split are its colour / public fixture under their names). Writers that write the same object name must write
the same bytes (the hvm-public images of MajajHong2015's public, temporal and reverse benchmarks): a group whose file
differs from one already in the store is not written, and its identifiers are listed as unwritable, with the file.

Scales: ``small`` is each writer's own size (the sizes the family tests and stored references use); ``large`` enlarges
the writers that take sizes (listed in :data:`LARGE`, for timing runs) and is ``small`` for the others (the manifest
records which).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[2]
for _path in (REPO / "tests", REPO / "tests" / "reference", REPO / "src"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

IDENTIFIERS_FILE = REPO / "src" / "brainpipe" / "benchmarks" / "brainscore_identifiers_2.4.2.txt"
SCALES = ("small", "large")


@dataclass(frozen=True)
class Group:
    """Identifiers scored on one writer's files, and how both sides score them."""

    name: str
    families: tuple  # brainpipe family names (brainpipe.benchmarks.parse(identifier).family_name)
    write: Callable  # (folder, scale) -> {object name: sha1}
    weights: str = "seeded"  # the stand-in alexnet of both sides: suite_table.WEIGHTS
    layers: dict = field(default_factory=dict)  # region -> alexnet layer, committed on both sides
    note: str = ""  # a caveat every row of the group carries in the table
    made_of: str = ""  # how the files are made where the family has no writer of its own


def identifiers() -> list[str]:
    """Brain-Score 2.4.2's identifiers, in the order of the list brainpipe ships."""
    return [line.strip() for line in IDENTIFIERS_FILE.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


@functools.lru_cache(maxsize=None)
def family_of(identifier: str) -> str:
    from brainpipe import benchmarks

    return benchmarks.parse(identifier).family_name


# ---------------------------------------------------------------------------------------------- the writers


def _majaj(root, scale):
    """MajajHong2015 public and private (the public split at neural_rest_fixtures' size: enough neuroids for the 25
    PLS components of its reverse benchmarks, 4 repetitions; the same hvm-public images as the temporal fixture)."""
    import brainio_fixtures as bf
    import neural_rest_fixtures

    sizes = dict(neural_rest_fixtures.MAJAJ_REVERSE_SCALE)
    if scale == "large":
        sizes.update(v0=8, v3=32, v6=40)
    return bf.write_fixture_store(root, scale=sizes, datasets=("MajajHong2015.public", "MajajHong2015.private"))


def _freeman(root, scale):
    import brainio_fixtures as bf

    return bf.write_fixture_store(root, scale="small" if scale == "small" else dict(
        bf.SCALES["small"], fz_families=15, fz_samples=15), datasets=("FreemanZiemba2013.public",
                                                                     "FreemanZiemba2013.private"))


def _majaj_temporal(root, scale):
    import majaj_temporal_fixtures

    return majaj_temporal_fixtures.majaj_temporal_store(root)


def _neural_families(root, scale):
    import neural_family_fixtures as nf

    return nf.write_store(root)


def _li2026(root, scale):
    import neural_family_fixtures as nf

    return nf.li2026_store(root, **({"n_images": 400} if scale == "large" else {}))


def _cadena2017(root, scale):
    import neural_family_fixtures as nf

    return nf.cadena2017_store(root, **({"n_images": 320} if scale == "large" else {}))


def _bracci2019(root, scale):
    import neural_family_fixtures as nf

    return nf.bracci2019_store(root)


def _coggan2024_fmri(root, scale):
    import neural_rest_fixtures

    return neural_rest_fixtures.coggan2024_store(root)


def _allen2022(root, scale):
    import allen2022_fixtures

    return allen2022_fixtures.allen2022_store(root)


def _hebart2023_fmri(root, scale):
    import fmri_fixtures

    return fmri_fixtures.hebart2023_fmri_store(root, **({"n_train": 480, "n_test": 40} if scale == "large" else {}))


def _papale2025(root, scale):
    import fmri_fixtures

    return fmri_fixtures.papale2025_store(root, **({"n_train": 480, "n_test": 40} if scale == "large" else {}))


def _gifford2022(root, scale):
    import fmri_fixtures

    return fmri_fixtures.gifford2022_store(root, **({"n_train": 240, "n_test": 24} if scale == "large" else {}))


def _cowley2026(root, scale):
    import cowley2026_fixtures

    return cowley2026_fixtures.write_store(root)


def _igustibagus2024(root, scale):
    import igustibagus_fixtures

    return igustibagus_fixtures.write_store(root)


def _zerbe2026(root, scale):
    import zerbe2026_fixtures

    return zerbe2026_fixtures.write_store(root)


def _zerbe2026_persubject(root, scale):
    import zerbe2026_fixtures

    return zerbe2026_fixtures.write_persubject_store(root)


def _kar2019(root, scale):
    import ost_fixtures

    return ost_fixtures.write_kar2019_store(root, **({"n_images": 320} if scale == "large" else {}))


def _marques2020(root, scale):
    import properties_fixtures

    return properties_fixtures.write_marques_store(root)


def _behaviour(*families, **kwargs):
    def write(root, scale):
        import behaviour_fixtures

        return behaviour_fixtures.write_behaviour_store(root, families=families, **kwargs)
    return write


def _ferguson2024(root, scale):
    import behaviour_fixtures

    from brainpipe.benchmarks.families import ferguson2024

    sums = {}
    for experiment in ferguson2024.EXPERIMENTS:
        sums.update(behaviour_fixtures.write_behaviour_store(root, families=("Ferguson2024",),
                                                             ferguson_experiment=experiment))
    return sums


def _geirhos2021(root, scale):
    """The colour fixture (tests/behaviour_fixtures.geirhos2021_colour) under each data set's names (assembly
    ``brendel.Geirhos2021_<dataset>``, stimulus set ``Geirhos2021_<dataset>``), with the colour experiment's
    conditions (cr, bw), as no writer exists for the others; cue-conflict: Hermann2020's stimulus set (the same bytes
    as its group writes: both read ``Geirhos2021_cue-conflict``) with simulated trials on its images."""
    import behaviour_fixtures as bfx
    import behaviour_fixtures_families as ff
    from brainio_fixtures import _sha1, write_zip

    from brainpipe.benchmarks.families import geirhos2021

    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    colour, colour_table, colour_pngs = bfx.geirhos2021_colour()
    written = []
    for dataset in geirhos2021.GEIRHOS2021:
        if dataset == "cue-conflict":
            table, pngs = ff.hermann2020_cue_conflict()
            assembly = _simulated_trials(table, f"brendel.Geirhos2021_{dataset}")
        else:
            assembly, table = _geirhos2021_conditions(colour, colour_table, dataset)
            assembly, pngs = assembly.rename(f"brendel.Geirhos2021_{dataset}"), colour_pngs
        name = "assy_" + assembly.name.replace(".", "_") + ".nc"
        bfx._write_nc(assembly, root / name, False)
        stem = f"stimulus_Geirhos2021_{dataset}"
        table.to_csv(root / f"{stem}.csv", index=False)
        write_zip(pngs, root / f"{stem}.zip")
        written += [name, f"{stem}.csv", f"{stem}.zip"]
    return {name: _sha1((root / name).read_bytes()) for name in written}


def _geirhos2021_conditions(assembly, table, dataset):
    """The colour fixture with ``dataset``'s conditions: the benchmark drops conditions by value
    (GEIRHOS2021_EXCLUDE_CONDITIONS) and brainpipe refuses data that lacks one, so the colour experiment's 'cr'
    images take the excluded values in turn and its 'bw' images a kept value of the same type (colour itself stays
    as it is: 'cr' is its excluded condition)."""
    from brainpipe.benchmarks.families.geirhos2021 import GEIRHOS2021_EXCLUDE_CONDITIONS

    excluded = GEIRHOS2021_EXCLUDE_CONDITIONS.get(dataset, [])
    if dataset == "colour" or not excluded:
        return assembly, table
    kept = 2.5 if isinstance(excluded[0], (int, float)) else "kept"
    dropped = iter(excluded * len(table))
    by_image = {image: (next(dropped) if condition == "cr" else kept)
                for image, condition in zip(table["image_id"], table["condition"])}
    table = table.assign(condition=[by_image[image] for image in table["image_id"]])
    assembly = assembly.assign_coords(condition=("presentation", [by_image[image] for image
                                                                  in assembly["image_id"].values]))
    return assembly, table


def _simulated_trials(stimuli, name, subjects=4, seed=0):
    """Geirhos-style trials on ``stimuli`` (columns image_id, truth, condition), as geirhos2021_colour simulates
    them: every subject sees every image once, right with a subject skill times an image difficulty, else a random
    category."""
    import behaviour_fixtures as bfx
    import numpy as np

    rng = np.random.default_rng(seed)
    difficulty = rng.uniform(0, 1, size=len(stimuli))
    rows = []
    for s in range(subjects):
        skill = rng.uniform(0.6, 0.9)
        for t, i in enumerate(rng.permutation(len(stimuli))):
            row = stimuli.iloc[i]
            correct = rng.random() < skill * (1 - 0.7 * difficulty[i])
            choice = row.truth if correct else bfx.GEIRHOS_CATEGORIES[rng.integers(0, 16)]
            rows.append(dict(image_id=row.image_id, image_id_long=f"{t + 1:04d}_cc_s{s + 1:02d}_{row.image_id}.png",
                             truth=row.truth, choice=choice, category=row.truth, condition=row.condition,
                             response_time=float(np.round(rng.uniform(300, 1500))), trial=t + 1,
                             subject=f"subject-{s + 1:02d}", session=1))
    coords = {column: ("presentation", [r[column] for r in rows]) for column in rows[0]}
    return bfx._assembly(np.array([r["choice"] for r in rows], dtype=object), coords, name)


def _bmd2024(root, scale):
    """All four BMD2024 experiments with behaviour_fixtures_families' writer of one (its store writes two)."""
    import behaviour_fixtures_families as ff
    from brainio_fixtures import _sha1, write_zip

    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for experiment in ("texture_1", "texture_2", "dotted_1", "dotted_2"):
        array, table, images = ff.bmd2024(experiment)
        name = f"assy_BMD_2024_{experiment}.nc"
        ff._write_nc(array, root / name, True)
        table.to_csv(root / f"stimulus_BMD_2024_{experiment}.csv", index=False)
        write_zip(images, root / f"stimulus_BMD_2024_{experiment}.zip")
        written += [name, f"stimulus_BMD_2024_{experiment}.csv", f"stimulus_BMD_2024_{experiment}.zip"]
    return {name: _sha1((root / name).read_bytes()) for name in written}


def _rajalingham2018(root, scale):
    """The public fixture (tests/behaviour_fixtures.rajalingham2018), and the same writer with seed 1 under the
    private split's names (``dicarlo.Rajalingham2018.private``, stimulus set ``objectome.private``)."""
    import behaviour_fixtures as bfx
    from brainio_fixtures import _sha1, write_zip

    root = Path(root)
    sums = bfx.write_behaviour_store(root, families=("Rajalingham2018.public",))
    assembly, table, pngs = bfx.rajalingham2018(seed=1)
    assembly.name = "dicarlo.Rajalingham2018.private"
    bfx._write_nc(assembly, root / "assy_dicarlo_Rajalingham2018_private.nc", False)
    table.to_csv(root / "stimulus_objectome_private.csv", index=False)
    write_zip(pngs, root / "stimulus_objectome_private.zip")
    names = ["assy_dicarlo_Rajalingham2018_private.nc", "stimulus_objectome_private.csv",
             "stimulus_objectome_private.zip"]
    return {**sums, **{name: _sha1((root / name).read_bytes()) for name in names}}


def _families(*families, **kwargs):
    def write(root, scale):
        import behaviour_fixtures_families as ff

        return ff.write_store(root, families, **kwargs)
    return write


def _lonnqvist2024(root, scale):
    """behaviour_fixtures_families' Lonnqvist2024 files (two in-lab experiments) and the online experiment's trials on
    the same test images, simulated as it simulates the in-lab ones (its own generator: other subjects)."""
    import behaviour_fixtures_families as ff
    import numpy as np
    import pandas as pd
    from brainio_fixtures import _sha1

    root = Path(root)
    sums = ff.write_store(root, ("Lonnqvist2024",))
    _, (test, _), _ = ff.lonnqvist2024()
    rng = np.random.default_rng(40)
    trials = []
    for subject in range(5):
        skill = rng.uniform(0.55, 0.95)
        for image in test.itertuples():
            right = rng.random() < skill
            answer = image.truth if right else ("diff" if image.truth == "same" else "same")
            trials.append(dict(subject=f"online{subject:02d}", visual_degrees=17.70753, image_duration=200.0,
                               is_correct=bool(right), subject_answer=answer, curve_length=image.curve_length,
                               n_cross=image.n_cross, image_path=image.image_path, stimulus_id=image.stimulus_id,
                               truth=image.truth, image_label=image.truth))
    trials = pd.DataFrame(trials)
    coords = {column: ("presentation", trials[column].to_numpy()) for column in trials.columns}
    name = "assy_Lonnqvist2024_online-no-instructions.nc"
    ff._write_nc(ff._assembly(trials["subject_answer"].to_numpy(object), coords,
                              "Lonnqvist2024_online-no-instructions"), root / name, True)
    return {**sums, name: _sha1((root / name).read_bytes())}


def _kato2026(root, scale):
    import behaviour_fixtures_kato

    return behaviour_fixtures_kato.write_store(root)


def _maniquet2024(root, scale):
    import behaviour_fixtures_maniquet

    return behaviour_fixtures_maniquet.write_store(root)


def _coggan2024_behavior(root, scale):
    import behaviour_fixtures_coggan

    return behaviour_fixtures_coggan.write_store(root)


def _malania2007(root, scale):
    import malania_fixtures

    return malania_fixtures.write_store(root)


def _islam2021(root, scale):
    import engineering_fixtures

    return engineering_fixtures.write_islam2021(root)


def _imagenet(root, scale):
    import engineering_fixtures

    return engineering_fixtures.write_imagenet2012(root)


def _imagenet_c(root, scale):
    """engineering_fixtures.write_imagenet_c for every category: it knows the noise category's corruption types; the
    others get theirs (brainpipe.benchmarks.families.imagenet_c.CATEGORIES) with the same noise-like corruptions."""
    import engineering_fixtures

    from brainpipe.benchmarks.families import imagenet_c

    sums = {}
    known = dict(engineering_fixtures.IMAGENET_C_TYPES)
    try:
        for category, (_, _, types) in imagenet_c.CATEGORIES.items():
            engineering_fixtures.IMAGENET_C_TYPES.setdefault(category, types)
            sums.update(engineering_fixtures.write_imagenet_c(root, category))
    finally:
        engineering_fixtures.IMAGENET_C_TYPES.clear()
        engineering_fixtures.IMAGENET_C_TYPES.update(known)
    return sums


#: Sizes the ``large`` scale changes (the other writers take no size argument).
LARGE = {"MajajHong2015": "hvm 8 + 32 public, 40 private images per object pair (v0/v3/v6)",
         "FreemanZiemba2013": "15 texture families × 15 samples", "Li2026": "400 images", "Cadena2017": "320 images",
         "Hebart2023_fmri": "480 train + 40 test images", "Papale2025": "480 train + 40 test images",
         "Gifford2022": "240 train + 24 test images", "Kar2019": "320 images"}

V4_ON_FEATURES_12 = {"V4": "features.12"}


def groups() -> list[Group]:
    """Every group, in the order they are written (a file written twice must be the same bytes)."""
    from brainpipe import benchmarks

    geirhos = tuple(f for f in benchmarks.builtin().families if f.startswith("Geirhos2021"))
    ferguson = tuple(f for f in benchmarks.builtin().families if f.startswith("Ferguson2024"))
    scialom = tuple(f for f in benchmarks.builtin().families if f.startswith("Scialom2024"))
    kato = tuple(f for f in benchmarks.builtin().families if f.startswith("Kato2026"))
    malania = tuple(f for f in benchmarks.builtin().families if f.startswith("Malania2007"))
    imagenet_c = tuple(f for f in benchmarks.builtin().families if f.startswith("ImageNet_C"))
    bmd = tuple(f for f in benchmarks.builtin().families if f.startswith("BMD2024"))
    lonnqvist = tuple(f for f in benchmarks.builtin().families if f.startswith("Lonnqvist2024"))
    marques = tuple(f for f in benchmarks.builtin().families if f.startswith("Marques2020_"))
    import behaviour_fixtures_families as ff

    return [
        Group("MajajHong2015", ("MajajHong2015", "MajajHong2015public"), _majaj),
        # V4 committed to features.12 (9216 units) instead of the plugin's features.7 (64896): Brain-Score's PLS
        # from the recordings onto 64896 units takes CPU-minutes per split (tests/reference/make_neural_rest_
        # reference.py stores the same)
        Group("Muzellec2026", ("Muzellec2026",), _majaj, layers=V4_ON_FEATURES_12,
              note="V4 committed to features.12 on both sides (reverse PLS onto features.7's 64896 units is slow)"),
        Group("MajajHong2015temporal", ("MajajHong2015temporal",), _majaj_temporal, layers=V4_ON_FEATURES_12,
              note="static model: the same response in every bin; V4 committed to features.12 on both sides"),
        Group("FreemanZiemba2013", ("FreemanZiemba2013", "FreemanZiemba2013public"), _freeman),
        Group("Sanghavi2020", ("Sanghavi2020", "SanghaviJozwik2020", "SanghaviMurty2020", "Rajalingham2020"),
              _neural_families),
        Group("Li2026", ("Li2026",), _li2026),
        Group("Cadena2017", ("Cadena2017",), _cadena2017),
        Group("Cadena2017mask", ("Cadena2017mask",), _cadena2017,
              note="Brain-Score's mask fits seeded with the fold's index (tests/reference/"
                   "make_cadena2017_mask_reference.py), as brainpipe seeds them"),
        Group("Bracci2019", ("Bracci2019", "Bracci2019_RSA"), _bracci2019),
        Group("Coggan2024_fMRI", ("Coggan2024_fMRI",), _coggan2024_fmri),
        Group("Allen2022", ("Allen2022_fmri", "Allen2022_fmri_4subj", "Allen2022_fmri_surface",
                            "Allen2022_fmri_surface_4subj"), _allen2022),
        Group("Hebart2023_fmri", ("Hebart2023_fmri",), _hebart2023_fmri),
        Group("Papale2025", ("Papale2025",), _papale2025),
        Group("Gifford2022", ("Gifford2022",), _gifford2022),
        Group("Cowley2026", ("Cowley2026",), _cowley2026),
        Group("Igustibagus2024", ("Igustibagus2024", "Igustibagus2024readout"), _igustibagus2024,
              note="Brain-Score's readout draws seeded as brainpipe's (READOUT_SEED 0)"),
        Group("Zerbe2026", ("Zerbe2026_fmri",), _zerbe2026,
              note="ridge ceilings: brainpipe ceils every subject by sub-01's, as Brain-Score does with its result "
                   "cache on (zerbe2026.RIDGE_CEILING_OF_FIRST_SUBJECT); this runner runs Brain-Score with the cache "
                   "off, where each subject has its own: raw equal, ceiling and score differ by that"),
        Group("Zerbe2026_persubject", ("Zerbe2026_fmri_persubject",), _zerbe2026_persubject),
        Group("Kar2019", ("Kar2019",), _kar2019,
              note="static alexnet: no object solution time on either side (Brain-Score NaN by design, brainpipe an "
                   "empty cell); tests/test_ost.py compares the metric on temporal features"),
        Group("Marques2020", marques, _marques2020,
              note="Brain-Score draws the raw and ceiling bootstraps from numpy's unseeded global generator, one after "
                   "the other, so its numbers change from run to run (here by 0.002 on the ceiling); brainpipe seeds "
                   "each, as tests/reference/make_marques2020_reference.py seeds Brain-Score's: equal to 1e-6 there"),
        Group("Rajalingham2018", ("Rajalingham2018", "Rajalingham2018public"), _rajalingham2018,
              made_of="Rajalingham2018.private: the public writer with seed 1 under the private split's names",
              note="raw differs by ~1e-5: with more features than fitting images brainpipe fits the logistic readout "
                   "in their row space (src/brainpipe/behaviour/tasks.py), the same optimum; newton-cg stops at "
                   "tol=1e-4 on both sides, ~5e-5 in probability from it (at tol=1e-10 the two fits agree to 4e-8)"),
        Group("Hermann2020", ("Hermann2020cueconflict",), _families("Hermann2020"), weights=ff.WEIGHTS["Hermann2020"]),
        Group("Geirhos2021", geirhos, _geirhos2021,
              made_of="every data set but cue-conflict: the colour fixture under its names, with the colour conditions "
                      "(cr, bw); cue-conflict: Hermann2020's images with simulated trials"),
        Group("Hebart2023", ("Hebart2023",), _behaviour("Hebart2023"),
              note="raw below chance (1/3) on the fixture's triplets: the chance-corrected score is clipped to 0 on "
                   "both sides; raw and ceiling are the comparison"),
        Group("Ferguson2024", ferguson, _ferguson2024),
        Group("Baker2022", ("Baker2022frankenstein", "Baker2022fragmented", "Baker2022inverted"),
              _families("Baker2022"), weights=ff.WEIGHTS["Baker2022"]),
        Group("ObjectNet", ("ObjectNet",), _families("ObjectNet"), weights=ff.WEIGHTS["ObjectNet"]),
        Group("BMD2024", bmd, _bmd2024, weights=ff.WEIGHTS["BMD2024"],
              made_of="texture_2, dotted_1: behaviour_fixtures_families.bmd2024 as for the two its store writes"),
        Group("Lonnqvist2024", lonnqvist, _lonnqvist2024, weights=ff.WEIGHTS["Lonnqvist2024"],
              made_of="online-no-instructions: trials simulated as the writer's in-lab ones, on its test images"),
        Group("Scialom2024", scialom, _families("Scialom2024", scialom_datasets=ff.SCIALOM_ALL_DATASETS),
              weights=ff.WEIGHTS["Scialom2024"]),
        Group("Kato2026", kato, _kato2026, weights="kato_prototypes"),
        Group("Maniquet2024", ("Maniquet2024",), _maniquet2024),
        Group("Coggan2024_behavior", ("Coggan2024_behavior",), _coggan2024_behavior),
        Group("Malania2007", malania, _malania2007,
              note="every threshold fit fails on both sides on this fixture (Brain-Score labels its microsaccade rows "
                   "image-major while computing them trial-major, so a set smaller than a batch of 64 is fitted on "
                   "shuffled labels; as on the real files): raw 0, the ceilings are the comparison; fits that succeed "
                   "are compared in tests/test_malania2007.py::test_informative_equals_brainscore (64 images per "
                   "offset)"),
        Group("Islam2021", ("Islam2021",), _islam2021),
        Group("ImageNet", ("ImageNet",), _imagenet, weights="baker_prototypes",
              note="Brain-Score reads ImageNet's validation images from its own machines' paths "
                   "(tests/reference/make_imagenet_reference.py rebuilds its stimulus set from the fixture)"),
        Group("ImageNet_C", imagenet_c, _imagenet_c, weights="baker_prototypes",
              made_of="blur, weather, digital: the noise writer with the category's corruption types (noise-like)"),
    ]


def group_identifiers(group: Group, among=None) -> list[str]:
    return [i for i in (among or identifiers()) if family_of(i) in group.families]


# ------------------------------------------------------------------------------------ what brainpipe reads


def brainpipe_files(identifier: str) -> set[str]:
    """Object names of the files brainpipe's workflow fetches for ``identifier`` (its family's data set, train /
    test or session files and stimulus sets; the workflow's data_files in workflow/rules/common.smk lists the same)."""
    from brainpipe import benchmarks
    from brainpipe.data import catalog as data_catalog

    registry = benchmarks.builtin()
    catalog = data_catalog.load_catalog(registry=registry)
    family = benchmarks.parse(identifier).family

    def stimulus_files(key):
        entry = catalog.stimulus_set(key)
        return {entry.csv.name, entry.zip.name}

    if family.source == "stimuli":
        return set().union(*(stimulus_files(s) for s in family.stimulus_sets))
    if family.sessions:
        return set().union(*(brainpipe_files(session) for session in family.sessions))
    names = set()
    train_test = family.train_test
    datasets = ([d for _, d in train_test.files] if train_test and train_test.files
                else [family.dataset, train_test and train_test.dataset])
    for dataset in filter(None, datasets):
        entry = catalog.assembly(dataset)
        names |= {remote.name for remote in entry.all_files} | stimulus_files(entry.stimulus_set)
    for key in family.stimulus_sets:
        if key in catalog.stimulus_sets:
            names |= stimulus_files(key)
    return names


def catalog_names() -> set[str]:
    """Every object name brainpipe's catalog knows (assemblies with their parts, stimulus sets)."""
    from brainpipe import benchmarks
    from brainpipe.data import catalog as data_catalog

    catalog = data_catalog.load_catalog(registry=benchmarks.builtin())
    names = {r.name for entry in catalog.assemblies.values() for r in entry.all_files}
    return names | {r.name for entry in catalog.stimulus_sets.values() for r in (entry.csv, entry.zip)}


# -------------------------------------------------------------------------------------------- the store


def _tree_sha1(folder: Path) -> dict:
    return {str(p.relative_to(folder)): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def write_suite_store(out, scale: str = "small", only=None, log=print) -> dict:
    """Write every group (``only``: these group names) into ``out``; the manifest (also written to
    out/manifest.json, with out/checksums.json)."""
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}, got {scale!r}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    every = identifiers()
    manifest = {"made_by": f"tests/reference/suite_store.py --scale {scale}", "scale": scale, "files": {},
                "paths": {}, "groups": {}, "identifiers": {}, "unwritable": {}}
    previous = out / "manifest.json"
    if only and previous.is_file():  # a partial rewrite keeps the other groups' entries
        manifest = {**json.loads(previous.read_text()), "scale": scale}
    covered = set()
    for group in groups():
        ids = group_identifiers(group, every)
        covered |= set(ids)
        if only and group.name not in only:
            continue
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(dir=out, prefix=".writing-") as scratch:
            sums = group.write(Path(scratch), scale)
            tree = _tree_sha1(Path(scratch))
            clashes = [path for path, sha1 in tree.items()
                       if (out / path).is_file() and manifest["paths"].get(path, sha1) != sha1]
            if clashes:
                for identifier in ids:
                    manifest["unwritable"][identifier] = (
                        f"group {group.name}: {', '.join(clashes[:3])} already in the store with other contents "
                        f"(written by an earlier group)")
                log(f"{group.name}: NOT written ({len(clashes)} files clash)")
                continue
            for path in tree:
                target = out / path
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(Path(scratch) / path), target)
        manifest["paths"].update(tree)
        manifest["files"].update(sums)
        missing = {i: sorted(brainpipe_files(i) - set(tree)) for i in ids}
        for identifier in ids:
            manifest["identifiers"][identifier] = group.name
            manifest["unwritable"].pop(identifier, None)
            if missing[identifier]:
                manifest["unwritable"][identifier] = (f"group {group.name} does not write "
                                                      f"{', '.join(missing[identifier])}")
        manifest["groups"][group.name] = {
            "identifiers": ids, "files": sorted(sums), "other_paths": sorted(set(tree) - set(sums)),
            "weights": group.weights, "layers": group.layers, "note": group.note, "made_of": group.made_of,
            "scale": scale if scale == "small" or any(f in LARGE for f in (group.name, *group.families))
            else "small (the writer takes no size)",
            "seconds": round(time.perf_counter() - start, 1)}
        log(f"{group.name}: {len(ids)} identifiers, {len(tree)} files, "
            f"{manifest['groups'][group.name]['seconds']} s")
    for identifier in every:
        if identifier not in covered:
            manifest["unwritable"][identifier] = "no group: no fixture writer for its family"
    # checksums.json overrides only files brainpipe's catalog names (it refuses others); Brain-Score-only paths
    # (LAION-fMRI's split lists and stimulus folder) are in "paths"
    known = catalog_names()
    manifest["files"] = {name: sha1 for name, sha1 in sorted(manifest["files"].items()) if name in known}
    manifest["paths"] = dict(sorted(manifest["paths"].items()))
    (out / "checksums.json").write_text(json.dumps(manifest["files"], indent=1) + "\n")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="the store folder (created)")
    parser.add_argument("--scale", default="small", choices=SCALES)
    parser.add_argument("--groups", nargs="+", help="write only these groups (default: all)")
    parser.add_argument("--list-groups", action="store_true", help="print each group's identifiers and stop")
    args = parser.parse_args(argv)
    if args.list_groups:
        for group in groups():
            print(f"{group.name}: {' '.join(group_identifiers(group))}")
        return 0
    manifest = write_suite_store(args.out, args.scale, args.groups)
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file()) / 2 ** 20
    print(f"{len(manifest['identifiers'])} identifiers in {len(manifest['groups'])} groups, "
          f"{len(manifest['paths'])} files, {size:.0f} MiB in {args.out}")
    for identifier, reason in manifest["unwritable"].items():
        print(f"unwritable: {identifier}: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
