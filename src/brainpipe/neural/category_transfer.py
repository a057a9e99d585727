"""How well a category read-out trained on photographs transfers to other image domains (drawings, paintings,
silhouettes, other photographs), in Brain-Score's two-alternative forced-choice terms.

Source: brain-score/vision brainscore_vision/benchmarks/igustibagus2024/domain_transfer_analysis.py
(``_OOD_AnalysisBenchmark``, ``get_crossdomain_data_dictionary``, ``split_training_test_images``,
``get_decoder``, ``get_classifier_score_2AFC``, ``reduce_data_num_images``). Per split (1000):

* 30 of the photographs (domain ``hvm``: source Silhouette, style original) drawn stratified by label as test
  images; the other photographs train the decoder, StandardScaler then RidgeClassifierCV(alphas 1e-4 … 10,
  intercept);
* each silhouette-like domain (convex_hull, outline, skeleton, silhouette) is tested on its images whose
  background id is one of the photographs' test images'; every other domain on 30 images drawn stratified by
  label (all of them when it has exactly 30);
* 2AFC accuracy of a test image: the share of the other categories (of the test images' sorted labels) whose
  decision value is strictly below its own category's; averaged over the domain's test images.

Score: mean over domains of the mean over splits; error: their standard deviation over domains (ddof 0). The draws
are sklearn's ``train_test_split`` in Brain-Score's order (the photographs first, then each domain in the order
of :data:`DOMAINS`); Brain-Score passes no random_state (numpy's global generator), brainpipe a seeded
RandomState, so that a score is reproducible: with numpy's global generator seeded alike just before the first
draw, Brain-Score draws the same splits.
"""

from __future__ import annotations

import numpy as np

#: (domain, stimulus source, object style or None for any), in Brain-Score's order
DOMAINS = (("hvm", "Silhouette", "original"), ("cartoon", "Art", "cartoon"), ("line_drawing", "Art", "line_drawing"),
           ("mosaic", "Art", "mosaic"), ("painting", "Art", "painting"), ("sketch", "Art", "sketch"),
           ("convex_hull", "Silhouette", "convex_hull"), ("outline", "Silhouette", "outline"),
           ("skeleton", "Silhouette", "skeleton"), ("silhouette", "Silhouette", "silhouette"),
           ("cococolor", "COCOColor", None), ("cocogray", "COCOGray", None), ("tdw", "TDW", None))
SILHOUETTE_DOMAINS = ("convex_hull", "outline", "skeleton", "silhouette")
ALPHAS = (0.0001, 0.001, 0.01, 0.1, 1, 10)


def domain_indices(sources, styles) -> dict:
    """Domain -> the indices (ascending) of its images."""
    sources, styles = np.asarray(sources).astype(str), np.asarray(styles).astype(str)
    return {name: np.flatnonzero((sources == source) & ((styles == style) if style else True))
            for name, source, style in DOMAINS}


def two_afc(decision, labels) -> float:
    """Brain-Score's ``get_classifier_score_2AFC``: for each image, the share of the other categories (of the sorted
    unique ``labels``, indexing ``decision``'s columns) whose decision value is strictly below its own category's."""
    decision = np.asarray(decision)
    categories = np.unique(labels)
    own = np.searchsorted(categories, labels)
    rows = np.arange(len(labels))
    own_values = decision[rows, own]
    beaten = (own_values[:, None] > decision[:, :len(categories)]).sum(axis=1)  # own column is never > itself
    return float(np.mean(beaten / (len(categories) - 1)))


def _draw(indices, labels, size, rng):
    """Brain-Score's ``reduce_data_num_images``: (``size`` images drawn stratified by label, the rest); every image
    and no draw when there are exactly ``size``."""
    from sklearn.model_selection import train_test_split

    if size == len(indices):
        return indices, None
    drawn, rest = train_test_split(indices, train_size=size, stratify=labels[indices], random_state=rng)
    return drawn, rest


def transfer_accuracy(features, labels, sources, styles, background_ids, n_splits=1000, hvm_test=30, ood_test=30,
                      alphas=ALPHAS, random_state=0, progress=None):
    """(domain names, (split × domain) 2AFC accuracies) of a (image × feature) array."""
    from sklearn.linear_model import RidgeClassifierCV
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    features = np.asarray(features)
    labels = np.asarray(labels).astype(str)
    background_ids = np.asarray(background_ids)
    domains = domain_indices(sources, styles)
    for name, indices in domains.items():
        if not len(indices):
            raise ValueError(f"no image of domain {name!r} (source / style {dict((d, (s, t)) for d, s, t in DOMAINS)[name]})")
    rng = np.random.RandomState(random_state)
    results = np.empty((n_splits, len(domains)))
    for split in range(n_splits):
        tests = {}
        for name, indices in domains.items():
            if name == "hvm":
                tests[name], train = _draw(indices, labels, hvm_test, rng)
                if train is None:
                    raise ValueError(f"domain 'hvm' has exactly {hvm_test} images: none left to train on")
                test_backgrounds = background_ids[tests[name]]
            elif name in SILHOUETTE_DOMAINS:
                tests[name] = indices[np.isin(background_ids[indices], test_backgrounds)]
            else:
                tests[name], _ = _draw(indices, labels, ood_test, rng)
        decoder = Pipeline([("scaler", StandardScaler()),
                            ("classifier", RidgeClassifierCV(alphas=list(alphas), fit_intercept=True))])
        decoder.fit(features[train], labels[train])
        # every domain's test images in one call (Brain-Score calls once per domain): the same decision values up to
        # the last bits of the matrix product, and a 2AFC count changes only where two values tie
        tested = np.concatenate(list(tests.values()))
        decisions = np.split(decoder.decision_function(features[tested]),
                             np.cumsum([len(test) for test in tests.values()])[:-1])
        for column, (test, decision) in enumerate(zip(tests.values(), decisions)):
            results[split, column] = two_afc(decision, labels[test])
        if progress is not None:
            progress(split)
    return list(domains), results
