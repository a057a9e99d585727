"""Write a small MADE-UP lab export, as a lab's own scripts would leave it: nothing here is in brainpipe's format.

    python examples/lab_export/make_export.py my_export/

writes into my_export/:

* ``images/`` (80 PNGs of drawn shapes) and ``image_table.csv``: one row per image, the lab's column names
  (``image`` = the id, ``filename``, ``object``, ``category``, ``noise_level``);
* recordings, trial-level, in two layouts of the same numbers: ``trials.csv`` (one row per trial: ``image``,
  ``rep``) with ``responses.npy`` (trials × neurons, trials shuffled as recorded) and ``neurons.csv`` (``unit``,
  ``area``: V4 or IT); and ``responses_long.csv`` (one row per trial × neuron: ``image``, ``unit``, ``area``,
  ``rep``, ``value``);
* human choices, trial-level: ``choices.csv`` (``participant``, ``image``, ``response``, ``correct_label``,
  ``noise_level``): 4 participants name the object class of every image, with more errors on noisy images;
  ``pairs.csv`` (``participant``, ``image``, ``response``, ``correct_label``, ``other``): a two-alternative version
  (the image's class or ``other``); ``triplets.csv`` (``participant``, ``first``, ``second``, ``third``, ``odd``):
  odd-one-out choices.

The responses are SIMULATED (brainpipe.data.demo: shape features + noise) and so are the choices. The README's
"Packaging your data" packages this export with one `brainpipe package` command and scores the printed entries;
tests/test_lab_export.py does exactly that (and the 2AFC and odd-one-out files, and the long CSV).
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from brainpipe.data import demo

#: the shapes' categories named after ImageNet classes, so that a network's 1000 logits can answer (label task)
LABELS = {"disk": "bird", "square": "boat", "triangle": "car", "star": "dog"}
PARTICIPANTS = 4
REPETITIONS = 3


def make_export(out: Path, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    (out / "images").mkdir(exist_ok=True)
    table, images = demo.generate_stimuli(categories=4, objects_per_category=2, images_per_object=10, image_size=48,
                                          seed=seed)
    table = table.assign(stimulus_id=[f"img{i:03d}" for i in range(len(table))],
                         filename=[f"img{i:03d}.png" for i in range(len(table))])
    for name, image in zip(table["filename"], images):
        image.save(out / "images" / name)
    noise = np.where(table["variation"] == 1, "noisy", "clean")
    pd.DataFrame({"image": table["stimulus_id"], "filename": table["filename"], "object": table["object_name"],
                  "category": table["category_name"], "noise_level": noise}).to_csv(out / "image_table.csv",
                                                                                    index=False)

    recorded = demo.simulate_assembly(table, images, neuroids={"V4": 6, "IT": 10}, repetitions=REPETITIONS,
                                      seed=seed)
    recorded = recorded.mean("time_bin") if "time_bin" in recorded.dims else recorded
    order = rng.permutation(recorded.sizes["presentation"])  # the order the trials were recorded in
    trials = pd.DataFrame({"image": recorded["stimulus_id"].values[order],
                           "rep": recorded["repetition"].values[order]})
    values = recorded.transpose("presentation", "neuroid").values[order]
    trials.to_csv(out / "trials.csv", index=False)
    np.save(out / "responses.npy", values)
    units = [f"unit{i:02d}" for i in range(recorded.sizes["neuroid"])]
    areas = recorded["region"].values.astype(str)
    pd.DataFrame({"unit": units, "area": areas}).to_csv(out / "neurons.csv", index=False)
    pd.DataFrame({"image": np.repeat(trials["image"].to_numpy(), len(units)),
                  "unit": np.tile(units, len(trials)), "area": np.tile(areas, len(trials)),
                  "rep": np.repeat(trials["rep"].to_numpy(), len(units)),
                  "value": values.ravel()}).to_csv(out / "responses_long.csv", index=False)

    # People err on the same images (hard ones, mostly noisy) and mistake each for the same other class: errors
    # that agree between people, as error consistency measures them.
    truth = table["category_name"].map(LABELS).to_numpy()
    hard = rng.random(len(table)) < np.where(noise == "noisy", 0.5, 0.1)
    difficulty = np.where(hard, 0.85, 0.05)  # the chance to err on an image
    lure = [rng.choice([label for label in LABELS.values() if label != t]) for t in truth]
    rows = []
    for participant in range(PARTICIPANTS):
        for index in rng.permutation(len(table)):
            correct = rng.random() >= difficulty[index]
            rows.append({"participant": f"p{participant + 1}", "image": table["stimulus_id"][index],
                         "response": truth[index] if correct else lure[index],
                         "correct_label": truth[index], "noise_level": noise[index]})
    pd.DataFrame(rows).to_csv(out / "choices.csv", index=False)
    _two_choice(out, rng, table["stimulus_id"].to_numpy(), table["category_name"].to_numpy(), difficulty)
    _triplets(out, rng, table["stimulus_id"].to_numpy(), truth)
    return out


def _two_choice(out: Path, rng, images, truth, difficulty):
    """pairs.csv: a match-to-sample experiment; each trial offers the image's category (the image table's
    ``category``) and one other (``other``)."""
    rows = []
    for participant in range(PARTICIPANTS):
        for index in np.tile(rng.permutation(len(images)), 2):
            other = rng.choice([label for label in LABELS if label != truth[index]])
            rows.append({"participant": f"p{participant + 1}", "image": images[index],
                         "response": truth[index] if rng.random() >= difficulty[index] else other,
                         "correct_label": truth[index], "other": other})
    pd.DataFrame(rows).to_csv(out / "pairs.csv", index=False)


def _triplets(out: Path, rng, images, truth, n=60):
    """triplets.csv: which of three images is the odd one out (two share a class); people mostly pick the image
    of the other class."""
    rows = []
    for _ in range(n):
        first = rng.integers(len(images))
        same = rng.choice([i for i in range(len(images)) if truth[i] == truth[first] and i != first])
        odd = rng.choice([i for i in range(len(images)) if truth[i] != truth[first]])
        triplet = rng.permutation([first, same, odd])
        pick = odd if rng.random() < 0.8 else rng.choice([first, same])
        rows.append({"participant": f"p{rng.integers(PARTICIPANTS) + 1}", "first": images[triplet[0]],
                     "second": images[triplet[1]], "third": images[triplet[2]], "odd": images[pick]})
    pd.DataFrame(rows).to_csv(out / "triplets.csv", index=False)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/lab_export/make_export.py OUT_FOLDER")
    print(f"made-up lab export written to {make_export(Path(sys.argv[1]))}")
