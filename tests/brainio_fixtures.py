"""Small stand-ins for Brain-Score's data files, in the real formats and under the real object names.

The real files cannot be downloaded on the development machines, so tests and the workflow's end-to-end check
use these. What is copied from the real data (brain-score/vision brainscore_vision/data/{majajhong2015,freemanziemba2013}/__init__.py):

* object names (``assy_dicarlo_MajajHong2015_public.nc``, ``stimulus_hvm-public.csv/.zip``, …);
* NetCDF DataArray named by the identifier, dims and their order, coordinate names, time bins;
* MajajHong2015: float32 values (normalised rates, negatives present), neuroid ids like ``Chabo_L_M_5_9``,
  V4/IT, 8 categories with 2 objects each here (64 in the real set), variations 0/3 public and 6 private,
  256×256 RGB PNGs whose ``image_id`` is the sha1 of the file;
* FreemanZiemba2013: dims (neuroid, time_bin, presentation), 300 one-ms bins (start 0–299, end 1–300),
  0/1 spike counts, int neuroid ids, V1/V2, noise/texture images of 320×320 grayscale with a raised-cosine
  aperture on gray 128, 20 repetitions (0–19);
* stimulus CSV with ``image_id`` (no ``stimulus_id``: brainio copies it) and ``filename`` = path inside the zip;
  the zip holds the images at its top level (what brainio's loader check implies, see ``fetch._match_layout``).

Not known from the real files (**unverified** choices): exact dtypes of the metadata coordinates (ints for
counters and ids, float64 for pose parameters, str otherwise), the spike-count dtype (int64 here), which
stimulus columns the real CSVs carry besides those listed, and presentation order (shuffled here so that no
code can rely on it). Responses depend on the image (a linear read-out of downsampled pixels plus a category
term plus trial noise), so model scores and ceilings are above zero but below one.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.server
import io
import threading
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr
from PIL import Image

MAJAJ_CATEGORIES = {  # category → 2 objects (names from the hvm set's style; the real set has 8 per category)
    "Animals": ["bear", "ELEPHANT_M"], "Boats": ["breed_pug", "yacht"], "Cars": ["Beetle", "bmw325"],
    "Chairs": ["Coffee_Chair", "MB29826"], "Faces": ["face0001", "face0002"], "Fruits": ["apple", "walnut"],
    "Planes": ["f16", "MQ9"], "Tables": ["table1", "table2"],
}
FZ_FAMILIES = [327, 336, 393, 402, 13, 18, 23, 30, 38, 48, 52, 56, 60, 71, 99]  # real texture_family ids

#: Sizes per scale. ``tiny`` keeps tests fast yet lets Brain-Score's CV run: 10 splits of 90/10 stratified by
#: object_name need at least 16 test images (one per object), i.e. 160 images; FreemanZiemba is stratified
#: by texture_type (2 classes).
SCALES = {
    "tiny": dict(v0=2, v3=8, v6=10, reps=3, v4=4, it=6, fz_families=3, fz_samples=4, fz_v1=3, fz_v2=3),
    "small": dict(v0=4, v3=16, v6=20, reps=6, v4=10, it=16, fz_families=5, fz_samples=6, fz_v1=8, fz_v2=8),
}

MAJAJ_IMAGE_COLUMNS = ["image_id", "id", "background_id", "s", "image_file_name", "filename", "rxy", "tz",
                       "category_name", "rxz_semantic", "ty", "ryz", "object_name", "variation", "size",
                       "rxy_semantic", "ryz_semantic", "rxz"]
FZ_IMAGE_COLUMNS = ["image_id", "texture_type", "texture_family", "sample", "resolution", "image_file_name",
                    "image_id_without_aperture", "id"]


def _png_bytes(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG", compress_level=1)  # fast; size does not matter here
    return buffer.getvalue()


def _sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def _downsample(pixels: np.ndarray, size: int) -> np.ndarray:
    """Block-mean grayscale downsampling to size×size, flattened, as float64 in [0, 1]."""
    gray = pixels.astype(np.float64)
    if gray.ndim == 3:
        gray = gray.mean(axis=2)
    block = gray.shape[0] // size
    return gray[:block * size, :block * size].reshape(size, block, size, block).mean(axis=(1, 3)).ravel() / 255


# ---------------------------------------------------------------------------------------------------------------
# MajajHong2015


def _hvm_image(rng: np.random.Generator, category_index: int, object_index: int, variation: int):
    """A 256×256 RGB picture: smooth random background, a category-shaped blob in an object colour, posed
    more variably at higher variation (like hvm's V0/V3/V6). Returns pixels and the pose parameters."""
    size = 256
    spread = {0: 0.0, 3: 0.5, 6: 1.0}[variation]
    ty, tz = rng.uniform(-0.6, 0.6, 2) * spread + 0.0  # + 0.0 turns -0.0 into 0.0
    s = 1.0 + rng.uniform(-0.3, 0.3) * spread
    rxy, rxz, ryz = rng.uniform(-90, 90, 3) * spread + 0.0
    yy, xx = np.mgrid[0:size, 0:size] / size - 0.5
    coarse_y, coarse_x = yy[::8, ::8], xx[::8, ::8]  # background drawn at 32×32 and enlarged: fast to encode
    background = np.stack([0.5 + 0.2 * np.sin(2 * np.pi * (rng.uniform(0.5, 2) * coarse_x
                                                              + rng.uniform(0.5, 2) * coarse_y + rng.uniform()))
                           for _ in range(3)], axis=2).repeat(8, axis=0).repeat(8, axis=1)
    cx, cy = ty * 0.3, tz * 0.3
    angle = np.deg2rad(rxy)
    u = ((xx - cx) * np.cos(angle) + (yy - cy) * np.sin(angle)) / (0.18 * s)
    v = (-(xx - cx) * np.sin(angle) + (yy - cy) * np.cos(angle)) / (0.18 * s)
    shape = category_index % 4
    if shape == 0:
        mask = u ** 2 + v ** 2 < 1
    elif shape == 1:
        mask = (np.abs(u) < 1) & (np.abs(v) < 0.5 + 0.3 * (category_index > 3))
    elif shape == 2:
        mask = (v > -0.8) & (np.abs(u) < (0.8 - v) * 0.6)
    else:
        mask = (u ** 2 + v ** 2 < 1) & (u ** 2 + v ** 2 > 0.35)
    colour = np.array([(category_index * 37 + object_index * 101) % 255,
                       (category_index * 91 + object_index * 53) % 255,
                       (category_index * 13 + object_index * 171) % 255]) / 255
    picture = np.where(mask[..., None], colour, background)
    pixels = np.clip(picture * 255, 0, 255).astype(np.uint8)
    pose = dict(ty=float(ty), tz=float(tz), s=float(s), rxy=float(rxy), rxz=float(rxz), ryz=float(ryz),
                rxy_semantic=float(rxy), rxz_semantic=float(rxz), ryz_semantic=float(ryz))
    return pixels, pose


def _hvm_images(scale: dict, variations: tuple[int, ...], seed: int):
    """Images and per-image metadata of one hvm subset (sorted deterministic)."""
    rng = np.random.default_rng(seed)
    per_variation = {0: scale["v0"], 3: scale["v3"], 6: scale["v6"]}
    rows, pngs, features = [], {}, []
    for category_index, (category, objects) in enumerate(MAJAJ_CATEGORIES.items()):
        for object_index, object_name in enumerate(objects):
            for variation in variations:
                for _ in range(per_variation[variation]):
                    pixels, pose = _hvm_image(rng, category_index, object_index, variation)
                    data = _png_bytes(pixels)
                    image_id = _sha1(data)
                    name = (f"{object_name}_ty{pose['ty']:+.3f}_tz{pose['tz']:+.3f}_rxy{pose['rxy']:+.3f}"
                            f"_s{pose['s']:+.3f}_{image_id}_256x256.png")
                    pngs[name] = data
                    rows.append(dict(image_id=image_id, id=0, background_id=_sha1(data[:64] + b"bg"),
                                     image_file_name=name, filename=name, category_name=category,
                                     object_name=object_name, variation=variation, size=256, **pose))
                    features.append(np.concatenate([_downsample(pixels, 8), np.eye(8)[category_index]]))
    table = pd.DataFrame(rows)
    table["id"] = np.arange(len(table)) + (3200 if variations == (6,) else 0)  # unique across public/private
    return table[MAJAJ_IMAGE_COLUMNS], pngs, np.array(features)


def _majaj_neuroids(scale: dict, rng: np.random.Generator) -> pd.DataFrame:
    rows = []
    for region, count in (("V4", scale["v4"]), ("IT", scale["it"])):
        for index in range(count):
            animal = ("Chabo", "Tito")[index % 2]
            arr = {"V4": "P", "IT": ("M", "A")[index % 2]}[region]
            row, col = int(rng.integers(0, 10)), int(rng.integers(0, 10))
            rows.append(dict(neuroid_id=f"{animal}_L_{arr}_{row}_{col}_{region}{index}", arr=arr, col=col,
                             row=row, hemisphere="L",
                             subregion=region if region == "V4" else ("pIT", "cIT", "aIT")[index % 3],
                             animal=animal, x=float(col) * 0.4, y=float(row) * 0.4, region=region))
    return pd.DataFrame(rows)


def _responses(features: np.ndarray, n_neuroids: int, rng: np.random.Generator, repetitions: int,
               noise: float) -> np.ndarray:
    """(image, repetition, neuroid) responses: z-scored linear read-out of features plus trial noise."""
    weights = rng.normal(size=(features.shape[1], n_neuroids))
    signal = features @ weights
    signal = (signal - signal.mean(axis=0)) / (signal.std(axis=0) + 1e-12)
    trials = signal[:, None, :] + noise * rng.normal(size=(len(features), repetitions, n_neuroids))
    return trials


def majaj_assembly(images: pd.DataFrame, features: np.ndarray, scale: dict, identifier: str,
                   seed: int = 0, drop_coords=()) -> xr.DataArray:
    """A MajajHong2015-like DataArray (neuroid × presentation × time_bin, float32, named ``identifier``).

    ``drop_coords``: presentation coordinates to leave out (to test the merge from the stimulus set).
    """
    rng = np.random.default_rng(seed + 1)
    neuroids = _majaj_neuroids(scale, rng)
    reps = scale["reps"]
    trials = _responses(features, len(neuroids), rng, reps, noise=0.7)  # (image, rep, neuroid)
    order = rng.permutation(len(images) * reps)  # presentation order deliberately not sorted
    image_index, repetition = np.divmod(order, reps)
    values = trials[image_index, repetition, :].T[:, :, None].astype(np.float32)
    presentation = {column: ("presentation", images[column].to_numpy()[image_index])
                    for column in MAJAJ_IMAGE_COLUMNS if column not in drop_coords}
    presentation["repetition"] = ("presentation", repetition.astype(np.int64))
    presentation["stimulus"] = ("presentation", image_index.astype(np.int64))
    coords = {column: ("neuroid", neuroids[column].to_numpy()) for column in neuroids.columns}
    coords.update(presentation)
    coords["time_bin_start"] = ("time_bin", np.array([70], dtype=np.int64))
    coords["time_bin_end"] = ("time_bin", np.array([170], dtype=np.int64))
    return xr.DataArray(values, dims=("neuroid", "presentation", "time_bin"), coords=_plain(coords),
                        name=identifier)


def _plain(coords: dict) -> dict:
    """Text columns as object arrays of str: pandas 3 'str' dtype must not reach xarray/NetCDF."""
    out = {}
    for name, (dim, values) in coords.items():
        values = np.asarray(values)
        if values.dtype.kind in "OUT":
            values = values.astype(str).astype(object)
        out[name] = (dim, values)
    return out


# ---------------------------------------------------------------------------------------------------------------
# FreemanZiemba2013


def _fz_image(rng: np.random.Generator, family_index: int, texture: bool):
    """320×320 grayscale: an oriented texture (or spectrally matched noise) inside a raised-cosine aperture
    on gray 128. Returns (pixels with aperture, pixels without aperture)."""
    size = 320
    frequency = np.fft.fftfreq(size)
    fy, fx = np.meshgrid(frequency, frequency, indexing="ij")
    radius = np.hypot(fx, fy) + 1e-6
    orientation = np.arctan2(fy, fx)
    preferred = np.pi * family_index / 7
    centre = 0.02 + 0.015 * (family_index % 4)
    amplitude = np.exp(-((np.log(radius / centre)) ** 2) / 0.3) * (1 + 2 * np.cos(orientation - preferred) ** 8)
    phases = np.exp(2j * np.pi * rng.uniform(size=(size, size)))
    image = np.real(np.fft.ifft2(amplitude * phases))
    if texture:  # higher-order structure: rectified, sharpened version of the same spectrum
        image = np.sign(image) * np.abs(image) ** 0.5
    image = (image - image.mean()) / (image.std() + 1e-12)
    without = np.clip(128 + 40 * image, 0, 255)
    yy, xx = np.mgrid[0:size, 0:size] - (size - 1) / 2
    r = np.hypot(xx, yy) / (size / 2)
    aperture = np.where(r < 0.75, 1.0, np.where(r < 1, 0.5 * (1 + np.cos(np.pi * (r - 0.75) / 0.25)), 0.0))
    with_aperture = 128 + (without - 128) * aperture
    return np.round(with_aperture).astype(np.uint8), np.round(without).astype(np.uint8)


def _fz_images(scale: dict, public: bool, seed: int):
    rng = np.random.default_rng(seed)
    families = FZ_FAMILIES[:scale["fz_families"]]
    # public and private use different samples of the same families (the real split is by image).
    samples = range(1, scale["fz_samples"] + 1) if public else range(8, 8 + scale["fz_samples"])
    rows, pngs, features = [], {}, []
    for texture_type in ("noise", "texture"):
        for family_index, family in enumerate(families):
            for sample in samples:
                pixels, without = _fz_image(rng, family_index, texture_type == "texture")
                data = _png_bytes(pixels)
                prefix = "tex" if texture_type == "texture" else "noise"
                name = f"{prefix}-320x320-im{family}-smp{sample}.png"
                pngs[name] = data
                rows.append(dict(image_id=_sha1(data), texture_type=texture_type, texture_family=family,
                                 sample=sample, resolution=320, image_file_name=name,
                                 image_id_without_aperture=_sha1(_png_bytes(without)), id=len(rows),
                                 filename=name))
                contrast = np.abs(pixels.astype(np.float64) - 128)
                features.append(np.concatenate([_downsample(contrast, 8), [texture_type == "texture"]]))
    return pd.DataFrame(rows), pngs, np.array(features)


def freeman_assembly(images: pd.DataFrame, features: np.ndarray, scale: dict, identifier: str,
                     seed: int = 0) -> xr.DataArray:
    """A FreemanZiemba2013-like DataArray (neuroid × time_bin × presentation, 0/1 spikes per 1-ms bin)."""
    rng = np.random.default_rng(seed + 1)
    reps = 20
    n_v1, n_v2 = scale["fz_v1"], scale["fz_v2"]
    n = n_v1 + n_v2
    trials = _responses(features, n, rng, reps, noise=0.3)  # (image, rep, neuroid) latent drive
    rate = 0.02 + 0.15 / (1 + np.exp(-trials))  # spike probability per ms while the stimulus drives the cell
    order = rng.permutation(len(images) * reps)
    image_index, repetition = np.divmod(order, reps)
    probability = np.full((n, 300, len(order)), 0.01)
    probability[:, 50:200, :] = rate[image_index, repetition, :].T[:, None, :]
    spikes = (rng.uniform(size=probability.shape) < probability).astype(np.int64)
    coords = {"neuroid_id": ("neuroid", np.arange(1, n + 1, dtype=np.int64)),
              "region": ("neuroid", np.array(["V1"] * n_v1 + ["V2"] * n_v2, dtype=object)),
              "time_bin_start": ("time_bin", np.arange(0, 300, dtype=np.int64)),
              "time_bin_end": ("time_bin", np.arange(1, 301, dtype=np.int64)),
              "repetition": ("presentation", repetition.astype(np.int64))}
    for column in FZ_IMAGE_COLUMNS:
        coords[column] = ("presentation", images[column].to_numpy()[image_index])
    return xr.DataArray(spikes, dims=("neuroid", "time_bin", "presentation"), coords=_plain(coords),
                        name=identifier)


# ---------------------------------------------------------------------------------------------------------------
# Writing a store


def write_netcdf(assembly: xr.DataArray, path: Path) -> None:
    """Write like brainio's ``write_netcdf``: plain coords, zlib level 1, variable named by the identifier."""
    assembly.to_netcdf(path, encoding={assembly.name: {"zlib": True, "complevel": 1}})


def write_zip(pngs: dict[str, bytes], path: Path, layout: str = "flat") -> None:
    """Zip the images; ``layout="folder"`` puts them in one top-level folder named like the zip."""
    prefix = "" if layout == "flat" else path.stem + "/"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:  # PNGs are compressed already
        for name in sorted(pngs):  # a fixed date: the same images give the same bytes (and sha1) at any time
            archive.writestr(zipfile.ZipInfo(prefix + name, date_time=(1980, 1, 1, 0, 0, 0)), pngs[name])


def write_stimulus_csv(images: pd.DataFrame, path: Path) -> None:
    images.to_csv(path, index=False)


ALL_DATASETS = ("MajajHong2015.public", "MajajHong2015.private", "MajajHong2015",
                "FreemanZiemba2013.public", "FreemanZiemba2013.private")


def write_fixture_store(root, scale: str = "tiny", datasets=ALL_DATASETS, zip_layout: str = "flat",
                        seed: int = 0) -> dict[str, str]:
    """Write fixture assemblies and stimulus sets under their real object names into ``root``.

    Parameters
    ----------
    root : path
        Folder to write into (created); serve it with :func:`local_http_server` or use it as a
        ``file://`` base URL.
    scale : {"tiny", "small"} or dict
        Sizes, see :data:`SCALES`. tiny: 160 hvm images per public/private set, 3 repetitions, 4 V4 + 6 IT
        neuroids; 24 FreemanZiemba images × 20 repetitions, 3 V1 + 3 V2 neuroids. A dict overrides keys of tiny,
        e.g. MajajHong2015-public size ``dict(v0=40, v3=160, reps=44, v4=88, it=168)`` (3200 images of 16 objects).
    datasets : iterable of str
        Assembly registry keys to write (with their stimulus sets), default all five of the catalog.
    zip_layout : {"flat", "folder"}
        Images at the top level of the zip (brainio's layout) or inside one folder.
    seed : int
        Random seed; the same seed gives byte-identical files.

    Returns
    -------
    dict
        Object name → sha1 of every file written; pass it to ``Catalog.with_checksums`` (or dump it as JSON for
        config ``data.checksums_override``).
    """
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    sizes = SCALES[scale] if isinstance(scale, str) else {**SCALES["tiny"], **scale}
    written: dict[str, bytes | Path] = {}
    cache = {}

    def hvm(key):
        if key not in cache:
            if key == "hvm":
                public, private = hvm("hvm-public"), hvm("hvm-private")
                table = pd.concat([public[0], private[0]], ignore_index=True)
                cache[key] = (table, {**public[1], **private[1]}, np.concatenate([public[2], private[2]]))
            else:
                variations = (0, 3) if key == "hvm-public" else (6,)
                cache[key] = _hvm_images(sizes, variations, seed + (1 if key == "hvm-public" else 2))
        return cache[key]

    def put_stimuli(identifier, table, pngs):
        stem = "stimulus_" + identifier.replace(".", "_")
        write_stimulus_csv(table, root / f"{stem}.csv")
        write_zip(pngs, root / f"{stem}.zip", zip_layout)
        written[f"{stem}.csv"] = root / f"{stem}.csv"
        written[f"{stem}.zip"] = root / f"{stem}.zip"

    for key in datasets:
        if key.startswith("MajajHong2015"):
            stimulus_id = {"MajajHong2015.public": "hvm-public", "MajajHong2015.private": "hvm-private",
                           "MajajHong2015": "hvm"}[key]
            table, pngs, features = hvm(stimulus_id)
            identifier = "dicarlo." + key
            assembly = majaj_assembly(table, features, sizes, identifier, seed=seed)
        elif key.startswith("FreemanZiemba2013"):
            public = key.endswith("public")
            stimulus_id = "FreemanZiemba2013.aperture-" + ("public" if public else "private")
            table, pngs, features = _fz_images(sizes, public, seed + (3 if public else 4))
            identifier = "movshon." + key
            assembly = freeman_assembly(table, features, sizes, identifier, seed=seed)
        else:
            raise ValueError(f"unknown fixture data set {key!r}; known: {', '.join(ALL_DATASETS)}")
        name = "assy_" + identifier.replace(".", "_") + ".nc"
        write_netcdf(assembly, root / name)
        written[name] = root / name
        put_stimuli(stimulus_id, table, pngs)
    return {name: _sha1(path.read_bytes()) for name, path in written.items()}


# ---------------------------------------------------------------------------------------------------------------
# A real HTTP server on loopback


@dataclass
class LocalServer:
    """Handle of a running :func:`local_http_server`.

    Attributes
    ----------
    url : str
        Base URL with trailing slash, e.g. ``http://127.0.0.1:54321/``.
    requests : list of str
        Paths of the GET requests received, in order (to assert that a cache hit makes none).
    truncate : dict
        File name → number of body bytes to send while announcing the full Content-Length, then close.
    missing : set
        File names answered with 404 even if present.
    """

    url: str
    requests: list = field(default_factory=list)
    truncate: dict = field(default_factory=dict)
    missing: set = field(default_factory=set)


@contextlib.contextmanager
def local_http_server(root):
    """Serve ``root`` over HTTP on 127.0.0.1 (random free port) in a thread; yield a :class:`LocalServer`.

    The server is shut down and its socket closed when the block exits.
    """
    root = Path(root)
    state = LocalServer(url="")
    lock = threading.Lock()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, format, *args):  # keep test output clean
            pass

        def do_GET(self):
            name = self.path.split("?", 1)[0].lstrip("/")
            with lock:
                state.requests.append(self.path)
            if name in state.missing:
                self.send_error(404, "Not Found")
                return
            if name in state.truncate:
                body = (root / name).read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[:state.truncate[name]])
                self.wfile.flush()
                self.close_connection = True
                return
            super().do_GET()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}/"
    # A short poll interval makes shutdown() return quickly (the default 0.5 s adds up over many tests).
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="fixture-http",
                              daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# ---- which fixture files a stored reference ran on ------------------------------------------------------------
#: NetCDF fixtures' content fingerprints (``content_fingerprint``), by file name; written by
#: tests/reference/make_fixture_fingerprints.py (which lists the stores).
CONTENT_FINGERPRINTS = Path(__file__).parent / "data" / "fixture_content_fingerprints.json"
#: how far a float of another CPU's file may lie from the stored fingerprint's, relative to the variable's largest
#: magnitude (sums: to the sum of magnitudes): the last bit of a float32 is about 6e-8 of it
FINGERPRINT_RTOL = 1e-6
#: float values a fingerprint keeps, at evenly spaced places of the flattened variable
FINGERPRINT_SAMPLES = 32


def content_fingerprint(path) -> dict:
    """What a NetCDF file holds, in a form that another CPU's file of the same data matches within
    :data:`FINGERPRINT_RTOL`: per variable (coordinates too) its dims, dtype and shape; other than float values as a
    sha1; float values as their NaN count, sum, sum of magnitudes, sum of squares, min, max and
    :data:`FINGERPRINT_SAMPLES` values at evenly spaced places.

    A fixture's bytes are not the same on every CPU: its values come out of BLAS products (``features @ weights``),
    whose kernels differ in the last bit between CPU types (seen: two kinds of AMD EPYC with AVX-512 against the
    machine that made the references). A stored reference ran on one machine's bytes; a file whose sha1 differs but
    whose fingerprint matches holds the same data, to a millionth of each variable's scale (far inside every
    reference test's tolerance). Rounding every value and hashing them (the digests before these) was not that: a
    float32 value in the hundreds rounded to 9 decimals keeps its last bits, and any value near a rounding boundary
    flips, so each digest held for one CPU only."""
    import xarray as xr

    fingerprint = {}
    with xr.open_dataset(path) as data:
        for name in sorted(map(str, data.variables)):
            variable = data[name]
            values = np.asarray(variable.values)
            entry = {"dims": list(variable.dims), "dtype": values.dtype.str, "shape": list(values.shape)}
            if values.dtype.kind == "f":
                flat = values.astype(np.float64).ravel()
                finite = flat[np.isfinite(flat)]
                places = np.unique(np.linspace(0, flat.size - 1, min(flat.size, FINGERPRINT_SAMPLES)).round()
                                   .astype(int)) if flat.size else np.array([], dtype=int)
                entry.update(
                    nan=int(np.isnan(flat).sum()),
                    sum=float(finite.sum()), abs_sum=float(np.abs(finite).sum()),
                    square_sum=float(np.square(finite).sum()),
                    min=float(finite.min()) if finite.size else None, max=float(finite.max()) if finite.size else None,
                    samples=[float(value) if np.isfinite(value) else str(value) for value in flat[places]])
            elif values.dtype.kind in "OUS":
                entry["sha1"] = hashlib.sha1("\x00".join(map(str, values.ravel())).encode()).hexdigest()
            else:
                entry["sha1"] = hashlib.sha1(np.ascontiguousarray(values).tobytes()).hexdigest()
            fingerprint[name] = entry
    return fingerprint


def fingerprint_mismatches(stored: dict, here: dict, rtol: float = FINGERPRINT_RTOL) -> list[str]:
    """How ``here`` (a :func:`content_fingerprint`) differs from ``stored`` beyond ``rtol``: one line a difference,
    none when they hold the same data."""
    if set(stored) != set(here):
        return [f"variables {sorted(set(stored) ^ set(here))} in one file only"]
    problems = []
    for name, want in stored.items():
        got = here[name]
        exact = [key for key in ("dims", "dtype", "shape", "sha1", "nan") if want.get(key) != got.get(key)]
        problems += [f"{name}.{key}: {got.get(key)} here, {want.get(key)} stored" for key in exact]
        if exact or "sum" not in want:
            continue
        scale = max(abs(want["min"] or 0.0), abs(want["max"] or 0.0))
        pairs = [("min", want["min"], got["min"], scale), ("max", want["max"], got["max"], scale),
                 ("sum", want["sum"], got["sum"], want["abs_sum"]), ("abs_sum", want["abs_sum"], got["abs_sum"],
                                                                     want["abs_sum"]),
                 ("square_sum", want["square_sum"], got["square_sum"], 2 * want["square_sum"])]
        pairs += [(f"samples[{k}]", a, b, scale) for k, (a, b) in enumerate(zip(want["samples"], got["samples"]))]
        for key, a, b, size in pairs:
            if isinstance(a, str) or isinstance(b, str) or a is None or b is None:
                close = a == b  # inf, -inf, nan, or no finite value at all: alike or not
            else:
                close = abs(a - b) <= rtol * size
            if not close:
                problems.append(f"{name}.{key}: {b} here, {a} stored")
    return problems


def assert_files_are_the_reference_ones(root, sums: dict, reference: dict):
    """``sums`` (file name -> sha1 of the file written under ``root``) are the files ``reference`` (name -> sha1)
    ran on: equal sha1s, or for a NetCDF file whose bytes differ, a content fingerprint that matches the stored one."""
    import json

    assert set(sums) == set(reference), (sorted(set(sums) ^ set(reference)))
    stored = json.loads(CONTENT_FINGERPRINTS.read_text()) if CONTENT_FINGERPRINTS.exists() else {}
    differing = {}
    for name, sha1 in sums.items():
        if sha1 == reference[name]:
            continue
        if name.endswith(".nc") and name in stored:
            problems = fingerprint_mismatches(stored[name], content_fingerprint(Path(root) / name))
            if not problems:
                continue  # the same content in this CPU's last bits
            differing[name] = (sha1, reference[name], problems[:5])
        else:
            differing[name] = (sha1, reference[name], "no stored fingerprint")
    assert not differing, ("fixture files differ from the ones the reference ran on (sha1 here, reference, how the "
                           f"content differs): {differing}")
