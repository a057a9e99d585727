"""Sanghavi2020, SanghaviJozwik2020, SanghaviMurty2020: multi-unit V4 and IT responses (Utah arrays) to three image
sets, scored with PLS regression like MajajHong2015.

Constants: brain-score/vision brainscore_vision/benchmarks/sanghavi2020/benchmarks/{sanghavi2020,sanghavijozwik2020,
sanghavimurty2020}_benchmark.py (VISUAL_DEGREES 8 / 8 / 5, NUMBER_OF_TRIALS 28 / 37 / 50, version 2, parent the
region, PLS cross-validation stratified by object_name for Sanghavi2020 only, internal-consistency ceiling on the
unaveraged trials). Data: brain-score/vision brainscore_vision/data/sanghavi2020/__init__.py (object names, sha1s,
bibtex; Sanghavi2020 shows the hvm images, SanghaviJozwik2020 BOLD5000's, SanghaviMurty2020 Rust2012's).

The files carry seven overlapping time bins (70–170, 170–270, 50–100, 100–150, 150–200, 200–250, 70–270 ms;
brain-score/vision brainscore_vision/data/sanghavi2020/data_packaging/sanghavi2020.py) and call the bin's end
``time_bin_stop``; Brain-Score's benchmark takes the first bin, 70–170 ms (``sel(time_bin_id=0)``), which is what
``exact_time_bin`` does here (averaging the bins inside 70–170 would mix in 100–150). A copy that calls the end
``time_bin_end`` is read as well, as Brain-Score never reads the name (the mapping in ``coords`` applies only where
the standard name is missing: brainpipe.data.brainio.load_assembly).

Brain-Score marks these recordings as not publicly available (``data_publicly_available: false`` in
benchmarks/sanghavi2020/metadata.yaml): with access, point ``data.local_files`` at the files.
"""

from dataclasses import replace

from ..base import Family
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/sanghavi2020/benchmarks/sanghavi2020_benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/sanghavi2020/benchmarks/sanghavijozwik2020_benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/sanghavi2020/benchmarks/sanghavimurty2020_benchmark.py",
           "brain-score/vision brainscore_vision/data/sanghavi2020/__init__.py",
           "brain-score/vision brainscore_vision/data/rust2012/__init__.py")

# Brain-Score's bibtex strings, as written there (each indented by two spaces in the original).
BIBTEX_SANGHAVI = """@misc{Sanghavi2020,
  title={SanghaviMurty2020},
  url={osf.io/CHWDK},
  DOI={10.17605/OSF.IO/CHWDK},
  publisher={OSF},
  author={Sanghavi, Sachi and DiCarlo, James J},
  year={2020},
  month={Nov}
}"""
BIBTEX_SANGHAVIJOZWIK = """@misc{SanghaviJozwik2020,
  title={SanghaviJozwik2020},
  url={osf.io/FHY36},
  DOI={10.17605/OSF.IO/FHY36},
  publisher={OSF},
  author={Sanghavi, Sachi and Jozwik, K M and DiCarlo, James J},
  year={2020},
  month={Nov}
}"""
BIBTEX_SANGHAVIMURTY = """@misc{SanghaviMurty2020,
  title={SanghaviMurty2020},
  url={osf.io/fchme},
  DOI={10.17605/OSF.IO/FCHME},
  publisher={OSF},
  author={Sanghavi, Sachi and Murty, N A R and DiCarlo, James J},
  year={2020},
  month={Nov}
}"""

ASSEMBLIES = {
    "Sanghavi2020": brainio_assembly("dicarlo.Sanghavi2020", "12e94e9dcda797c851021dfe818b64615c785866", "hvm"),
    "SanghaviJozwik2020": brainio_assembly(
        "dicarlo.SanghaviJozwik2020", "c5841f1e7d2cf0544a6ee010e56e4e2eb0994ee0", "BOLD5000"),
    "SanghaviMurty2020": brainio_assembly(
        "dicarlo.SanghaviMurty2020", "6cb8e054688066d1d86d4944e1385efc6a69ebd4", "Rust2012"),
}
# 'hvm' is declared by majajhong2015.py (the same files).
STIMULUS_SETS = {
    "BOLD5000": brainio_stimuli(
        "BOLD5000", "51ac47ea03ed2e72864a95065494c2fabe779f6e", "1a2e6d782dcd21bbe60460d85d83b13fa76a9543"),
    "Rust2012": brainio_stimuli(
        "Rust2012", "482da1f9f4a0ab5433c3b7b57073ad30e45c2bf1", "7cbf5dcec235f7705eaad1cfae202eda77e261a2"),
}

NOT_PUBLIC = "; not publicly available (Brain-Score's metadata): use data.local_files"

_SANGHAVI = Family(
    name="Sanghavi2020", dataset="Sanghavi2020", stimulus_set="hvm", regions=("V4", "IT"), visual_degrees=8,
    stratification="object_name", time_window=(70, 170), exact_time_bin=True, number_of_trials=28,
    notes="hvm images (5760), time bin 70–170 ms" + NOT_PUBLIC, coords=(("time_bin_end", "time_bin_stop"),),
    version=2, bibtex=BIBTEX_SANGHAVI, sources=SOURCES)

FAMILIES = [
    _SANGHAVI,
    replace(_SANGHAVI, name="SanghaviJozwik2020", dataset="SanghaviJozwik2020", stimulus_set="BOLD5000",
            stratification=None, number_of_trials=37, notes="BOLD5000 images (4916), time bin 70–170 ms" + NOT_PUBLIC,
            bibtex=BIBTEX_SANGHAVIJOZWIK),
    replace(_SANGHAVI, name="SanghaviMurty2020", dataset="SanghaviMurty2020", stimulus_set="Rust2012",
            visual_degrees=5, stratification=None, number_of_trials=50,
            notes="Rust2012 images (300) at 5°, time bin 70–170 ms" + NOT_PUBLIC, bibtex=BIBTEX_SANGHAVIMURTY),
]
