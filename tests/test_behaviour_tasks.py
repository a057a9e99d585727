"""BrainModel tasks: label, probabilities, odd_one_out — against scipy/sklearn and hand cases."""

import warnings

import numpy as np
import pytest
import scipy.optimize
import scipy.special
import xarray as xr
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from brainpipe.behaviour import tasks
from brainpipe.behaviour._synsets import SYNSETS
from brainpipe.benchmarks.families.geirhos2021 import GEIRHOS2021_LABELS
from brainpipe.io import read_netcdf, write_netcdf


def _array(values, ids, **coords):
    values = np.asarray(values, dtype=float)
    return xr.DataArray(values, dims=("presentation", "neuroid"),
                        coords={"stimulus_id": ("presentation", np.asarray(ids, dtype=object)),
                                **{k: ("presentation", np.asarray(v, dtype=object)) for k, v in coords.items()}})


# -------------------------------------------------------------------------------------------------- label


def test_label_imagenet_synsets(tmp_path):
    logits = np.zeros((3, 1000))
    logits[0, 0], logits[1, 999], logits[2, 404] = 5, 5, 5
    out = tasks.label(_array(logits, ["a", "b", "c"], condition=["x", "y", "x"]), "imagenet")
    assert out.dims == ("choice", "presentation") and out.shape == (1, 3)
    assert list(out.values[0]) == ["n01440764", SYNSETS[999], SYNSETS[404]]
    assert list(out["logit"].values) == [0, 999, 404] and list(out["label"].values) == list(out.values[0])
    assert list(out["condition"].values) == ["x", "y", "x"]
    write_netcdf(out, tmp_path / "labels.nc")
    assert list(read_netcdf(tmp_path / "labels.nc").values[0]) == list(out.values[0])


def test_label_geirhos_mean_probability_per_label():
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(4, 1000))
    logits[0, 404] = 6  # airplane has one index: its mean is its probability
    logits[1, tasks.LABEL_TO_IMAGENET_INDICES["dog"]] = 4  # all dog indices high: dog's mean wins
    logits[2, 152] = 7  # one dog index very high: averaged over 117 dog indices, it may lose
    logits[3, 766] = 8  # oven
    out = tasks.label(_array(logits, ["a", "b", "c", "d"]), list(GEIRHOS2021_LABELS))
    p = scipy.special.softmax(logits, axis=1)
    expected = [GEIRHOS2021_LABELS[k] for k in np.argmax(
        np.stack([p[:, tasks.label_indices(name)].mean(axis=1) for name in GEIRHOS2021_LABELS], axis=1), axis=1)]
    assert list(out.values[0]) == expected
    assert expected[0] == "airplane" and expected[1] == "dog" and expected[3] == "oven"


def test_label_geirhos_indices_from_facts():
    indices = tasks.LABEL_TO_IMAGENET_INDICES
    assert len(indices["dog"]) == 109 and indices["dog"][:2] == [152, 153] and 192 not in indices["dog"]
    assert indices["bear"] == [294, 295, 296, 297] and len(indices["bird"]) == 49
    assert tasks.label_indices("Sewing Machine") == [786]


def test_label_bad_input():
    with pytest.raises(ValueError, match="needs 1000 ImageNet logits per stimulus, got 512"):
        tasks.label(_array(np.zeros((2, 512)), ["a", "b"]), "imagenet")
    with pytest.raises(ValueError, match="label 'zebra' has no ImageNet class mapping"):
        tasks.label(_array(np.zeros((2, 1000)), ["a", "b"]), ["dog", "zebra"])


# ------------------------------------------------------------------------------------------ probabilities


def _classes(seed=0, n_per=12, k=3, d=6):
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=2, size=(k, d))
    labels = np.repeat([f"c{j}" for j in range(k)], n_per)
    order = rng.permutation(len(labels))
    labels = labels[order]
    x = centres[[int(label[1:]) for label in labels]] + rng.normal(size=(len(labels), d))
    return x * rng.uniform(0.5, 20, size=d), labels  # unequal feature scales: the scaler matters


def test_probabilities_matches_sklearn_and_first_appearance_order():
    x, labels = _classes()
    fit = _array(x, [f"f{i}" for i in range(len(x))], image_label=labels)
    x_test, _ = _classes(seed=1)
    test = _array(x_test, [f"t{i}" for i in range(len(x_test))])
    out = tasks.probabilities(fit, test)
    assert out.dims == ("presentation", "choice")
    first_appearance = list(dict.fromkeys(labels))
    assert list(out["choice"].values) == first_appearance
    scaler = StandardScaler().fit(x)
    reference = LogisticRegression(solver="newton-cg", C=1e-3).fit(scaler.transform(x), labels)
    expected = reference.predict_proba(scaler.transform(x_test))  # columns in sorted label order
    columns = [list(reference.classes_).index(c) for c in first_appearance]
    np.testing.assert_allclose(out.values, expected[:, columns], atol=1e-6)
    assert list(out["stimulus_id"].values) == [f"t{i}" for i in range(len(x_test))]


def _multinomial_reference(x, y, c):
    """Multinomial l2 logistic regression by direct minimisation (sklearn's objective: C·Σ CE + ½‖W‖²)."""
    k, d = y.max() + 1, x.shape[1]

    def loss(theta):
        w, b = theta[:k * d].reshape(k, d), theta[k * d:]
        z = x @ w.T + b
        return c * -(scipy.special.log_softmax(z, axis=1)[np.arange(len(y)), y]).sum() + 0.5 * (w ** 2).sum()

    theta = scipy.optimize.minimize(loss, np.zeros(k * d + k), method="BFGS", options={"gtol": 1e-10}).x
    w, b = theta[:k * d].reshape(k, d), theta[k * d:]
    return lambda z: scipy.special.softmax(z @ w.T + b, axis=1)


def test_probabilities_two_classes_equal_multinomial():
    x, labels = _classes(k=2, d=3, n_per=15)
    labels = np.where(labels == "c0", "oddball", "same")
    fit = _array(x, [f"f{i}" for i in range(len(x))], image_label=labels)
    out = tasks.probabilities(fit, fit.assign_coords(stimulus_id=("presentation", [f"t{i}" for i in range(len(x))])),
                              c=0.05)
    y, classes = tasks._first_appearance(labels)
    scaled = StandardScaler().fit_transform(x)
    reference = _multinomial_reference(scaled, y, 0.05)(scaled)
    # the equivalence itself, solved tightly: binary fit with C = 2c equals the 2-class multinomial fit
    binary = LogisticRegression(solver="newton-cg", C=0.1, tol=1e-12, max_iter=1000).fit(scaled, y)
    np.testing.assert_allclose(binary.predict_proba(scaled), reference, atol=1e-7)
    # the task (Brain-Score's tol 1e-4) agrees to within the solver tolerance
    np.testing.assert_allclose(out.values, reference, atol=5e-4)
    assert list(out["choice"].values) == classes


def test_probabilities_warns_on_same_set_and_bad_input():
    x, labels = _classes()
    fit = _array(x, [f"f{i}" for i in range(len(x))], image_label=labels)
    with pytest.warns(UserWarning, match="fitting and test stimuli are the same images"):
        tasks.probabilities(fit, fit)
    with pytest.raises(ValueError, match="lack coordinate 'image_label'"):
        tasks.probabilities(fit.drop_vars("image_label"), fit)
    with pytest.raises(ValueError, match="one class only"):
        tasks.probabilities(fit.assign_coords(image_label=("presentation", ["a"] * len(x))), fit)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tasks.probabilities(fit, fit.assign_coords(stimulus_id=("presentation", [f"t{i}" for i in range(len(x))])))
        # the same ids for different images (Ferguson2024's training and test sets reuse image numbers): no warning
        tasks.probabilities(fit, fit.copy(data=fit.values + 1.0))
    with pytest.warns(UserWarning, match="2 of 3 test stimuli are also fitting stimuli"):
        test = fit.isel(presentation=[0, 1, 2]).copy(deep=True)
        test.values[2] += 1.0  # same id as a fitting image, different image
        tasks.probabilities(fit, test)


# -------------------------------------------------------------------------------------------- odd one out


def test_odd_one_out_hand_case_and_layouts():
    features = _array([[1, 0], [0.9, 0.1], [0, 1], [0, 2], [1, 1]], ["a", "b", "c", "d", "e"])
    out = tasks.odd_one_out(features, [["a", "b", "c"], ["c", "d", "a"], ["a", "e", "d"]])
    # (a,b,c): s(a,b)=.9 biggest → c; (c,d,a): s(c,d)=2 → a; (a,e,d): s(a,e)=1, s(a,d)=0, s(e,d)=2 → a
    assert list(out.values[0]) == ["c", "a", "a"]
    assert list(out["stimulus_id"].values) == ["a|b|c", "c|d|a", "a|e|d"]
    flat = tasks.odd_one_out(features, ["a", "b", "c", "c", "d", "a", "a", "e", "d"])
    assert list(flat.values[0]) == ["c", "a", "a"]
    cosine = tasks.odd_one_out(features, [["a", "e", "d"]], similarity="cosine")
    # cos(a,e) = 1/√2 (first), cos(a,d) = 0, cos(e,d) = 1/√2 (third): whether the two tie depends on rounding
    # in dot / (‖x‖‖y‖); the answer follows upstream's formula and first-maximum rule
    norms = np.linalg.norm(features.values, axis=1)
    sims = [1 / (norms[0] * norms[4]), 0.0, 2 / (norms[4] * norms[3])]
    assert cosine.values[0, 0] == ["a", "e", "d"][2 - int(np.argmax(sims))]


def test_odd_one_out_tie_rule():
    same = _array(np.ones((3, 4)), [0, 1, 2])
    out = tasks.odd_one_out(same, [[0, 1, 2], [2, 1, 0]])
    assert list(out.values[0]) == ["2", "0"]  # all similarities tie → first (s(i,j)) → the third image
    tie_ik_jk = _array([[1, 0], [0, 1], [1, 1]], ["i", "j", "k"])  # s(i,j)=0, s(i,k)=1, s(j,k)=1 → first → j
    assert tasks.odd_one_out(tie_ik_jk, [["i", "j", "k"]]).values[0, 0] == "j"
    zero = _array([[0, 0], [1, 0], [0, 1]], ["z", "x", "y"])  # cosine with a zero vector: NaN → first NaN → k
    assert tasks.odd_one_out(zero, [["z", "x", "y"]], similarity="cosine").values[0, 0] == "y"


def test_odd_one_out_bad_input():
    features = _array(np.eye(3), ["a", "b", "c"])
    features.attrs["source"] = "activations/alexnet/Hebart2023.nc"
    with pytest.raises(ValueError, match=r"Hebart2023.nc: 1 triplet stimuli have no features .*\['zz'\]"):
        tasks.odd_one_out(features, [["a", "b", "zz"]])
    with pytest.raises(ValueError, match="3 stimulus ids each"):
        tasks.odd_one_out(features, ["a", "b"])
    with pytest.raises(ValueError, match="Unknown similarity_measure"):
        tasks.odd_one_out(features, [["a", "b", "c"]], similarity="euclid")
