"""Per-time-bin curves of temporal benchmarks (the report's time_bins plot).

For ``spantime_*`` scores: the ceiled score of each 10-ms bin (``score_per_time_bin``). For OST scores: the share of
test images the model's read-out has solved by the end of each bin beside the primates' share
(``solved_per_time_bin``, ``primate_solved_per_time_bin``); a static model (NaN, with its reason) has no curve.
"""

from __future__ import annotations


def curves(score: dict):
    """[(label, x ms, y)] of one score JSON; empty where it has no per-bin values."""
    starts = score.get("time_bin_start") or []
    name = f"{score.get('model')} {score.get('benchmark')}"
    if score.get("score_per_time_bin"):
        return [(f"{name} (ceiled score)", starts, score["score_per_time_bin"])]
    if score.get("solved_per_time_bin"):
        return [(f"{name}: model, share solved", starts, score["solved_per_time_bin"]),
                (f"{score.get('benchmark')}: primates, share solved", starts, score["primate_solved_per_time_bin"])]
    return []


def plot(scores, destination):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    notes = []
    for score in scores:
        lines = curves(score)
        if not lines and score.get("reason"):
            notes.append(f"{score.get('model')} {score.get('benchmark')}: NaN (static model)")
        for label, x, y in lines:
            axes.plot(x, y, marker="o", linestyle="--" if "primates" in label else "-", label=label)
    axes.set_xlabel("time bin start (ms)")
    axes.set_ylabel("score / share of images solved")
    axes.set_title("temporal benchmarks per time bin" + ("\n" + "; ".join(notes) if notes else ""), fontsize=9)
    axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(destination, dpi=100, format="png")
    plt.close(figure)
