"""Microsaccades: Brain-Score's way to get several different responses of a deterministic model to one image
(``require_variance=True``), and the order in which Brain-Score then labels them.

Upstream: brain-score/vision brainscore_vision/model_helpers/activations/core.py (``MicrosaccadeHelper``,
``ActivationsExtractorHelper._get_activations_batched`` and ``_package_layer``). For trial ``i`` of ``n`` the
preprocessed (channels × rows × cols) input is translated by a sub-pixel shift on a spiral of radius
``0.05° / visual_degrees × rows`` pixels::

    r = sqrt(i / n) · max_radius,  θ = 2π · sqrt(i / n),  shift = (r cos θ, r sin θ)   (trial 0: no shift)

with OpenCV's ``warpAffine`` (INTER_LINEAR, BORDER_REPLICATE). :func:`translate` reproduces that warp in numpy:
OpenCV inverts the float32 matrix, rounds the source coordinate to 1/1024 and then to 1/32 pixel (its fixed-point
INTER_BITS = 5 grid), and interpolates bilinearly with weights on that grid, clamping at the border; equal to
cv2 4.11 within float32 rounding (tests/test_microsaccades.py, reference values from OpenCV itself).

Labelling (:func:`brainscore_order`): upstream computes a batch of images (64, Defaults.batch_size) once per
trial and concatenates the trials, so a batch's rows are trial-major (trial 0 of every image, then trial 1...),
but it labels the rows image-major (``np.repeat(paths, n)``). A row labelled as image ``k`` therefore holds
another image's (or trial's) activations whenever n > 1. brainpipe computes every (image, trial) and then orders
the rows as upstream does, so the labels sit where Brain-Score puts them: its scores depend on that.
"""

from __future__ import annotations

import numpy as np

#: MicrosaccadeHelper.microsaccade_extent_degrees
EXTENT_DEGREES = 0.05
#: brain-score/vision model_helpers/activations/core.py Defaults.batch_size (PytorchWrapper's default)
BRAINSCORE_BATCH_SIZE = 64
#: OpenCV imgwarp fixed point: AB_BITS = 10 (coordinates in 1/1024), INTER_BITS = 5 (weights on a 1/32 grid)
_AB_SCALE = 1 << 10
_INTER_TAB_SIZE = 1 << 5


def shifts(number_of_trials: int, visual_degrees: float, rows: int) -> list[tuple[float, float]]:
    """(x, y) pixel shift of each trial (upstream ``build_microsaccades``)."""
    max_radius = EXTENT_DEGREES / visual_degrees * rows
    a = max_radius / np.sqrt(number_of_trials)
    out = []
    for i in range(number_of_trials):
        r = np.sqrt(i / number_of_trials) * max_radius
        theta = a * np.sqrt(i) * 2 * np.pi / max_radius
        out.append((float(r * np.cos(theta)), float(r * np.sin(theta))))
    return out


def _axis(n: int, shift: float):
    """Source indices (clamped: BORDER_REPLICATE) and the 1/32-grid weight of the second one, along one axis."""
    offset = -float(np.float32(shift))  # the float32 matrix, inverted (identity part exact)
    q = (int(np.rint(offset * _AB_SCALE)) + _AB_SCALE // _INTER_TAB_SIZE // 2) >> (10 - 5)  # floor, as C's >>
    base = np.arange(n) + (q >> 5)
    weight = np.float32((q & (_INTER_TAB_SIZE - 1)) / _INTER_TAB_SIZE)
    return np.clip(base, 0, n - 1), np.clip(base + 1, 0, n - 1), weight


def translate(image: np.ndarray, shift: tuple[float, float]) -> np.ndarray:
    """A (channels × rows × cols) float32 image shifted by (x, y) pixels, as cv2.warpAffine(INTER_LINEAR,
    BORDER_REPLICATE) does with the matrix [[1, 0, x], [0, 1, y]]."""
    image = np.asarray(image, dtype=np.float32)
    if image.ndim != 3:
        raise ValueError(f"translate expects channels × rows × cols, got shape {image.shape}")
    if shift == (0.0, 0.0) or (float(shift[0]) == 0 and float(shift[1]) == 0):
        return image.copy()
    _, rows, cols = image.shape
    y0, y1, wy = _axis(rows, shift[1])
    x0, x1, wx = _axis(cols, shift[0])
    top, bottom = image[:, y0], image[:, y1]
    one = np.float32(1)
    out = (top[:, :, x0] * ((one - wx) * (one - wy)) + top[:, :, x1] * (wx * (one - wy))
           + bottom[:, :, x0] * ((one - wx) * wy) + bottom[:, :, x1] * (wx * wy))
    return out.astype(np.float32)


def brainscore_order(n_images: int, number_of_trials: int, batch_size: int = BRAINSCORE_BATCH_SIZE):
    """For each output row (labelled image-major: row j is image j // n), the (image, trial) whose activations
    Brain-Score stores there. Within a batch starting at image s with B images, row s·n + j holds image
    s + j % B, trial j // B."""
    rows = []
    for start in range(0, n_images, batch_size):
        size = min(batch_size, n_images - start)
        rows += [(start + j % size, j // size) for j in range(size * number_of_trials)]
    return rows


def extract_trials(model, paths, layer: str, number_of_trials: int, visual_degrees: float, batch_size: int = 64,
                   order_batch_size: int = BRAINSCORE_BATCH_SIZE, progress=None):
    """The ``layer`` features of every (image, trial) in Brain-Score's row order: ``number_of_trials`` shifted
    copies of each preprocessed image (:func:`shifts` on its rows, the model's ``visual_degrees``), run through
    ``model`` (a brainpipe activations model: ``model.preprocess(path)`` → (C, H, W) float32, ``model(batch,
    [layer])`` → {layer: outputs}) ``batch_size`` at a time. Returns (rows × features float32 array, the
    (image, trial) of each row: :func:`brainscore_order` with ``order_batch_size``)."""
    import torch

    order = brainscore_order(len(paths), number_of_trials, order_batch_size)
    features, pending, done = None, [], 0

    def run(items):
        nonlocal features
        with torch.inference_mode():
            out = model(np.stack([image for _, image in items]), [layer])[layer]
        out = np.asarray(out).reshape(len(items), -1).astype(np.float32, copy=False)
        if not np.isfinite(out).all():
            raise ValueError(f"model {model.identifier} layer {layer}: non-finite activations")
        if features is None:
            features = np.empty((len(order), out.shape[1]), np.float32)
        for (row, _), values in zip(items, out):
            features[row] = values

    row_of = {pair: row for row, pair in enumerate(order)}
    trial_shifts = None
    for index, path in enumerate(paths):
        image = np.asarray(model.preprocess(path), dtype=np.float32)
        if trial_shifts is None:
            trial_shifts = shifts(number_of_trials, visual_degrees, image.shape[1])
        for trial, shift in enumerate(trial_shifts):
            pending.append((row_of[(index, trial)], translate(image, shift)))
            if len(pending) == batch_size:
                run(pending)
                done += len(pending)
                pending = []
                if progress is not None:
                    print(f"[trial activations] {model.identifier}: {done}/{len(order)}", file=progress, flush=True)
    if pending:
        run(pending)
    return features, order
