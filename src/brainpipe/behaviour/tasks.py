"""BrainModel behavioural tasks on extracted features: ``label``, ``probabilities``, ``odd_one_out``.

Upstream: brain-score/vision brainscore_vision/model_helpers/brain_transformation/behavior.py (``LabelBehavior``,
``LabelToImagenetIndices``, ``ProbabilitiesMapping``, ``OddOneOut``). Inputs are DataArrays of features or logits
with a ``presentation`` dimension carrying ``stimulus_id`` (other dims are flattened into features); outputs are
behavioural assemblies with Brain-Score's dims and coordinate names, writable with ``brainpipe.io.write_netcdf``.
"""

from __future__ import annotations

import warnings

import numpy as np
import xarray as xr

from ._common import as_text, coord, require_coords, source_name, where
from ._synsets import SYNSETS

#: brain-score/vision behavior.py ``LabelToImagenetIndices`` (from bethgelab/model-vs-human decision_mappings.py):
#: the 16 object classes of the first label benchmarks, plus the labels later benchmarks added.
LABEL_TO_IMAGENET_INDICES = {
    "airplane": [404], "bear": [294, 295, 296, 297], "bicycle": [444, 671],
    "bird": [8, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 22, 23, 24, 80, 81, 82, 83, 87, 88, 89, 90, 91, 92, 93, 94,
             95, 96, 98, 99, 100, 127, 128, 129, 130, 131, 132, 133, 135, 136, 137, 138, 139, 140, 141, 142, 143, 144,
             145],
    "boat": [472, 554, 625, 814, 914], "bottle": [440, 720, 737, 898, 899, 901, 907], "car": [436, 511, 817],
    "cat": [281, 282, 283, 284, 285, 286], "chair": [423, 559, 765, 857], "clock": [409, 530, 892],
    "dog": [*range(152, 192), *range(193, 204), *range(205, 227), *range(228, 242), *range(243, 251),
            *range(252, 258), 259, 261, 262, 263, 265, 266, 267, 268],
    "elephant": [385, 386], "keyboard": [508, 878], "knife": [499], "oven": [766],
    "truck": [555, 569, 656, 675, 717, 734, 864, 867],
    # Baker et al. 2022
    "frog": [30, 31, 32], "lizard": list(range(38, 49)), "bunny": [330, 331, 332], "tiger": list(range(286, 294)),
    "turtle": [33, 34, 35, 36, 37], "wolf": list(range(269, 276)),
    # Zhu et al. 2019
    "aeroplane": [404, 895], "motorbike": [670, 665], "bus": [779, 874, 654],
    # Scialom2024
    "banana": [954], "beanie": [439, 452, 515, 808], "binoculars": [447], "boot": [514], "bowl": [659, 809],
    "cup": [968], "glasses": [837], "lamp": [470, 607, 818, 846], "pan": [567], "sewingmachine": [786],
    "shovel": [792],
    # Kato2026 (labels prefixed 'kato2026_' upstream, so that they do not clash with the lists above; the 49 lists
    # partition the 1000 classes: 'kato2026_others' is every class no category claims)
    "kato2026_corn": [987, 998],
    "kato2026_shoe": [630, 770, 774],
    "kato2026_bird": [*range(7, 25), *range(80, 101), *range(127, 147)],
    "kato2026_monkey": [*range(370, 383)],
    "kato2026_crocodilian": [49, 50],
    "kato2026_fish": [*range(0, 7), *range(389, 398)],
    "kato2026_acorn": [988],
    "kato2026_spider": [*range(72, 78)],
    "kato2026_hammer": [587],
    "kato2026_clock": [409, 530, 892],
    "kato2026_squirrel": [335],
    "kato2026_mug": [504, 968],
    "kato2026_snail": [113],
    "kato2026_turtle": [*range(33, 38)],
    "kato2026_lobster": [122, 123],
    "kato2026_elephant": [385, 386],
    "kato2026_bear": [*range(294, 298)],
    "kato2026_horse": [339],
    "kato2026_swine": [341, 342, 343],
    "kato2026_chair": [423, 559, 765, 857],
    "kato2026_snake": [*range(52, 69)],
    "kato2026_car": [407, 436, 468, 511, 609, 627, 656, 661, 751, 817],
    "kato2026_cat": [*range(281, 288)],
    "kato2026_frog": [30, 31, 32],
    "kato2026_cabbage": [936],
    "kato2026_banana": [954],
    "kato2026_helmet": [518, 560],
    "kato2026_mushroom": [947, *range(991, 998)],
    "kato2026_apple": [948],
    "kato2026_dryer": [589],
    "kato2026_strawberry": [949],
    "kato2026_lemon": [951],
    "kato2026_pineapple": [953],
    "kato2026_flower": [985, 986],
    "kato2026_tiger": [292],
    "kato2026_microwave": [651],
    "kato2026_dog": [*range(151, 269)],
    "kato2026_butterfly": [*range(321, 327)],
    "kato2026_gun": [413, 471, 763, 764],
    "kato2026_bellpepper": [945],
    "kato2026_rabbit": [330, 331, 332],
    "kato2026_hippopotamus": [344],
    "kato2026_bee": [309],
    "kato2026_airplane": [404],
    "kato2026_camel": [354],
    "kato2026_guitar": [402, 546],
    "kato2026_crab": [*range(118, 122)],
    "kato2026_broccoli": [937],
    "kato2026_others": [*range(25, 30), *range(38, 49), 51, 69, 70, 71, 78, 79, *range(101, 113), *range(114, 118), 124, 125, 126, *range(147, 151), *range(269, 281), *range(288, 292), 293, *range(298, 309), *range(310, 321), 327, 328, 329, 333, 334, 336, 337, 338, 340, *range(345, 354), *range(355, 370), 383, 384, 387, 388, *range(398, 402), 403, 405, 406, 408, 410, 411, 412, *range(414, 423), *range(424, 436), *range(437, 468), 469, 470, *range(472, 504), *range(505, 511), *range(512, 518), *range(519, 530), *range(531, 546), *range(547, 559), *range(561, 587), 588, *range(590, 609), *range(610, 627), 628, 629, *range(631, 651), *range(652, 656), *range(657, 661), *range(662, 751), *range(752, 763), *range(766, 770), 771, 772, 773, *range(775, 817), *range(818, 857), *range(858, 892), *range(893, 936), *range(938, 945), 946, 950, 952, *range(955, 968), *range(969, 985), 989, 990, 999],
}

#: ``ProbabilitiesClassifier``: C=1e-3, solver newton-cg, multinomial (l2, intercept, max_iter 100, tol 1e-4)
CLASSIFIER_C = 1e-3


def _presentation_first(array: xr.DataArray, what: str) -> xr.DataArray:
    """The array with presentation first (its values not read: a lazily opened file stays unread)."""
    if not isinstance(array, xr.DataArray) or "presentation" not in array.dims:
        raise ValueError(f"{what} must be a DataArray with a 'presentation' dimension")
    require_coords(array, ["stimulus_id"], what)
    return array.transpose("presentation", ...)


def _features(array: xr.DataArray, what: str) -> tuple[np.ndarray, xr.DataArray]:
    """(presentation × features) values and the array with presentation first."""
    array = _presentation_first(array, what)
    return array.values.reshape(array.sizes["presentation"], -1).astype(np.float64), array


def _presentation_coords(array: xr.DataArray) -> dict:
    return {name: ("presentation", np.asarray(c.values)) for name, c in array.coords.items()
            if c.dims == ("presentation",)}


def label_indices(label: str) -> list[int]:
    """ImageNet class indices of a label; multi-word labels lower-cased without spaces, as upstream."""
    key = label.lower().replace(" ", "")
    if key not in LABEL_TO_IMAGENET_INDICES:
        raise ValueError(f"label {label!r} has no ImageNet class mapping; known labels: "
                         f"{', '.join(sorted(LABEL_TO_IMAGENET_INDICES))}")
    return LABEL_TO_IMAGENET_INDICES[key]


def label_name(entry) -> str:
    """A choice label's name: the label itself, or the first item of a ``(label, imagenet_indices)`` pair."""
    return entry if isinstance(entry, str) else str(entry[0])


def _indices(entry) -> list[int]:
    """ImageNet class indices of a choice label: the table's for a name, the given ones for a ``(label,
    indices)`` pair (a user's own label set, e.g. ``('greeble', [400, 401])``)."""
    if isinstance(entry, str):
        return label_indices(entry)
    name, indices = entry
    indices = list(indices)
    if not indices or not all(isinstance(i, (int, np.integer)) and 0 <= i < 1000 for i in indices):
        raise ValueError(f"label {name!r}: expected a list of ImageNet class indices (0-999), got {indices!r}")
    return [int(i) for i in indices]


#: how a choice label pools the probabilities of its ImageNet classes (upstream ``LabelBehavior.start_task``'s
#: ``aggregation``: 'mean' by default; Kato2026 asks for 'max')
AGGREGATIONS = {"mean": np.mean, "max": np.max}


#: presentations the label task converts at a time: a block's float64 copy of its 1000 logits is 400 MB whatever the
#: stimulus set's size (ImageNet-C's 1,000,000 images: 4 GB of float32 logits, 8 GB more as one float64 copy)
LABEL_BLOCK = 50_000


def _blocks(n: int, block: int) -> list[tuple[int, int]]:
    """(start, stop) of consecutive blocks of ``block`` presentations covering ``n``, none of a lone presentation
    unless ``n`` is 1: numpy pools a lone row's probabilities (``probabilities[:, indices]``, then contiguous) in
    another order than a block's rows (laid out class by class), which can differ in the last bit and turn a tie
    (equal logits) the other way; with two rows or more every block sums in the order the whole array does."""
    if block < 2:
        raise ValueError(f"block must hold at least 2 presentations, got {block}")
    starts = list(range(0, n, block)) or [0]
    if len(starts) > 1 and n - starts[-1] == 1:  # a lone last row joins the block before it
        starts.pop()
    return list(zip(starts, starts[1:] + [n]))


def label(logits: xr.DataArray, choice_labels, aggregation: str = "mean", block: int = LABEL_BLOCK) -> xr.DataArray:
    """The ``label`` task: 1000 ImageNet logits per presentation → one label per presentation.

    ``choice_labels == 'imagenet'``: argmax → WordNet id (coords ``synset``, ``logit``). A list of labels: softmax
    over the 1000 logits, per label the **mean** (``aggregation='max'``: the largest) probability over its ImageNet
    indices, argmax (first label on ties); a list entry may be a ``(label, indices)`` pair giving a label's ImageNet indices itself. Upstream's softmax has no max subtraction; the stable form used here gives the same probabilities
    wherever upstream's does not overflow (logits above ~709). Output: dims ``('choice', 'presentation')``,
    shape (1, N), values = labels, the presentation coords plus ``label``.

    Every presentation's label depends on its own logits only, so they are computed ``block`` presentations at a
    time (:func:`_blocks`): the same labels for any block size (tests/behaviour/test_tasks_chunked.py), with memory
    bounded by one block. ``logits`` may be opened lazily from its file
    (:func:`brainpipe.behaviour.stages.task_inputs`): then only one block of it is ever in memory.
    """
    logits = _presentation_first(logits, "logits")
    width = int(np.prod([size for dim, size in logits.sizes.items() if dim != "presentation"]))
    if width != 1000:
        raise ValueError(f"{where(source_name(logits))}the label task needs 1000 ImageNet logits per stimulus, "
                         f"got {width} (dims {dict(logits.sizes)}); the model's logits layer must be a "
                         f"1000-class ImageNet head")
    coords = _presentation_coords(logits)
    if isinstance(choice_labels, str):
        if choice_labels != "imagenet":
            raise ValueError(f"choice_labels must be 'imagenet' or a list of labels, got {choice_labels!r}")
    else:
        choice_labels = list(choice_labels)
        if not choice_labels:
            raise ValueError("choice_labels is empty")
        index_lists = [_indices(entry) for entry in choice_labels]
        if aggregation not in AGGREGATIONS:
            raise ValueError(f"aggregation must be one of {sorted(AGGREGATIONS)}, got {aggregation!r}")
        pool = AGGREGATIONS[aggregation]
    picked = []  # per block: the ImageNet index (imagenet) or the choice label's position (a label list)
    for start, stop in _blocks(logits.sizes["presentation"], block):
        values = logits.isel(presentation=slice(start, stop)).values
        values = values.reshape(len(values), width).astype(np.float64)
        if isinstance(choice_labels, str):
            picked.append(values.argmax(axis=1))
            continue
        shifted = np.exp(values - values.max(axis=1, keepdims=True))
        probabilities = shifted / shifted.sum(axis=1, keepdims=True)
        aggregated = np.stack([pool(probabilities[:, idx], axis=1) for idx in index_lists], axis=1)
        picked.append(aggregated.argmax(axis=1))
    picked = np.concatenate(picked)
    if isinstance(choice_labels, str):
        choices = np.array([SYNSETS[i] for i in picked], dtype=object)
        coords["synset"] = ("presentation", choices)
        coords["logit"] = ("presentation", picked.astype(np.int64))
    else:
        choices = np.array([label_name(choice_labels[i]) for i in picked], dtype=object)
    coords["label"] = ("presentation", choices)
    return xr.DataArray(choices[None, :], dims=("choice", "presentation"), coords=coords)


def _first_appearance(labels) -> tuple[np.ndarray, list]:
    """Upstream ``labels_to_indices``: class indices by first appearance (fixes the ``choice`` order)."""
    order: dict = {}
    indices = np.array([order.setdefault(value, len(order)) for value in labels])
    return indices, list(order)


def _same_images(fitting: xr.DataArray, x_fit: np.ndarray, test: xr.DataArray, x_test: np.ndarray) -> tuple[int, int]:
    """(test stimuli that are also fitting stimuli, test stimuli). A shared ``stimulus_id`` alone does not make the
    same image: some families' training and test sets reuse ids (image numbers) for different images, so an image
    counts as shared only when its features are identical too."""
    fit_rows = {sid: row for row, sid in enumerate(as_text(coord(fitting, "stimulus_id")))}
    test_ids = as_text(coord(test, "stimulus_id"))
    shared = sum(1 for row, sid in enumerate(test_ids)
                 if sid in fit_rows and np.array_equal(x_test[row], x_fit[fit_rows[sid]]))
    return shared, len(test_ids)


def probabilities(fitting_features: xr.DataArray, test_features: xr.DataArray, labels=None,
                  c: float = CLASSIFIER_C) -> xr.DataArray:
    """The ``probabilities`` task: fit a readout on the fitting stimuli, predict class probabilities on the test.

    StandardScaler (ddof 0) on the fitting features, then l2 logistic regression, solver newton-cg, ``C=c``
    (1e-3), multinomial. Recent scikit-learn has no ``multi_class``: with ≥3 classes the fit is multinomial
    already; with 2 classes the multinomial optimum equals a binary fit with ``C = 2c`` (w₁ = −w₀, so the penalty
    ½(‖w₀‖² + ‖w₁‖²)/c = ½‖w₁ − w₀‖²/(2c)), which is what is fitted here. Labels come from ``labels`` or the
    fitting features' ``image_label`` coordinate; choice columns are in first-appearance order.

    Returns (presentation × choice) probabilities with the test presentation coords and ``choice``.
    """
    x_fit, fitting_features = _features(fitting_features, "fitting features")
    x_test, test_features = _features(test_features, "test features")
    if labels is None:
        if "image_label" not in fitting_features.coords:
            raise ValueError(f"{where(source_name(fitting_features))}the fitting stimuli lack coordinate "
                             f"'image_label' (the class each fitting image belongs to); add an image_label "
                             f"column to the fitting stimulus set")
        labels = coord(fitting_features, "image_label")
    labels = np.asarray(labels)
    if len(labels) != len(x_fit):
        raise ValueError(f"{len(labels)} labels for {len(x_fit)} fitting presentations")
    if x_fit.shape[1] != x_test.shape[1]:
        raise ValueError(f"fitting and test features differ in size: {x_fit.shape[1]} vs {x_test.shape[1]}")
    y, classes = _first_appearance(labels)
    if len(classes) < 2:
        raise ValueError(f"the fitting labels (coordinate 'image_label') have one class only: {classes}")
    shared, n_test = _same_images(fitting_features, x_fit, test_features, x_test)
    if shared == n_test:
        warnings.warn("probabilities: the fitting and test stimuli are the same images (same stimulus_id and "
                      "features); the readout is scored on the images it was fitted on (Brain-Score's "
                      "public i2n benchmark does this)", stacklevel=2)
    elif shared:
        warnings.warn(f"probabilities: {shared} of {n_test} test stimuli are also fitting stimuli (same stimulus_id "
                      f"and features)", stacklevel=2)
    # scikit-learn here, not at the top: every behavioural ceiling, fold and score job imports this module, only
    # the probabilities task fits (importing scikit-learn: ~1.5 s a job)
    import sklearn.linear_model
    import sklearn.preprocessing

    scaler = sklearn.preprocessing.StandardScaler().fit(x_fit)
    z_fit, z_test = scaler.transform(x_fit), scaler.transform(x_test)
    if z_fit.shape[1] > z_fit.shape[0]:
        # More features than fitting images (pixels: 196608 vs a few hundred): the loss depends on w only through
        # z_fit w and the l2 penalty is smallest in the row space of z_fit, so the optimum is w = V a with
        # z_fit = U S Vᵀ; fitting a on z_fit V (n columns) is the same problem, ‖w‖ = ‖a‖, orders of magnitude
        # cheaper. Same optimum up to the solver's tolerance (tests/test_behaviour_workflow.py compares).
        # V from the n × n Gram matrix (z_fit zᵀ_fit = U S² Uᵀ, V = zᵀ_fit U / S), much faster than an SVD of a
        # wide matrix; directions with S ≈ 0 carry no fitting data and are dropped.
        eigenvalues, u = np.linalg.eigh(z_fit @ z_fit.T)
        keep = eigenvalues > eigenvalues.max() * z_fit.shape[1] * np.finfo(float).eps
        u, s = u[:, keep], np.sqrt(eigenvalues[keep])
        z_fit, z_test = u * s, (z_test @ z_fit.T @ u) / s
    classifier = sklearn.linear_model.LogisticRegression(
        solver="newton-cg", C=c if len(classes) > 2 else 2 * c, max_iter=100, tol=1e-4)
    classifier.fit(z_fit, y)
    proba = classifier.predict_proba(z_test)  # columns: classes_ = 0..K-1 = first appearance
    coords = _presentation_coords(test_features)
    coords["choice"] = ("choice", np.array(classes, dtype=object))
    return xr.DataArray(proba, dims=("presentation", "choice"), coords=coords)


def odd_one_out(features: xr.DataArray, triplets, similarity: str = "dot") -> xr.DataArray:
    """The ``odd_one_out`` task: for each triplet (i, j, k), similarities [s(i,j), s(i,k), s(j,k)]; the most
    similar pair's outsider is the choice: ``triplet[2 − argmax]``.

    Tie rule (upstream's): ``argmax`` takes the first maximum, so ties go to s(i,j) → k (then s(i,k) → j); a
    model with identical features everywhere answers k = ``image_3`` always (100 % where the data
    store the human odd one out as ``image_3``, as Brain-Score's do). With
    ``'cosine'``, an all-zero feature vector gives NaN similarities and numpy's argmax returns the first NaN.

    ``triplets``: (n, 3) ids or a flat sequence of 3n ids (Brain-Score's layout). Output: dims
    ``('choice', 'presentation')``, shape (1, n), values = chosen stimulus ids, coords ``stimulus_id`` =
    ``"i|j|k"`` and ``image_1``..``image_3``.
    """
    if similarity not in ("dot", "cosine"):
        raise ValueError(f"Unknown similarity_measure {similarity!r} -- expected one of 'dot' or 'cosine'")
    values, features = _features(features, "features")
    ids = as_text(coord(features, "stimulus_id"))
    flat = as_text(triplets)
    if flat.size % 3:
        raise ValueError(f"triplets must hold 3 stimulus ids each; got {flat.size} ids")
    unique, first = np.unique(ids, return_index=True)  # duplicated stimuli: the first row's features
    row = dict(zip(unique, first))
    unknown = sorted(set(flat) - set(row))
    if unknown:
        raise ValueError(f"{where(source_name(features))}{len(unknown)} triplet stimuli have no features "
                         f"(coordinate 'stimulus_id'), e.g. {unknown[:5]}")
    triplets = flat.reshape(-1, 3)
    # One similarity matrix over the stimuli the triplets use, as upstream (``np.dot(values, values.T)``), then
    # looked up per triplet: 453,642 triplets × 3 × 4096 features would be 45 GB as per-triplet vectors.
    used = np.unique(flat)
    vectors = values[[row[i] for i in used]]
    matrix = vectors @ vectors.T
    if similarity == "cosine":  # upstream: dot / (‖x‖ ‖y‖), computed in that order
        norms = np.linalg.norm(vectors, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            matrix = matrix / np.outer(norms, norms)
    i, j, k = (np.searchsorted(used, triplets[:, c]) for c in range(3))
    sims = np.stack([matrix[i, j], matrix[i, k], matrix[j, k]], axis=1)
    picks = triplets[np.arange(len(triplets)), 2 - np.argmax(sims, axis=1)]
    coords = {"stimulus_id": ("presentation", np.array(["|".join(t) for t in triplets], dtype=object))}
    for k in range(3):
        coords[f"image_{k + 1}"] = ("presentation", triplets[:, k].astype(object))
    return xr.DataArray(picks.astype(object)[None, :], dims=("choice", "presentation"), coords=coords)
