"""brainpipe.models.activations.extract against Brain-Score's extractor (brain-score/vision
brainscore_vision/model_helpers/activations/pytorch.py): torchvision preprocessing, forward-hook outputs flattened
C-order, neuroid coordinates, ids, and error handling; the streamed NetCDF output against the former
hold-everything-then-write path, its memory, decode workers and atomicity."""

import io
import os
import re
import time
import tracemalloc

import numpy as np
import pandas as pd
import pytest
import torch
from PIL import Image

import netCDF4
import xarray as xr

from brainpipe.models._torchvision import import_torchvision
from brainpipe.models.activations import _neuroid_coords, extract, extract_to_files, extract_to_folder
from brainpipe.io import atomic_directory, write_netcdf
from brainpipe.data.stimuli import load_image, read_stimulus_set
from brainpipe.models.brain_model import ActivationsModel

N_IMAGES = 5


@pytest.fixture(scope="module")
def alexnet():
    return ActivationsModel("alexnet_untrained", "alexnet", None, 0, "cpu")


@pytest.fixture(scope="module")
def stimuli(tmp_path_factory):
    folder = tmp_path_factory.mktemp("stimuli")
    (folder / "images").mkdir()
    rng = np.random.default_rng(0)
    rows = []
    for k in range(N_IMAGES):
        size = (40 + 7 * k, 50)  # varied, non-square sizes
        data = rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
        image = Image.fromarray(data)
        if k == 1:
            image = image.convert("L")  # grayscale input: pasted on RGB
        image.save(folder / f"images/{k}.png")
        rows.append(dict(stimulus_id=f"{k:03d}", filename=f"images/{k}.png", object_name=f"o{k % 2}"))
    pd.DataFrame(rows).to_csv(folder / "stimuli.csv", index=False)
    return folder


def quiet():
    return io.StringIO()


def torchvision_preprocess(path):
    transforms = import_torchvision().transforms
    pipeline = transforms.Compose([transforms.Resize((224, 224)), transforms.ToTensor(),
                                   transforms.Normalize(mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225))])
    image = Image.open(path)
    rgb = Image.new("RGB", image.size)
    rgb.paste(image)
    return pipeline(rgb).numpy()


def test_preprocessing_equals_torchvision(alexnet, stimuli):
    for k in range(N_IMAGES):
        path = stimuli / f"images/{k}.png"
        ours = alexnet.preprocess(path)
        assert ours.shape == (3, 224, 224) and ours.dtype == np.float32
        np.testing.assert_allclose(ours, torchvision_preprocess(path), rtol=0, atol=1e-6)


def hooked_outputs(network, batch, layer):
    modules = dict(network.named_modules())
    captured = []
    hook = modules[layer].register_forward_hook(lambda m, i, o: captured.append(o.detach().numpy().copy()))
    try:
        with torch.no_grad():
            network(torch.from_numpy(batch))
    finally:
        hook.remove()
    return captured[0]


@pytest.fixture(scope="module")
def extracted(alexnet, stimuli):
    return extract(alexnet, stimuli, ["features.12", "features.7"], batch_size=2, progress=quiet())


def test_shapes_and_values_vs_manual_hook(alexnet, stimuli, extracted):
    batch = np.stack([torchvision_preprocess(stimuli / f"images/{k}.png") for k in range(N_IMAGES)])
    for layer, shape in (("features.12", (256, 6, 6)), ("features.7", (384, 13, 13))):
        raw = hooked_outputs(alexnet.network, batch, layer)
        assert raw.shape == (N_IMAGES,) + shape
        assembly = extracted[layer]
        assert assembly.dims == ("presentation", "neuroid")
        assert assembly.shape == (N_IMAGES, int(np.prod(shape)))
        assert assembly.dtype == np.float32
        np.testing.assert_allclose(assembly.values, raw.reshape(N_IMAGES, -1), rtol=1e-4, atol=1e-5)
        # coordinates point at the (channel, y, x) element of the unflattened output
        pick = np.random.default_rng(1).choice(assembly.sizes["neuroid"], 50, replace=False)
        for index in pick:
            neuroid = assembly.isel(neuroid=index)
            c, y, x = int(neuroid["channel"]), int(neuroid["channel_y"]), int(neuroid["channel_x"])
            np.testing.assert_allclose(neuroid.values, raw[:, c, y, x], rtol=1e-4, atol=1e-5)
        channel, y, x = np.unravel_index(np.arange(np.prod(shape)), shape)
        np.testing.assert_array_equal(assembly["channel"].values, channel)
        np.testing.assert_array_equal(assembly["channel_y"].values, y)
        np.testing.assert_array_equal(assembly["channel_x"].values, x)


def test_ids_and_coords(extracted):
    assembly = extracted["features.12"]
    assert assembly["stimulus_id"].values.tolist() == [f"{k:03d}" for k in range(N_IMAGES)]
    ids = assembly["neuroid_id"].values
    assert ids[0] == "alexnet_untrained.features.12.0" and ids[-1] == "alexnet_untrained.features.12.9215"
    assert len(set(ids)) == len(ids)
    np.testing.assert_array_equal(assembly["neuroid_num"].values, np.arange(9216))
    assert set(assembly["layer"].values) == {"features.12"}
    assert assembly.attrs == {"model": "alexnet_untrained", "layer": "features.12"}


def test_batch_size_does_not_change_result(alexnet, stimuli, extracted):
    whole = extract(alexnet, stimuli, ["features.12"], batch_size=64, progress=quiet())["features.12"]
    np.testing.assert_allclose(whole.values, extracted["features.12"].values, rtol=1e-5, atol=1e-6)


def test_pixels_model(stimuli):
    model = ActivationsModel("pixels", "pixels")
    assembly = extract(model, stimuli, ["pixels"], progress=quiet())["pixels"]
    assert assembly.shape == (N_IMAGES, 256 * 256 * 3)
    for k in range(N_IMAGES):
        image = Image.open(stimuli / f"images/{k}.png")
        rgb = Image.new("RGB", image.size)
        rgb.paste(image)
        expected = np.asarray(rgb.resize((256, 256)), dtype=np.float32).reshape(-1)
        np.testing.assert_array_equal(assembly.values[k], expected)
    assert assembly["neuroid_id"].values[5] == "pixels.pixels.5"


def test_progress_lines(stimuli):
    log = quiet()
    extract(ActivationsModel("pixels", "pixels"), stimuli, ["pixels"], batch_size=2, progress=log)
    lines = log.getvalue().strip().splitlines()
    assert len(lines) == 3 and "5/5 images" in lines[-1]


def test_missing_image_named(stimuli, tmp_path):
    table = pd.read_csv(stimuli / "stimuli.csv", dtype={"stimulus_id": str})
    table.loc[len(table)] = dict(stimulus_id="999", filename="images/absent.png", object_name="o0")
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "images").symlink_to(stimuli / "images")
    table.to_csv(folder / "stimuli.csv", index=False)
    with pytest.raises(FileNotFoundError, match="absent.png"):
        extract(ActivationsModel("pixels", "pixels"), folder, ["pixels"], progress=quiet())


def test_nan_activations_rejected(stimuli, monkeypatch):
    model = ActivationsModel("nanmodel", "pixels")

    def nan_forward(self, batch, layers):
        out = batch.reshape(len(batch), -1).copy()
        out[0, 3] = np.nan
        return {"pixels": out}

    monkeypatch.setattr(ActivationsModel, "__call__", nan_forward)
    with pytest.raises(ValueError, match="non-finite"):
        extract(model, stimuli, ["pixels"], progress=quiet())


def test_empty_stimulus_set(tmp_path):
    pd.DataFrame(columns=["stimulus_id", "filename"]).to_csv(tmp_path / "stimuli.csv", index=False)
    with pytest.raises(ValueError, match="empty"):
        extract(ActivationsModel("pixels", "pixels"), tmp_path, ["pixels"], progress=quiet())


# --- streamed output vs the former in-memory path -----------------------------------------------------------------

def legacy_extract(model, stimuli_folder, layers, batch_size=64):
    """The in-memory extraction brainpipe used before streaming (every batch of every layer listed, then
    concatenated), kept verbatim in substance as the reference the streamed files must reproduce bit for bit."""
    table = read_stimulus_set(stimuli_folder)
    paths = table["path"].tolist()
    outputs = {layer: [] for layer in layers}
    shapes = None
    for start in range(0, len(paths), batch_size):
        batch = np.stack([model.preprocess(path) for path in paths[start: start + batch_size]])
        outputs_by_layer = model(batch, layers)
        if shapes is None:
            shapes = {layer: values.shape[1:] for layer, values in outputs_by_layer.items()}
        for layer, values in outputs_by_layer.items():
            outputs[layer].append(values.reshape(len(values), -1).astype(np.float32, copy=False))
    return {layer: xr.DataArray(
        np.concatenate(outputs[layer]), dims=("presentation", "neuroid"),
        coords={"stimulus_id": ("presentation", table["stimulus_id"].to_numpy()),
                **_neuroid_coords(model.identifier, layer, shapes[layer])},
        name=f"{model.identifier}.{layer}", attrs={"model": model.identifier, "layer": layer}) for layer in layers}


def legacy_write(model, stimuli_folder, layers, destination, batch_size=64):
    """The former workflow/scripts/activations.py: extract everything, then write one NetCDF per layer."""
    arrays = legacy_extract(model, stimuli_folder, layers, batch_size)
    with atomic_directory(destination) as folder:
        for layer, array in arrays.items():
            write_netcdf(array, folder / f"{layer}.nc")


def netcdf_structure(path):
    """Everything about a NetCDF file except its data: dimensions, variables, types, attributes (in order), storage."""
    with netCDF4.Dataset(path) as handle:
        return {
            "format": handle.data_model,
            "global_attrs": {k: handle.getncattr(k) for k in handle.ncattrs() if k != "_NCProperties"},
            "dims": {name: len(dim) for name, dim in handle.dimensions.items()},
            "variables": [(name, str(var.dtype), var.dimensions, var.chunking(), var.filters(),
                           [(k, str(var.getncattr(k))) for k in var.ncattrs()])
                          for name, var in handle.variables.items()],
        }


@pytest.mark.parametrize("model_name, layers", [("alexnet", ["features.12", "features.7", "classifier.6"]),
                                                ("pixels", ["pixels"])])
def test_streamed_files_bit_identical_to_in_memory_path(model_name, layers, alexnet, demo_stimuli, tmp_path):
    model = alexnet if model_name == "alexnet" else ActivationsModel("pixels", "pixels")
    legacy_write(model, demo_stimuli, layers, tmp_path / "old", batch_size=5)
    extract_to_folder(model, demo_stimuli, layers, tmp_path / "new", batch_size=5, num_workers=0, progress=quiet())
    in_memory = extract(model, demo_stimuli, layers, batch_size=5, progress=quiet(), num_workers=0)
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == sorted(f"{layer}.nc" for layer in layers)
    for layer in layers:
        old_path, new_path = tmp_path / "old" / f"{layer}.nc", tmp_path / "new" / f"{layer}.nc"
        assert netcdf_structure(new_path) == netcdf_structure(old_path)
        with xr.open_dataarray(old_path) as old, xr.open_dataarray(new_path) as new:
            old, new = old.load(), new.load()
            assert new.identical(old) and new.name == old.name == f"{model.identifier}.{layer}"
            assert new.encoding["dtype"] == old.encoding["dtype"] == np.float32
            # bit for bit, not merely close
            np.testing.assert_array_equal(new.values.view(np.uint32), old.values.view(np.uint32))
            np.testing.assert_array_equal(in_memory[layer].values.view(np.uint32), old.values.view(np.uint32))
            assert in_memory[layer].drop_encoding().identical(old.drop_encoding())


def test_decode_workers_give_identical_values(alexnet, stimuli, extracted):
    layers = ["features.12", "features.7"]
    in_process = extract(alexnet, stimuli, layers, batch_size=2, progress=quiet(), num_workers=0)
    two_workers = extract(alexnet, stimuli, layers, batch_size=2, progress=quiet(), num_workers=2)
    for layer in layers:  # ``extracted`` ran with the default (auto) number of workers
        for result in (two_workers[layer], extracted[layer]):
            np.testing.assert_array_equal(result.values.view(np.uint32), in_process[layer].values.view(np.uint32))
            assert result.identical(in_process[layer])


def write_tiny_stimuli(folder, n, corrupt=()):
    (folder / "images").mkdir(parents=True)
    rng = np.random.default_rng(n)
    for k in range(n):
        path = folder / f"images/{k}.png"
        if k in corrupt:
            path.write_bytes(b"not a png")
        else:
            Image.fromarray(rng.integers(0, 256, (16, 16, 3), dtype=np.uint8)).save(path)
    pd.DataFrame(dict(stimulus_id=[f"s{k}" for k in range(n)],
                      filename=[f"images/{k}.png" for k in range(n)])).to_csv(folder / "stimuli.csv", index=False)
    return folder


def traced_peak(function):
    """Peak bytes that Python and numpy allocate while ``function`` runs (numpy reports to tracemalloc)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        function()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


class SmallPixels(ActivationsModel):
    """The pixels model on 128x128 images: 196 kB of float32 output per image, few enough units that tracing the
    coordinates' allocations stays quick."""

    def __init__(self):
        super().__init__("small_pixels", "pixels")

    def preprocess(self, path):
        return np.asarray(load_image(path).resize((128, 128)), dtype=np.float32)


def test_streamed_memory_does_not_grow_with_images(tmp_path):
    model = SmallPixels()
    batch_size, per_image = 4, 128 * 128 * 3 * 4
    small, large = write_tiny_stimuli(tmp_path / "small", 8), write_tiny_stimuli(tmp_path / "large", 32)

    def peak(writer, folder, out):
        return traced_peak(lambda: writer(model, folder, ["pixels"], tmp_path / out, batch_size))

    def streamed(model, folder, layers, destination, batch_size):
        extract_to_folder(model, folder, layers, destination, batch_size, num_workers=0, progress=quiet())

    growth = peak(streamed, large, "new_large") - peak(streamed, small, "new_small")
    legacy_growth = peak(legacy_write, large, "old_large") - peak(legacy_write, small, "old_small")
    # 24 more images: the old path holds them all (twice, while concatenating); streaming holds about one batch
    assert legacy_growth > 24 * per_image
    print(f"peak growth for 24 more images: streamed {growth / 1e6:.2f} MB, legacy {legacy_growth / 1e6:.2f} MB")
    assert growth < batch_size * per_image, f"peak grew by {growth / 1e6:.2f} MB for 24 more images"
    with xr.open_dataarray(tmp_path / "new_large" / "pixels.nc") as streamed_file, \
            xr.open_dataarray(tmp_path / "old_large" / "pixels.nc") as old_file:
        assert streamed_file.load().identical(old_file.load())


class FailingModel(ActivationsModel):
    """The pixels model, except that its forward pass fails on the batch starting at image ``fail_at``."""

    def __init__(self, fail_at):
        super().__init__("failing", "pixels")
        self.fail_at, self.seen = fail_at, 0

    def __call__(self, batch, layers):
        if self.seen >= self.fail_at:
            raise RuntimeError("out of memory (simulated failure in the forward pass)")
        self.seen += len(batch)
        return super().__call__(batch, layers)


@pytest.mark.parametrize("workers", [0, 2])
def test_failure_mid_extraction_leaves_no_output(tmp_path, workers):
    folder = write_tiny_stimuli(tmp_path / "stimuli", 12, corrupt=(9,))
    destination = tmp_path / "results" / "activations" / "failing"
    with pytest.raises(RuntimeError, match="simulated failure"):
        extract_to_folder(FailingModel(fail_at=4), folder, ["pixels"], destination, batch_size=2,
                          num_workers=workers, progress=quiet())
    assert not destination.exists() and list(destination.parent.iterdir()) == []
    # a corrupt image after some batches were written: the error names it, raised as itself from a worker too
    with pytest.raises(ValueError, match="9.png: cannot read image"):
        extract_to_folder(ActivationsModel("failing", "pixels"), folder, ["pixels"], destination, batch_size=2,
                          num_workers=workers, progress=quiet())
    assert not destination.exists() and list(destination.parent.iterdir()) == []


def test_failed_rerun_keeps_previous_output(tmp_path):
    folder = write_tiny_stimuli(tmp_path / "stimuli", 6)
    destination = tmp_path / "out"
    extract_to_folder(ActivationsModel("failing", "pixels"), folder, ["pixels"], destination, 2, 0, quiet())
    before = (destination / "pixels.nc").read_bytes()
    with pytest.raises(RuntimeError, match="simulated failure"):
        extract_to_folder(FailingModel(fail_at=2), folder, ["pixels"], destination, 2, 0, quiet())
    assert (destination / "pixels.nc").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "stimuli"]


def test_extract_to_files_writes_the_layers_asked_for_beside_the_others(alexnet, demo_stimuli, tmp_path):
    """The workflow's per-layer files: a job writes only the missing layers, into the folder that holds the others,
    which it leaves untouched; each file equals the one a whole-folder extraction writes, bit for bit."""
    extract_to_folder(alexnet, demo_stimuli, ["features.7", "features.12"], tmp_path / "folder", 5, 0, quiet())
    existing = tmp_path / "files" / "features.12.nc"
    existing.parent.mkdir()
    existing.write_bytes(b"another layer, not to be touched")
    stamp = existing.stat().st_mtime_ns
    extract_to_files(alexnet, demo_stimuli, {"features.7": tmp_path / "files" / "features.7.nc"}, 5, 0, quiet())
    assert sorted(p.name for p in existing.parent.iterdir()) == ["features.12.nc", "features.7.nc"]  # no staging
    assert existing.stat().st_mtime_ns == stamp
    with xr.open_dataarray(tmp_path / "folder" / "features.7.nc") as whole, \
            xr.open_dataarray(tmp_path / "files" / "features.7.nc") as alone:
        assert alone.load().identical(whole.load())
        np.testing.assert_array_equal(alone.values.view(np.uint32), whole.values.view(np.uint32))


def test_extract_to_files_failure_leaves_none_of_the_layers(tmp_path):
    folder = write_tiny_stimuli(tmp_path / "stimuli", 12)
    destinations = {"pixels": tmp_path / "out" / "pixels.nc"}
    with pytest.raises(RuntimeError, match="simulated failure"):
        extract_to_files(FailingModel(fail_at=4), folder, destinations, batch_size=2, num_workers=0, progress=quiet())
    assert list((tmp_path / "out").iterdir()) == []


class SlowDecode:
    """A preprocess that takes 0.1 s per image and logs when it ran (module level: picklable for workers)."""

    def __init__(self, inner, log_dir):
        self.inner, self.log_dir = inner, log_dir

    def __call__(self, path):
        started = time.time()
        time.sleep(0.1)
        result = self.inner(path)
        (self.log_dir / f"{os.getpid()}-{started}").write_text(f"{started} {time.time()}")
        return result


def test_decode_workers_overlap_the_forward_pass(tmp_path):
    """With workers, images are decoded while the network runs: some decode interval (in a worker process)
    overlaps a forward pass. Checked on the recorded intervals, not on wall-clock totals, so machine load cannot
    flip it; without workers no decode overlaps a forward pass."""
    forwards = []

    class Slow(ActivationsModel):
        def __call__(self, batch, layers):
            started = time.time()
            time.sleep(0.1)
            result = super().__call__(batch, layers)
            forwards.append((started, time.time()))
            return result

    folder = write_tiny_stimuli(tmp_path / "stimuli", 16)
    overlaps = {}
    for workers in (0, 2):
        log_dir = tmp_path / f"decode{workers}"
        log_dir.mkdir()
        forwards.clear()
        model = Slow("slow", "pixels")
        model.preprocess = SlowDecode(model.preprocess, log_dir)
        extract(model, folder, ["pixels"], batch_size=2, progress=quiet(), num_workers=workers)
        decodes = [tuple(map(float, f.read_text().split())) for f in log_dir.iterdir()]
        assert len(decodes) == 16
        overlaps[workers] = sum(1 for a, b in decodes for c, d in forwards if a < d and c < b)
    assert overlaps[0] == 0 and overlaps[2] > 0, overlaps


FULL_DISK_RUN = """
import sys
from brainpipe.models.activations import extract_to_folder
from brainpipe.models.brain_model import ActivationsModel
extract_to_folder(ActivationsModel("pixels", "pixels"), sys.argv[1], ["pixels"], sys.argv[2], 4, 0, sys.stderr)
"""


def test_disk_full_when_the_writers_open_says_so_and_leaves_nothing(layer_disk, tmp_path):
    """8 images of the pixels model (196608 units): the coordinates fit on the 9 MB disk, the values do not. The
    NetCDF library died with SIGSEGV there (no message, a staging folder left filling the disk); the writer checks
    the free space first. In a process of its own, so that a crash cannot take the test run with it."""
    import subprocess
    import sys

    folder = write_tiny_stimuli(tmp_path / "stimuli", 8)
    destination = layer_disk / "activations" / "pixels"
    done = subprocess.run([sys.executable, "-c", FULL_DISK_RUN, str(folder), str(destination)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    message = done.stderr.strip().splitlines()[-1]
    assert f"cannot write {destination}: the disk is full" in message
    assert re.search(r"disk full: writing \S+/pixels\.nc needs \d+ bytes \([\d.]+ MB\), the file system holding "
                     r"\S+ has \d+ bytes free", message), message
    assert [p for p in layer_disk.rglob("*") if p.is_file() or p.name.startswith(".")] == []


class DecodedWhere:
    """A preprocess that records which process decoded each image (module level: picklable for workers)."""

    def __init__(self, inner, log_dir):
        self.inner, self.log_dir = inner, log_dir

    def __call__(self, path):
        (self.log_dir / os.path.basename(path)).write_text(str(os.getpid()))
        return self.inner(path)


@pytest.mark.parametrize("images, batch_size, in_workers", [(4, 4, False), (3, 4, False), (5, 4, True)])
def test_a_set_of_one_batch_is_decoded_here_without_workers(tmp_path, images, batch_size, in_workers):
    """Decode workers only where there is a next batch to decode while the network runs: a stimulus set that fits
    in one batch is decoded in this process (a worker costs a fork of it and overlaps nothing), with the same
    activations."""
    folder = write_tiny_stimuli(tmp_path / "stimuli", images)
    log_dir = tmp_path / "decoded"
    log_dir.mkdir()
    model = ActivationsModel("where", "pixels")
    plain = model.preprocess
    model.preprocess = DecodedWhere(plain, log_dir)
    asked = extract(model, folder, ["pixels"], batch_size=batch_size, progress=quiet(), num_workers=2)["pixels"]
    pids = {int(f.read_text()) for f in log_dir.iterdir()}
    assert len(list(log_dir.iterdir())) == images
    assert (os.getpid() not in pids) if in_workers else (pids == {os.getpid()})
    model.preprocess = plain
    alone = extract(model, folder, ["pixels"], batch_size=batch_size, progress=quiet(), num_workers=0)["pixels"]
    assert asked.identical(alone)
