"""Behavioural metrics against Brain-Score's own small cases, hand computations and independent implementations."""

import itertools
import math
from collections import Counter

import numpy as np
import pytest
import scipy.stats
import xarray as xr
from numpy.random import RandomState
from sklearn.metrics import cohen_kappa_score

from brainpipe import benchmarks
from brainpipe.behaviour import metrics as m
from brainpipe.behaviour.i1i2 import correlate, dprimes, model_matrix, response_matrix
from brainpipe.benchmarks.families import ferguson2024, hebart2023


def _brainscore_case():
    """brain-score/vision metrics/error_consistency/test.py and accuracy_distance/test.py ``_make_data``."""
    choices = ['dog', 'cat', 'chair', 'cat', 'dog', 'dog', 'dog', 'dog', 'chair',
               'cat', 'cat', 'chair', 'cat', 'dog', 'cat', 'chair', 'cat', 'cat',
               'dog', 'cat', 'chair', 'dog', 'cat', 'chair', 'dog', 'cat', 'chair']
    coords = {'stimulus_id': ('presentation', np.resize(np.arange(9), 27)),
              'truth': ('presentation', np.resize(['dog', 'cat', 'chair'], 27)),
              'condition': ('presentation', np.resize([1, 1, 1, 2, 2, 2, 3, 3, 3], 27)),
              'animacy': ('presentation', np.resize(['animate', 'animate', 'inanimate'], 27)),
              'subject': ('presentation', ['A'] * 9 + ['B'] * 9 + ['C'] * 9)}
    return xr.DataArray(choices, coords=coords, dims=['presentation'])


def _subject(assembly, name):
    return assembly.isel(presentation=np.flatnonzero(assembly['subject'].values == name))


# ------------------------------------------------------------------------------------------------- accuracy


def test_accuracy_brainscore_fifty_percent():
    result = m.accuracy(np.array([5, 3, 6, 7, 1, 8]), np.array([5, 2, 1, 7, 1, 9]))
    assert result.score == 0.5
    assert result.error == pytest.approx(0.5)  # np.std of [1,0,0,1,1,0], ddof 0


def test_accuracy_of_label_output_and_mismatch():
    labels = xr.DataArray([["a", "b", "c"]], dims=("choice", "presentation"))
    assert m.accuracy(labels, ["a", "b", "x"]).score == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="3 choices but 2 targets"):
        m.accuracy(labels, ["a", "b"])


def test_accuracy_distance_brainscore_values():
    data = _brainscore_case()
    assert m.accuracy_distance(_subject(data, 'A'), data).score == pytest.approx(0.74074074)
    assert m.accuracy_distance(_subject(data, 'C'), data, ('condition',)).score == pytest.approx(0.55555556)
    assert m.accuracy_distance(_subject(data, 'C'), data, ('condition', 'animacy')).score == \
        pytest.approx(0.55555556)
    result = m.accuracy_distance(_subject(data, 'A'), data)
    assert result.values.sel(subject='A') == 1.0
    # by hand: A 5/9, B 3/9 (upstream's comment says 4/9; the data give 3/9), C 9/9
    # → vs B 1 − (2/9)/(6/9) = 2/3, vs C 1 − (4/9)/1 = 5/9; mean .7407 as upstream's test
    assert result.values.values == pytest.approx([1, 2 / 3, 5 / 9])
    assert result.error == pytest.approx(np.std([1, 2 / 3, 5 / 9]))


def test_accuracy_distance_ceiling_pairs():
    data = _brainscore_case()
    ceiling = m.accuracy_distance_ceiling(data)
    # pairs (A,B), (A,C), (B,C): target = right subject; accs 5/9, 3/9, 1
    expected = [1 - (2 / 9) / (6 / 9), 1 - (4 / 9) / 1, 1 - (6 / 9) / 1]
    assert ceiling.values.values == pytest.approx(expected)
    assert ceiling.score == pytest.approx(np.mean(expected))


# -------------------------------------------------------------------------------------- error consistency


def test_error_consistency_brainscore_values():
    data = _brainscore_case()
    result = m.error_consistency(_subject(data, 'A'), data)
    assert result.score == pytest.approx(0.2)
    assert result.values.sel(subject='A').mean('condition') == 1
    assert np.isfinite(result.error)


def _kappa_reference(model, human, truth):
    """sklearn's Cohen's κ on trial-wise correctness (= Geirhos' error consistency)."""
    return cohen_kappa_score(np.asarray(model) == truth, np.asarray(human) == truth)


def test_error_consistency_matches_sklearn_kappa():
    rng = np.random.default_rng(3)
    labels = np.array(["a", "b", "c", "d"])
    n_images, subjects, conditions = 40, ["s1", "s2", "s3"], ["high", "low"]  # sorted
    truth = labels[rng.integers(0, 4, n_images)]
    condition = np.array(conditions)[np.arange(n_images) % 2]
    ids = np.array([f"img{i:03d}" for i in range(n_images)])
    rows = []
    for subject in subjects:
        answers = np.where(rng.random(n_images) < 0.6, truth, labels[rng.integers(0, 4, n_images)])
        order = rng.permutation(n_images)  # trial order differs per subject
        rows += [(ids[i], truth[i], condition[i], subject, answers[i]) for i in order]
    ids_, truth_, condition_, subject_, answers_ = map(np.array, zip(*rows))
    human = xr.DataArray(answers_, dims="presentation",
                         coords={"stimulus_id": ("presentation", ids_), "truth": ("presentation", truth_),
                                 "condition": ("presentation", condition_), "subject": ("presentation", subject_)})
    model_answers = np.where(rng.random(n_images) < 0.5, truth, labels[rng.integers(0, 4, n_images)])
    model = xr.DataArray(model_answers[None, ::-1], dims=("choice", "presentation"),  # reversed order, no truth
                         coords={"stimulus_id": ("presentation", ids[::-1])})
    result = m.error_consistency(model, human)
    expected = np.zeros((3, 2))
    for s, subject in enumerate(subjects):
        for c, cond in enumerate(conditions):
            keep = condition == cond
            sub = {i: a for i, a, sj in zip(ids_, answers_, subject_) if sj == subject}
            expected[s, c] = _kappa_reference(model_answers[keep], [sub[i] for i in ids[keep]], truth[keep])
    assert result.values.values == pytest.approx(expected)
    assert result.score == pytest.approx(abs(expected.mean()))
    assert result.error == pytest.approx(expected.std())
    ceiling = m.error_consistency_ceiling(human)
    assert ceiling.values.sizes == {"subject": 3, "condition": 2}
    assert list(ceiling.values["subject_left"].values) == ["s1", "s1", "s2"]


def test_cohens_kappa_degenerate():
    assert math.isnan(m.cohens_kappa(1.0, 1.0))
    assert m.cohens_kappa(0.5, 0.75) == pytest.approx(0.5)


def test_error_consistency_subject_missing_condition():
    data = _brainscore_case()
    keep = ~((data['subject'].values == 'B') & (data['condition'].values == 2))
    data = data.isel(presentation=np.flatnonzero(keep))
    with pytest.raises(ValueError, match=r"subject 'B' has no trials in condition 2 .*'subject', 'condition'"):
        m.error_consistency(_subject(data, 'A'), data)
    with pytest.raises(ValueError, match=r"subject 'B' has no trials in condition 2"):
        m.error_consistency_ceiling(data)


def test_error_consistency_nan_in_human_data():
    data = _brainscore_case().astype(object)
    data.values[4] = np.nan
    data.attrs["source"] = "assy_brendel_Geirhos2021_colour.nc"
    with pytest.raises(ValueError, match=r"assy_brendel_Geirhos2021_colour.nc: human data has 1 missing"):
        m.error_consistency_ceiling(data)
    data = _brainscore_case().assign_coords(condition=("presentation", np.resize([1.0, np.nan, 3.0], 27)))
    with pytest.raises(ValueError, match=r"missing \(NaN\) value\(s\) in coordinate 'condition'"):
        m.error_consistency_ceiling(data)


# --------------------------------------------------------------------------------------------- value delta


@pytest.mark.parametrize("a, b, expected", [(1.25, 1.25, 1.0), (1.5, 1.0, 0.6065), (1.0, 1.5, 0.6065),
                                            (1.0, -1.0, 0.1353), (-1.0, 1.0, 0.1353), (-5.0, 5.0, 0.0)])
def test_value_delta_brainscore_values(a, b, expected):
    result = m.value_delta(a, b)
    assert result.score == pytest.approx(expected, abs=0.0005)
    assert math.isnan(result.error)


def test_value_delta_ferguson_scale():
    assert m.value_delta(0.3, 1.3, scale=ferguson2024.SCALE).score == pytest.approx(math.exp(-0.75))


def _ferguson_trials(accuracies, participants=("p1", "p2"), per_cell=4):
    """Trials whose per (block, level) accuracy is exactly ``accuracies[block][level]`` for every participant."""
    rows = []
    for block, levels in accuracies.items():
        for level, acc in levels.items():
            for p in participants:
                correct = [1] * int(round(acc * per_cell)) + [0] * (per_cell - int(round(acc * per_cell)))
                rows += [(block, level, p, c) for c in correct]
    block, level, participant, correct = map(np.array, zip(*rows))
    return xr.DataArray(correct, dims="presentation", coords={
        "block": ("presentation", block), "distractor_nums": ("presentation", level),
        "participant_id": ("presentation", participant), "correct": ("presentation", correct),
        "trial_type": ("presentation", np.array(["normal"] * len(rows)))})


def test_ferguson_integral_by_hand():
    first = {"1.0": 1.0, "5.0": 0.75, "11.0": 0.5}
    second = {"1.0": 0.75, "5.0": 0.75, "11.0": 1.0}
    trials = _ferguson_trials({"first": first, "second": second})
    lapse = 0.1
    corrected = {b: {k: (v - lapse / 2) / (1 - lapse) for k, v in d.items()} for b, d in
                 (("first", first), ("second", second))}
    d1, d5, d11 = (corrected["second"][k] - corrected["first"][k] for k in ("1.0", "5.0", "11.0"))
    # trapezoids over [1, 5] and [5, 11], rounded to 4 decimals as upstream's round on a sympy Float rounds
    import sympy

    expected = float(round(sympy.Float(2 * (d1 + d5) + 3 * (d5 + d11)), 4))
    assert m.integral(trials, lapse) == pytest.approx(expected, abs=1e-12)
    # trials that are not 'normal' are ignored
    extra = trials.isel(presentation=[0]).assign_coords(trial_type=("presentation", ["warmup"]),
                                                          correct=("presentation", [0]))
    assert m.integral(xr.concat([trials, extra], "presentation"), lapse) == pytest.approx(expected, abs=1e-12)


def test_ferguson_integral_rejects_float_levels():
    trials = _ferguson_trials({"first": {"1.0": 1.0}, "second": {"1.0": 1.0}})
    trials = trials.assign_coords(distractor_nums=("presentation", np.ones(trials.sizes["presentation"], dtype=int)))
    with pytest.raises(ValueError, match=r"coordinate 'distractor_nums' has values \['1'\]"):
        m.integral(trials, 0.05)


def test_value_delta_ceiling_split_half_identical_halves():
    # every participant identical in every cell, 4 trials per cell: halves differ only by sampling
    trials = _ferguson_trials({"first": {"1.0": 1, "5.0": 1, "11.0": 1}, "second": {"1.0": 1, "5.0": 1, "11.0": 1}})
    ceiling = m.value_delta_ceiling(trials, 0.05, loops=5)
    assert ceiling.score == pytest.approx(1.0) and ceiling.error == pytest.approx(0.0)


def test_a_computed_value_delta_ceiling_takes_the_benchmarks_lapse_rate_and_scale():
    from dataclasses import replace

    from brainpipe.behaviour import stages
    declared = benchmarks.parse("Ferguson2024tilted_line-value_delta")
    options = dict(declared.behaviour.options)

    def with_ceiling_computed(options):
        behaviour = replace(declared.behaviour, ceiling="computed", options=tuple(options.items()))
        return replace(declared, family=replace(declared.family, behaviours=(behaviour,)))

    half = {"1.0": 0.5, "5.0": 0.75, "11.0": 0.25}
    trials = _ferguson_trials({"first": half, "second": {"1.0": 1.0, "5.0": 0.5, "11.0": 0.75}},
                              participants=("p1", "p2", "p3"), per_cell=8)
    computed = stages.ceiling(with_ceiling_computed(options), trials)
    expected = m.value_delta_ceiling(trials, options["lapse_rate"], scale=options["scale"])
    assert np.isfinite(computed.score) and (computed.score, computed.error) == (expected.score, expected.error)
    assert computed.score != m.value_delta_ceiling(trials, options["lapse_rate"], scale=1.0).score
    del options["lapse_rate"]
    with pytest.raises(ValueError, match="needs the benchmark option 'lapse_rate'"):
        stages.ceiling(with_ceiling_computed(options), trials)


# ---------------------------------------------------------------------------------------------- odd one out


def test_odd_one_out_match_and_normalisation():
    target = xr.DataArray([2, 5, 8, 11], dims="presentation",
                          coords={"image_1": ("presentation", [0, 3, 6, 9]), "image_2": ("presentation", [1, 4, 7, 10]),
                                  "image_3": ("presentation", [2, 5, 8, 11])})
    choices = xr.DataArray([["2", "3", "8", "9"]], dims=("choice", "presentation"),
                           coords={"stimulus_id": ("presentation", ["0|1|2", "3|4|5", "6|7|8", "9|10|11"])})
    raw = m.odd_one_out_match(choices, target)
    assert raw.score == 0.5
    ceiled = m.normalise(raw, hebart2023.CEILING, "chance_corrected", clip=True)
    assert ceiled.score == pytest.approx((0.5 - 1 / 3) / (0.6767 - 1 / 3))
    assert m.normalise(0.2, hebart2023.CEILING, "chance_corrected", clip=True).score == 0.0
    assert m.normalise(0.9, hebart2023.CEILING, "chance_corrected", clip=True).score == 1.0
    shuffled = choices.assign_coords(stimulus_id=("presentation", ["3|4|5", "0|1|2", "6|7|8", "9|10|11"]))
    with pytest.raises(ValueError, match="triplet order"):
        m.odd_one_out_match(shuffled, target)
    with pytest.raises(ValueError, match="'odd_one_out_match' has no ceiling computed from the human data"):
        m.ceiling("odd_one_out_match", target)


# -------------------------------------------------------------------------------------------- normalisation


def test_normalise_kinds_and_clipping():
    assert m.normalise(0.2, 0.4, "raw_over_ceiling", clip=True).score == pytest.approx(0.5)
    assert m.normalise(0.5, 0.4, "raw_over_ceiling", clip=True).score == 1.0
    assert m.normalise(0.5, 0.4, "raw_over_ceiling", clip=False).score == pytest.approx(1.25)  # Kar2019: no clip
    assert m.normalise(-0.1, 0.4, "raw_over_ceiling", clip=False).score == pytest.approx(-0.25)
    assert m.normalise(0.6, 0.8, "raw2_over_ceiling", clip=False).score == pytest.approx(0.45)
    raw = m.Result(0.3, 0.01, xr.DataArray([0.25, 0.35], dims="split", coords={"split": [0, 1]}))
    ceiling = m.Result(0.5, 0.02, xr.DataArray([0.49, 0.64], dims="split", coords={"split": [0, 1]}))
    ceiled = m.normalise(raw, ceiling, "raw_over_sqrt_ceiling_per_split", clip=False)
    per = [0.25 / 0.7, 0.35 / 0.8]
    assert ceiled.score == pytest.approx(np.mean(per)) and ceiled.error == pytest.approx(np.std(per))
    assert ceiled.attrs["raw"] is raw
    # Rajalingham2018 alexnet: raw .253 / sqrt(.479) ≈ .3656 (facts §3)
    assert 0.253 / math.sqrt(0.479) == pytest.approx(0.3656, abs=5e-4)
    with pytest.raises(ValueError, match="unknown normalisation"):
        m.normalise(0.1, 0.2, "raw_over_something", clip=False)
    with pytest.raises(ValueError, match="per-split"):
        m.normalise(0.1, 0.2, "raw_over_sqrt_ceiling_per_split", clip=False)
    # as the family modules declare them (upstream: Geirhos2021 bound_score, Rajalingham2018 per split, no clip)
    declared = {identifier: (b.behaviour.normalisation, b.behaviour.clip) for identifier, b in
                ((i, benchmarks.parse(i)) for i in ("Geirhos2021colour-error_consistency", "Geirhos2021colour-top1",
                                                   "Rajalingham2018-i2n", "Rajalingham2018public-i2n"))}
    assert declared == {"Geirhos2021colour-error_consistency": ("raw_over_ceiling", True),
                        "Geirhos2021colour-top1": ("raw_over_ceiling", False),
                        "Rajalingham2018-i2n": ("raw_over_sqrt_ceiling_per_split", False),
                        "Rajalingham2018public-i2n": ("raw_over_sqrt_ceiling_per_split", False)}


# ---------------------------------------------------------------------------------------------------- I1/I2n


def _objectome_like(n_objects=4, images_per_object=6, trials_per_pair=6, seed=0, nan=False):
    """Pooled human 2AFC trials in Rajalingham2018's layout: value = chosen object."""
    rng = np.random.default_rng(seed)
    objects = [f"obj{k}" for k in range(n_objects)]
    rows = []
    for o, obj in enumerate(objects):
        for i in range(images_per_object):
            image = f"{obj}_img{i}"
            difficulty = rng.uniform(0.5, 2.5)
            for d, distractor in enumerate(objects):
                if d == o:
                    continue
                for _ in range(trials_per_pair):
                    p_correct = scipy.stats.norm.cdf(difficulty - 0.3 * abs(o - d))
                    answer = obj if rng.random() < p_correct else distractor
                    rows.append((image, obj, distractor, answer))
    order = rng.permutation(len(rows))
    image, sample, dist, answer = (np.array(col, dtype=object)[order] for col in zip(*rows))
    if nan:
        answer[3] = np.nan
    return xr.DataArray(answer, dims="presentation", coords={
        "stimulus_id": ("presentation", image), "image_id": ("presentation", image),
        "truth": ("presentation", sample), "sample_obj": ("presentation", sample),
        "dist_obj": ("presentation", dist), "choice": ("presentation", answer)}), objects


def _model_probabilities(human, objects, seed=1):
    rng = np.random.default_rng(seed)
    ids = np.unique(human["stimulus_id"].values)
    truth = dict(zip(human["stimulus_id"].values, human["truth"].values))
    logits = rng.normal(size=(len(ids), len(objects)))
    logits[np.arange(len(ids)), [objects.index(truth[i]) for i in ids]] += 1.5
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return xr.DataArray(p, dims=("presentation", "choice"),
                        coords={"stimulus_id": ("presentation", ids), "choice": objects})


def _reference_i2n_single(probabilities, human_half, collapse=False, normalize=True):
    """Line-by-line re-implementation of upstream's loops (Counter, dict lookups) for one split."""
    def dprime(rows, truths, choices, matrix):
        index = {}
        for (image, truth), row in zip(zip(rows, truths), matrix):
            for choice, value in zip(choices, row):
                index.setdefault((truth, choice), []).append(value)
        out = np.full(matrix.shape, np.nan)
        for i, truth in enumerate(truths):
            for k, choice in enumerate(choices):
                far = np.nanmean(index[(choice, truth)])
                out[i, k] = scipy.stats.norm.ppf(1 - matrix[i, k]) - scipy.stats.norm.ppf(far)
        out = out.clip(-5, 5)
        if normalize:
            for (truth, choice) in {(t, c) for t in truths for c in choices}:
                r = [i for i, t in enumerate(truths) if t == truth]
                k = list(choices).index(choice)
                out[r, k] -= np.nanmean(out[r, k])
        return out

    # model side
    truth_of = dict(zip(human_half["stimulus_id"].values, human_half["truth"].values))
    src_ids = list(probabilities["stimulus_id"].values)
    src_choices = list(probabilities["choice"].values)
    src_truths = [truth_of[i] for i in src_ids]
    src = np.full(probabilities.shape, np.nan)
    for i, (image, truth) in enumerate(zip(src_ids, src_truths)):
        for k, choice in enumerate(src_choices):
            if truth != choice:
                pc, pt = probabilities.values[i, k], probabilities.values[i, src_choices.index(truth)]
                src[i, k] = pc / (pc + pt)
    src = dprime(src_ids, src_truths, src_choices, src)
    # human side
    num_choices = Counter(zip(human_half["stimulus_id"].values, human_half.values))
    num_objects = Counter(itertools.chain(*[[(i, s), (i, d)] for i, s, d in zip(
        human_half["stimulus_id"].values, human_half["sample_obj"].values, human_half["dist_obj"].values)]))
    choices = sorted(set(human_half.values))
    ids = sorted(set(human_half["stimulus_id"].values))
    truths = [truth_of[i] for i in ids]
    tgt = np.full((len(ids), len(choices)), np.nan)
    for i, image in enumerate(ids):
        for k, choice in enumerate(choices):
            if truths[i] != choice and num_objects[(image, choice)] > 0:
                tgt[i, k] = num_choices[(image, choice)] / num_objects[(image, choice)]
    tgt = dprime(ids, truths, choices, tgt)
    order = np.argsort(src_ids)
    src = src[order][:, np.argsort(src_choices)]
    if collapse:
        src, tgt = np.nanmean(src, axis=1), np.nanmean(tgt, axis=1)
    s, t = src.ravel(), tgt.ravel()
    keep = ~np.isnan(t)
    return scipy.stats.pearsonr(s[keep], t[keep])[0]


@pytest.mark.filterwarnings("ignore:Mean of empty slice")  # the reference, like upstream, warns
def test_i2n_matches_line_by_line_reference():
    human, objects = _objectome_like()
    model = _model_probabilities(human, objects)
    result = m.i2n(model, human)
    random_state = RandomState(0)
    expected = []
    for _ in range(2):
        indices = list(range(human.sizes["presentation"]))
        random_state.shuffle(indices)
        expected.append(_reference_i2n_single(model, human.isel(presentation=indices[:len(indices) // 2])))
    assert result.values.values == pytest.approx(expected, abs=1e-12)
    assert result.score == pytest.approx(np.mean(expected)) and result.error == pytest.approx(np.std(expected))
    i1 = m.i1(model, human)
    random_state = RandomState(0)
    indices = list(range(human.sizes["presentation"]))
    random_state.shuffle(indices)
    assert i1.values.values[0] == pytest.approx(_reference_i2n_single(
        model, human.isel(presentation=indices[:len(indices) // 2]), collapse=True, normalize=False), abs=1e-12)


def test_dprime_hand_case():
    """Two objects, two images each: d′ = Φ⁻¹(1 − p) − Φ⁻¹(FAR) by hand (scipy.stats.norm.ppf)."""
    from brainpipe.behaviour.i1i2 import _Matrix
    p = np.array([[np.nan, 0.2], [np.nan, 0.4], [0.1, np.nan], [0.3, np.nan]])
    matrix = _Matrix(["a1", "a2", "b1", "b2"], ["a", "a", "b", "b"], ["a", "b"], p)
    raw = dprimes(matrix, normalize=False).values
    ppf = scipy.stats.norm.ppf
    far_for_a_images = np.mean([0.1, 0.3])  # p(j, a) over images j with truth b
    assert raw[0, 1] == pytest.approx(ppf(0.8) - ppf(far_for_a_images))
    assert raw[3, 0] == pytest.approx(ppf(0.7) - ppf(np.mean([0.2, 0.4])))
    normalised = dprimes(matrix, normalize=True).values
    assert normalised[0, 1] == pytest.approx(raw[0, 1] - np.mean(raw[:2, 1]))
    clipped = dprimes(_Matrix(["a1", "b1"], ["a", "b"], ["a", "b"], np.array([[np.nan, 0.0], [1e-12, np.nan]])),
                      normalize=False).values
    assert clipped[0, 1] == 5 and clipped[1, 0] == 5


def test_i2n_ceiling_without_spearman_brown():
    human, _ = _objectome_like(trials_per_pair=10)
    ceiling = m.i2n_ceiling(human)
    random_state = RandomState(0)
    expected = []
    for _ in range(2):
        indices = list(range(human.sizes["presentation"]))
        random_state.shuffle(indices)
        half = len(indices) // 2
        one = dprimes(response_matrix(human.isel(presentation=indices[:half])))
        two = dprimes(response_matrix(human.isel(presentation=indices[half:])))
        expected.append(correlate(one, two))
    assert ceiling.values.values == pytest.approx(expected)
    assert 0 < ceiling.score < 1
    assert m.ceiling("i2n", human, skipna=True).score == pytest.approx(ceiling.score)  # no NaN pattern mismatch here


def test_i2n_perfect_model_is_consistent_with_itself():
    human, objects = _objectome_like(trials_per_pair=20)
    # a "model" whose p(i, c) equals the human p over all trials
    matrix = response_matrix(human)
    truth = dict(zip(matrix.ids, matrix.truths))
    p = np.where(np.isnan(matrix.values), 0.0, matrix.values)
    proba = np.empty_like(p)
    for i, image in enumerate(matrix.ids):  # P(c) ∝ p/(1−p), P(truth) = 1 up to normalisation
        odds = p[i] / (1 - p[i])
        odds[list(matrix.choices).index(truth[image])] = 1
        proba[i] = odds / odds.sum()
    model = xr.DataArray(proba, dims=("presentation", "choice"),
                         coords={"stimulus_id": ("presentation", matrix.ids), "choice": matrix.choices})
    assert np.nanmax(np.abs(model_matrix(model, human).values - matrix.values)) < 1e-9
    assert m.i2n(model, human).score > m.i2n_ceiling(human).score


def test_i2n_bad_input():
    human, objects = _objectome_like()
    model = _model_probabilities(human, objects)
    with pytest.raises(ValueError, match=r"human data lacks coordinate\(s\) 'dist_obj'"):
        m.i2n(model, human.drop_vars("dist_obj"))
    nan_human, _ = _objectome_like(nan=True)
    with pytest.raises(ValueError, match="human data has 1 missing"):
        m.i2n_ceiling(nan_human)
    renamed = model.assign_coords(choice=["x", "obj1", "obj2", "obj3"])
    with pytest.raises(ValueError, match=r"true objects \['obj0'\] are not among the model's choices"):
        m.i2n(renamed, human)
    with pytest.raises(ValueError, match="dims \\('presentation', 'choice'\\)"):
        m.i2n(model.rename(choice="label"), human)
