"""Brain-Score 2.4.2's threshold metrics and microsaccades on hand-made inputs, stored for tests/test_threshold.py.

Run in the Brain-Score reference venv (it needs brainscore_vision and OpenCV; nothing of brainpipe)::

    BS_INSTALL_DEPENDENCIES=no .venv-reference/bin/python tests/reference/make_threshold_reference.py

Writes tests/data/threshold_reference.json: per case the inputs (x values, correct / incorrect presentations,
human thresholds) and what Brain-Score's code returns for them (brainscore_vision.metrics.threshold.metric
``Threshold`` / ``ThresholdElevation``: thresholds, 'fit_fail' tags, raw scores, ceilings;
brainscore_vision.benchmarks.malania2007.benchmark ``filter_baseline_subjects``;
brainscore_vision.model_helpers.activations.core ``MicrosaccadeHelper``: spiral shifts and cv2 translations).
Deterministic: numpy RandomState seeds fixed below.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "data" / "threshold_reference.json"
#: start slopes of the fast cases (the benchmark's grid is logspace(-3, 1, 50): 50 L-BFGS-B runs per x value)
FAST_ALPHAS = [0.1, 1.0]
#: cases also run with the benchmark's full grid (a slow test)
FULL_GRID = ("psychometric",)
INFLECTION = ("psychometric", "step_function")


def _assembly(x, correct, choices):
    """A (presentation × choice) probabilities assembly whose argmax is the label where ``correct``, else the
    next choice."""
    from brainscore_core.supported_data_standards.brainio.assemblies import BehavioralAssembly
    choices = list(choices)
    values = np.full((len(x), len(choices)), 0.1)
    for row, (label, ok) in enumerate(zip(x, correct)):
        k = choices.index(label)
        values[row, k if ok else (k + 1) % len(choices)] = 0.9
    return BehavioralAssembly(values, coords={"image_label": ("presentation", list(x)),
                                              "stimulus_id": ("presentation", [f"s{i}" for i in range(len(x))]),
                                              "choice": ("choice", choices)},
                              dims=["presentation", "choice"])


def _psychometric_correct(xs, trials, alpha, beta, lapse, seed):
    from scipy.stats import norm
    rng = np.random.RandomState(seed)
    x, correct = [], []
    for value in xs:
        p = 0.5 + (0.5 - lapse) * norm.cdf(alpha * (value - beta))
        x += [value] * trials
        correct += list((rng.rand(trials) < p).astype(int))
    return x, correct


def _rates(xs, rates, trials):
    """Exactly round(rate · trials) correct of ``trials`` at each x."""
    x, correct = [], []
    for value, rate in zip(xs, rates):
        k = int(round(rate * trials))
        x += [value] * trials
        correct += [1] * k + [0] * (trials - k)
    return x, correct


def cases():
    xs = [2.0, 5.0, 10.0, 15.0, 20.0, 30.0, 45.0, 60.0]
    return {
        "psychometric": _psychometric_correct(xs, 40, 0.15, 12.0, 0.04, 0),
        "psychometric_steep": _psychometric_correct(xs, 20, 1.0, 18.0, 0.03, 1),
        "step_function": _rates(xs, [0.5, 0.5, 0.5, 1, 1, 1, 1, 1], 10),  # slope runs off to infinity
        "low_accuracy": _rates(xs, [0.5] * 8, 10),
        "rises_then_falls": _rates(xs, [0.6, 0.95, 0.6, 0.55, 0.5, 0.5, 0.5, 0.5], 20),
        "flat_noisy": _rates(xs, [0.7, 0.55, 0.75, 0.6, 0.7, 0.55, 0.75, 0.65], 20),
        "beyond_range": _rates(xs, [0.6, 0.61, 0.62, 0.63, 0.64, 0.66, 0.68, 0.7], 50),
        "high_lapse": _rates(xs, [0.5, 0.55, 0.6, 0.65, 0.7, 0.7, 0.7, 0.7], 20),
        "integer_labels": ([int(v) for v in _psychometric_correct(xs, 20, 0.2, 10.0, 0.05, 2)[0]],
                           _psychometric_correct(xs, 20, 0.2, 10.0, 0.05, 2)[1]),
    }


def row_order():
    """Which image each row of Brain-Score's microsaccade activations holds, and which it is labelled as: its own
    extractor (batch size 2, 3 trials, 5 images) with a stand-in network whose feature is the image's index."""
    from collections import OrderedDict

    from brainscore_vision.model_helpers.activations.core import ActivationsExtractorHelper

    paths = [f"/nonexistent/img{i}.png" for i in range(5)]  # never opened: the preprocessing below stands in

    def preprocess(batch):
        return np.stack([np.full((3, 8, 8), float(p[-5]), dtype=np.float32) for p in batch])

    def get_activations(images, layer_names):
        return OrderedDict((layer, np.stack([[image[0, 4, 4]] for image in images])) for layer in layer_names)

    extractor = ActivationsExtractorHelper(get_activations, preprocess, identifier=False, batch_size=2)
    extractor.set_visual_degrees(8)
    extractor._microsaccade_helper.number_of_trials = 3
    activations = extractor._from_paths(layers=["layer"], stimuli_paths=paths, require_variance=True)
    return {"images": 5, "trials": 3, "batch_size": 2,
            "labelled": [int(p[-5]) for p in activations["stimulus_path"].values],
            "content": [int(v) for v in activations.values[:, 0]]}


def main():
    from brainscore_core.supported_data_standards.brainio.assemblies import PropertyAssembly
    from brainscore_vision.metrics.threshold.metric import Threshold, ThresholdElevation
    from brainscore_vision.benchmarks.malania2007.benchmark import filter_baseline_subjects
    from brainscore_vision.model_helpers.activations.core import MicrosaccadeHelper

    out = {"command": "BS_INSTALL_DEPENDENCIES=no .venv-reference/bin/python "
                      "tests/reference/make_threshold_reference.py", "fast_alphas": FAST_ALPHAS, "thresholds": {}}
    import brainscore_vision.metrics.threshold.metric as metric_module
    full_defaults = metric_module.grid_search.__defaults__
    for name, (x, correct) in cases().items():
        choices = sorted(set(x))
        assembly = _assembly(x, correct, choices)
        entry = {"x": [float(v) for v in x], "correct": [int(c) for c in correct]}
        grids = {"fast": FAST_ALPHAS} if name not in FULL_GRID else {"fast": FAST_ALPHAS, "full": None}
        for grid, alphas in grids.items():
            # Threshold.fit_threshold_function calls grid_search(x, y) with its default start slopes: the small
            # grid keeps the tests fast (each start is one L-BFGS-B run), the full one is the benchmark's
            metric_module.grid_search.__defaults__ = ((np.asarray(alphas),) + full_defaults[1:]) if alphas \
                else full_defaults
            accuracies = (0.75, "inflection") if name in INFLECTION and grid == "fast" else (0.75,)
            for accuracy in accuracies:
                metric = Threshold("image_label", threshold_accuracy=accuracy)
                threshold = metric.compute_threshold(assembly, "image_label")
                entry[f"{grid}_threshold_{accuracy}"] = threshold if isinstance(threshold, str) else float(threshold)
                if accuracy == "inflection":
                    entry["accuracy_resolved"] = float(metric.threshold_accuracy)
            params, _ = Threshold("image_label").fit_threshold_function(
                np.asarray(x), Threshold.convert_proba_to_correct(assembly))
            entry[f"{grid}_params"] = params if isinstance(params, str) else [float(p) for p in params]
        metric_module.grid_search.__defaults__ = full_defaults
        out["thresholds"][name] = entry
        print(name, {k: v for k, v in entry.items() if k not in ("x", "correct")}, flush=True)

    humans = [18.0, 25.5, 31.0, 22.0, 25.5, 40.0]
    out["threshold_score"] = {"humans": humans, "scores": {}}
    for model in (20.0, 25.5, 60.0, 5.0):
        score = Threshold("image_label")(model, humans)
        out["threshold_score"]["scores"][str(model)] = {"score": float(score.values), "error": float(score.error),
                                                        "raw": [float(v) for v in score.raw]}
    x, correct = cases()["low_accuracy"]
    score = Threshold("image_label", threshold_accuracy=0.75)(_assembly(x, correct, sorted(set(x))), humans)
    out["threshold_score"]["fit_fail"] = {"score": float(score.values), "error": float(score.error)}

    def property_assembly(values, subjects):
        return PropertyAssembly(values, coords={"subject": ("subject", subjects)}, dims=["subject"])

    out["ceilings"] = {}
    for name, values in {"distinct": [12.0, 20.0, 17.5, 30.0, 22.0, 15.0],
                         "duplicates": [10.0, 20.0, 20.0, 40.0, 10.0]}.items():
        ceiling = Threshold("image_label", threshold_accuracy=0.75).ceiling(
            property_assembly(values, [f"s{i}" for i in range(len(values))]))
        out["ceilings"][name] = {"values": values, "ceiling": float(ceiling.values), "error": float(ceiling.error)}

    baseline = [20.0, 25.0, 18.0, 30.0, 22.0, 27.0]
    condition = [40.0, 70.0, float("nan"), 45.0, 90.0, 50.0]
    subjects = ["s1", "s2", "s3", "s4", "s5", "s6"]
    cond, base = filter_baseline_subjects(property_assembly(condition, subjects), property_assembly(baseline, subjects))
    metric = ThresholdElevation("image_label", "vernier_only", "short2", threshold_accuracy=0.75)
    assemblies = {"baseline_assembly": base, "condition_assembly": cond}
    ceiling = metric.ceiling(assemblies)
    out["elevation"] = {
        "baseline": baseline, "condition": condition, "subjects": subjects,
        "filtered_condition": [float(v) for v in cond.values], "filtered_baseline": [float(v) for v in base.values],
        "filtered_subjects": [str(s) for s in cond["subject"].values],
        "ceiling": float(ceiling.values), "ceiling_error": float(ceiling.error),
        "human_elevations": [float(v) for v in metric.compute_threshold_elevations(assemblies)], "scores": {}}
    metric_module.grid_search.__defaults__ = ((np.asarray(FAST_ALPHAS),) + full_defaults[1:])
    for test_case in ("psychometric_steep", "low_accuracy"):
        xb, cb = cases()["psychometric"]
        xt, ct = cases()[test_case]
        source = {"vernier_only": _assembly(xb, cb, sorted(set(xb))), "short2": _assembly(xt, ct, sorted(set(xt)))}
        score = ThresholdElevation("image_label", "vernier_only", "short2", threshold_accuracy=0.75)(
            source, assemblies)
        out["elevation"]["scores"][test_case] = {"score": float(score.values),
                                                 "error": float(getattr(score, "error", 0.0))}
    metric_module.grid_search.__defaults__ = full_defaults

    # Malania2007.vernieracuity-threshold passes the Threshold metric a dict of assemblies as its target: once a
    # fit succeeds, scoring iterates the dict's keys (strings) and raises
    metric_module.grid_search.__defaults__ = ((np.asarray(FAST_ALPHAS),) + full_defaults[1:])
    xb, cb = cases()["psychometric"]
    try:
        Threshold("image_label", threshold_accuracy=0.75)(_assembly(xb, cb, sorted(set(xb))), assemblies)
        out["vernieracuity_dict_target"] = "no error"
    except Exception as error:  # noqa: BLE001 -- recorded
        out["vernieracuity_dict_target"] = f"{type(error).__name__}: {error}"
    metric_module.grid_search.__defaults__ = full_defaults

    # filtering with subjects in another order in the two files and a subject only in the baseline
    cond2, base2 = filter_baseline_subjects(property_assembly([40.0, float("nan"), 45.0, 60.0], ["b", "c", "a", "d"]),
                                            property_assembly([20.0, 25.0, 18.0, 30.0, 50.0],
                                                              ["a", "b", "c", "d", "e"]))
    out["filter_reordered"] = {"condition": [float(v) for v in cond2.values],
                               "condition_subjects": [str(s) for s in cond2["subject"].values],
                               "baseline": [float(v) for v in base2.values],
                               "baseline_subjects": [str(s) for s in base2["subject"].values]}

    helper = MicrosaccadeHelper()
    helper.visual_degrees = 8
    out["microsaccades"] = {}
    for trials in (2, 10):
        helper.number_of_trials = trials
        helper.build_microsaccades("image", (224, 224))
        out["microsaccades"][str(trials)] = [list(map(float, s)) for s in helper.microsaccades["pixels"]["image"]]
    rng = np.random.RandomState(0)
    image = rng.normal(size=(3, 12, 10)).astype(np.float32)
    out["translations"] = {"image": image.tolist(), "shifted": {}}
    for shift in [(0.3, -0.7), (-1.4, 1.39), (0.015625, -0.015625), (1.2597133539834464, -0.4208589618812649),
                  (2.5, 0.0)]:
        translated = MicrosaccadeHelper.translate(image, shift, (12, 10), True)
        out["translations"]["shifted"][json.dumps(shift)] = translated.tolist()
    out["row_order"] = row_order()
    import cv2
    import scipy
    import sklearn
    out["versions"] = {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__,
                       "scikit-learn": sklearn.__version__, "opencv": cv2.__version__}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--row-order"]:  # refresh only that entry (no psychometric fits)
        stored = json.loads(OUT.read_text())
        stored["row_order"] = row_order()
        OUT.write_text(json.dumps(stored, indent=1) + "\n")
    else:
        main()
