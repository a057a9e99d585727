"""A user's own experiment in the standard files and its config declaration, for the declared-benchmark tests."""

import hashlib
import zipfile
from pathlib import Path
import yaml
from brainpipe.data import demo


def sha1(path):
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


def write_experiment(folder: Path):
    """A small experiment in the standard files, with the file's own coordinate names (brain_area, trial,
    image_id) instead of Brain-Score's: stimulus CSV + zip, assembly NetCDF."""
    folder.mkdir(parents=True, exist_ok=True)
    table, images = demo.generate_stimuli(categories=4, objects_per_category=2, images_per_object=10, image_size=48)
    with zipfile.ZipFile(folder / "stimuli.zip", "w") as archive:
        for row, image in zip(table.itertuples(), images):
            path = folder / "tmp.png"
            image.save(path)
            archive.write(path, row.filename.removeprefix("images/"))
        path.unlink()
    table = table.assign(filename=table["filename"].str.removeprefix("images/")).rename(
        columns={"stimulus_id": "image_id"})
    table.to_csv(folder / "stimuli.csv", index=False)
    assembly = demo.simulate_assembly(table.rename(columns={"image_id": "stimulus_id"}), images,
                                      neuroids={"V4": 6, "IT": 8}, repetitions=4, seed=3)
    assembly = assembly.rename({"region": "brain_area", "repetition": "trial", "stimulus_id": "image_id"})
    assembly.name = "MyExperiment2024"
    assembly.to_netcdf(folder / "assembly.nc")
    return folder


def declaration(folder, **extra):
    entry = {"stimuli": {"csv": str(folder / "stimuli.csv"), "zip": str(folder / "stimuli.zip"),
                         "zip_sha1": sha1(folder / "stimuli.zip")},
             "assembly": {"file": str(folder / "assembly.nc"), "sha1": sha1(folder / "assembly.nc"),
                          "coords": {"region": "brain_area", "repetition": "trial", "stimulus_id": "image_id"}},
             "regions": ["IT"], "visual_degrees": 8, "stratification": "object_name",
             "version": 2, "parent": "IT", "bibtex": "@article{me2024own, title={My experiment}}"}
    entry.update(extra)
    return entry


def write_config(workdir, benchmarks, **sections):
    config = {"models": ["pixels"], "benchmarks": benchmarks,
              "benchmark_settings": {b: {"splits": 3} for b in benchmarks if b.endswith("-pls")}, **sections}
    path = workdir / "own.yaml"
    path.write_text(yaml.safe_dump(config))
    return path
