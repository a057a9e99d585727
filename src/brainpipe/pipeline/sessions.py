"""A benchmark averaged over separately recorded sessions (``Family.sessions``): each session is an ordinary
benchmark with its own images, neurons and ceiling; the combined benchmark's numbers are the sessions' means.

As brain-score/vision brainscore_vision/benchmarks/cowley2026/benchmark.py ``_CombinedNeuralBenchmark`` forms them:
score the mean of the sessions' ceiled scores (each session ceiled by its own ceiling), raw the mean of their raw
scores, ceiling the mean of their ceilings (``np.mean`` over the sessions, in the benchmark's session order). No
images or neurons are pooled across sessions. The workflow (workflow/rules/sessions.smk) calls these per layer.
"""

import numpy as np


def _check(identifiers, results, what):
    if not identifiers or len(identifiers) != len(results):
        raise ValueError(f"{what}: expected one result per session {list(identifiers)}, got {len(results)}")


def combine_ceilings(identifiers, ceilings):
    """The combined ceiling: the mean of the sessions' ceilings (``ceilings``: their ceiling JSONs, in order)."""
    _check(identifiers, ceilings, "session ceilings")
    values = [float(np.mean(c["ceiling"])) for c in ceilings]
    return {"ceiling": float(np.mean(values)), "error": None, "method": "mean over sessions",
            "per_session": dict(zip(identifiers, values))}


def combine_layers(identifiers, layers, ceiling):
    """One layer's combined score from the sessions' layer scores (``layers``: their layer JSONs, in order) and the
    combined ceiling (:func:`combine_ceilings`'s): score, raw and ceiling the sessions' means. No error estimate
    (Brain-Score's combined score carries none); each session's own is kept under ``per_session``."""
    _check(identifiers, layers, "session layer scores")
    scores = [float(layer["score"]) for layer in layers]
    raws = [float(layer["raw"]) for layer in layers]
    ceilings = [float(layer["ceiling"]) for layer in layers]
    combined = float(np.mean(ceilings))
    if not np.isclose(combined, float(ceiling["ceiling"]), rtol=0, atol=1e-12):
        raise ValueError(f"the sessions' layer scores were ceiled by {ceilings} (mean {combined}), but the combined "
                         f"ceiling is {ceiling['ceiling']}: rerun the combined ceiling")
    return {
        "score": float(np.mean(scores)),
        "raw": float(np.mean(raws)),
        "ceiling": combined,
        "error": None,
        "ceiling_error": None,
        "n_folds": int(layers[0].get("n_folds", 0)),
        "formula": "mean over sessions of raw_s**2 / ceiling_s",
        "above_ceiling": bool(any(s > 1 for s in scores)),
        "per_session": {i: {"score": s, "raw": r, "ceiling": c, "error": layer.get("error")}
                        for i, s, r, c, layer in zip(identifiers, scores, raws, ceilings, layers)},
    }
