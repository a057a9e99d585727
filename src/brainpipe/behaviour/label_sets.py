"""A label task's label set as a ``benchmark_zoo`` entry (``labels:``) or ``brainpipe package --labels`` gives it:
each label the people could answer, mapped to the ImageNet classes whose probabilities the model's answer pools
(brain-score/vision model_helpers/brain_transformation/behavior.py ``LabelBehavior``).

A label maps to one ImageNet class or a list of them, given in any mix of these forms:

* a label brainpipe maps itself (Brain-Score's ``LabelToImagenetIndices``: ``airplane``, ``dog``, ...);
* an ImageNet class index, 0-999 (``404``);
* a WordNet id (``n02690373``);
* an ImageNet class name (``airliner``, as torchvision lists them).

The result is what :func:`brainpipe.behaviour.tasks.label` reads: a tuple of label names (a label brainpipe maps,
kept by name as before) and ``(label, indices)`` pairs, or ``'imagenet'`` (the argmax's WordNet id).
"""

from __future__ import annotations

import difflib
import re

from ._synsets import CLASS_NAMES, SYNSETS

#: what a label may be mapped to, for messages
FORMS = ("a label brainpipe maps (airplane, dog, ...: Brain-Score's LabelToImagenetIndices)",
         "an ImageNet class index 0-999 (404)", "a WordNet id (n02690373)", "an ImageNet class name (airliner)")
_SYNSET_INDEX = {synset: index for index, synset in enumerate(SYNSETS)}
_NAME_INDEX = {name.lower(): index for index, name in enumerate(CLASS_NAMES)}


class LabelSetError(ValueError):
    """A label set that cannot be read; ``key`` is where (``labels`` or ``labels.<label>``), ``unmapped`` the
    labels that have no ImageNet classes."""

    def __init__(self, key: str, message: str, unmapped=()):
        super().__init__(message)
        self.key, self.message, self.unmapped = key, message, list(unmapped)


def _known_labels() -> dict:
    from .tasks import LABEL_TO_IMAGENET_INDICES
    return LABEL_TO_IMAGENET_INDICES


def imagenet_indices(target) -> list[int] | None:
    """The ImageNet class indices one target names (see the module docstring), None if it names none. A label
    brainpipe maps comes first (Brain-Score's pooled classes), as the label task reads it: lower-cased, no spaces."""
    if isinstance(target, bool):
        return None
    if isinstance(target, int):
        return [target] if 0 <= target < 1000 else None
    if not isinstance(target, str) or not target.strip():
        return None
    text = target.strip()
    known = _known_labels()
    if text.lower().replace(" ", "") in known:
        return list(known[text.lower().replace(" ", "")])
    if text in _SYNSET_INDEX:
        return [_SYNSET_INDEX[text]]
    if text.lower() in _NAME_INDEX:
        return [_NAME_INDEX[text.lower()]]
    if re.fullmatch(r"[0-9]+", text):
        return [int(text)] if int(text) < 1000 else None
    return None


def _targets(label: str, targets) -> tuple:
    """(label, indices) of one mapped label; LabelSetError naming the target that is none of the forms."""
    listed = targets if isinstance(targets, (list, tuple)) else [targets]
    indices = []
    for target in listed:
        found = imagenet_indices(target)
        if found is None:
            raise LabelSetError(f"labels.{label}", f"expected a list of ImageNet class indices (0-999), WordNet ids "
                                                   f"(n02690373), ImageNet class names (airliner) or labels brainpipe "
                                                   f"maps (airplane), got {targets!r}: {target!r} is none of them")
        indices += [index for index in found if index not in indices]
    if not indices:
        raise LabelSetError(f"labels.{label}", f"expected at least one ImageNet class, got {targets!r}")
    return label, tuple(indices)


def _entry(label, targets=None):
    """A label as the task reads it: its name when brainpipe maps it by that name (and nothing else is given),
    else (label, indices); None for a name given alone that brainpipe does not map. (A name alone is not looked up
    among ImageNet's class names: 'plane' would silently become the carpenter's plane, class 726.)"""
    label = str(label)
    if targets is None or (isinstance(targets, str) and targets == label
                           and label.lower().replace(" ", "") in _known_labels()):
        return label if label.lower().replace(" ", "") in _known_labels() else None
    return _targets(label, targets)


def label_set(value):
    """``'imagenet'``, or the labels as :func:`brainpipe.behaviour.tasks.label` reads them, from ``value``:
    ``'imagenet'``; a list of labels, each a label brainpipe maps (by its name) or a one-label mapping ``{plane:
    airplane}``; or a mapping label -> target(s). LabelSetError listing every label without ImageNet classes."""
    if value == "imagenet":
        return "imagenet"
    pairs = []
    if isinstance(value, dict):
        pairs = list(value.items())
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, dict) and len(item) == 1:
                pairs += list(item.items())
            elif isinstance(item, str):
                pairs.append((item, None))
            else:
                raise LabelSetError("labels", f"{item!r}: expected a label name or a one-label mapping such as "
                                              "{plane: airplane}")
    if not pairs or not all(isinstance(label, (str, int)) and str(label).strip() for label, _ in pairs):
        raise LabelSetError("labels", f"the label task needs the choices' label set: a list of names (e.g. [dog, "
                                      f"cat]), a mapping label -> ImageNet classes (e.g. {{plane: airplane}}), or "
                                      f"'imagenet' (WordNet ids); got {value!r}")
    labels = [str(label) for label, _ in pairs]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise LabelSetError("labels", f"label {twice[0]!r} is listed twice: {labels}")
    entries = [_entry(label, targets) for label, targets in pairs]
    unmapped = [label for label, entry in zip(labels, entries) if entry is None]
    if unmapped:
        raise LabelSetError("labels", unmapped_message(unmapped), unmapped)
    return tuple(entries)


def unmapped_message(unmapped) -> str:
    """'label X has no ImageNet class mapping (did you mean ...?)' for one label or several."""
    named = ", ".join(f"{label!r}{_closest(label)}" for label in unmapped)
    return (f"label {named} has no ImageNet class mapping" if len(unmapped) == 1
            else f"labels {named} have no ImageNet class mapping")


def _closest(label: str) -> str:
    """' (did you mean X?)' for the label brainpipe maps nearest to ``label``, or ''."""
    match = nearest_label(label)
    return f" (did you mean {match!r}?)" if match else ""


def nearest_label(label: str) -> str | None:
    """The label brainpipe maps nearest to ``label`` (plane -> airplane), None if none is near."""
    match = difflib.get_close_matches(label.lower(), list(_known_labels()), n=1, cutoff=0.6)
    return match[0] if match else None


def accepted_forms() -> str:
    """The forms a label's target may take, for messages."""
    return "; ".join(FORMS)
