"""Stimuli are placed at the exact visual degrees, never at the two decimals of Brain-Score's folder id.

Brain-Score (brain-score/vision brainscore_vision/benchmark_helpers/screen.py) names a placed set
f"{id}--target{target:.2f}--source{source:.2f}" but places it at the exact ratio target / source:
Malania2007's stimuli (2.986667°) shown to an 8° model are numpy-round(8 / 2.986667 × 128) = 343 px, where
2.99° would give 342. brainpipe's folder name is the placement's only record of the degrees (the
place_on_screen rule reads them from it), so it keeps Brain-Score's id where two decimals are exact and writes
every digit otherwise.
"""

import re

import numpy as np
import pytest
from PIL import Image

from brainpipe.benchmarks.families import lonnqvist2024, malania2007
from brainpipe.data.screen import apply_ratio, degrees_text, placed_identifier, placement_degrees
from workflow_runs import planned_outputs, snakemake, with_config


def brainscore_size(size, target, source):
    """Brain-Score's ImageConverter.apply_ratio: target_size = np.round(target / source * size)."""
    return int(np.round(target / source * size))


def test_malania_at_8_degrees_is_343_pixels():
    assert brainscore_size(128, 8, malania2007.VISUAL_DEGREES) == 343
    assert brainscore_size(128, 8, 2.99) == 342  # what the rounded folder name placed
    image = Image.new("RGB", (128, 128), (0, 0, 0))
    assert apply_ratio(image, 8 / malania2007.VISUAL_DEGREES).size == (343, 343)


@pytest.mark.parametrize("target, source", [(8, malania2007.VISUAL_DEGREES), (8, lonnqvist2024.VISUAL_DEGREES),
                                            (7.123, 10), (8.125, 4), (8, 10), (10, 8), (8, 8.4)])
def test_folder_name_gives_back_the_exact_degrees(target, source):
    name = placed_identifier("set", target, source)
    found = re.fullmatch(r"set--target(.+)--source(.+)", name)
    assert (placement_degrees(found[1]), placement_degrees(found[2])) == (float(target), float(source))


def test_two_decimal_degrees_keep_brainscores_id_and_others_never_collide():
    assert placed_identifier("hvm", 10, 8) == "hvm--target10.00--source8.00"
    assert placed_identifier("Malania2007_short-2", 8, malania2007.VISUAL_DEGREES) == \
        "Malania2007_short-2--target8.00--source2.986667"
    assert placed_identifier("Lonnqvist2024_test", 8, lonnqvist2024.VISUAL_DEGREES) == \
        "Lonnqvist2024_test--target8.00--source17.70753"
    assert len({degrees_text(d) for d in (2.986667, 2.99, 2.9866670001, 2.985)}) == 4


@pytest.mark.parametrize("text", ["2.990", "8.0", "08.00", "2.9866670", "abc", "0.00"])
def test_a_name_brainpipe_does_not_write_is_refused(text):
    with pytest.raises(ValueError, match=re.escape(repr(text))):
        placement_degrees(text)


@pytest.mark.slow  # a real workflow run (seconds to a minute on 2 cores): CI runs it (make test-slow)
def test_the_rule_places_at_the_exact_degrees(tmp_path):
    """A real Snakemake run: a benchmark shown at 2.986667° and a model at 7.123° (its own degrees): the planned
    folders carry the exact degrees and the images are Brain-Score's sizes (SyntheticShapes at 128 px: 343 px at
    8°, where 2.99° gave 342)."""
    work = with_config(tmp_path / "work")
    config = tmp_path / "degrees.yaml"
    config.write_text("benchmarks: [SyntheticShapes.IT-pls]\n"
                      "benchmark_settings:\n  SyntheticShapes.IT-pls: {splits: 3, visual_degrees: 2.986667}\n"
                      "synthetic_shapes: {image_size: 128}\n")
    from workflow_runs import TINY
    plan = snakemake(work, "--dry-run", "results/alexnet_untrained/SyntheticShapes.IT-pls.json",
                     configfiles=(TINY, config))
    assert "results/stimuli_on_screen/SyntheticShapes--target8.00--source2.986667" in planned_outputs(plan)
    targets = ["results/stimuli_on_screen/SyntheticShapes--target8.00--source2.986667",
               "results/stimuli_on_screen/SyntheticShapes--target7.123--source2.986667"]
    snakemake(work, "--keep-going", *targets, configfiles=(TINY, config))
    for target, folder in zip((8, 7.123), targets):
        images = sorted((work / folder).rglob("*.png"))
        assert images
        expected = brainscore_size(128, target, 2.986667)
        assert {Image.open(p).size for p in images} == {(expected, expected)}
    assert {Image.open(p).size for p in (work / targets[0]).rglob("*.png")} == {(343, 343)}
