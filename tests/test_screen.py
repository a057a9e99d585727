"""brainpipe.data.screen against Brain-Score's place_on_screen rule (brain-score/vision brainscore_vision/benchmark_helpers/screen.py).

ratio = target/source degrees; target size = numpy round (half to even) of ratio × size; ratio ≥ 1 pastes the
unscaled image centred on a (128, 128, 128) canvas; ratio < 1 centre-crops.
"""

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from brainpipe.data.screen import GRAY, apply_ratio, place_on_screen, placed_identifier


def noise_image(width, height, seed=0, mode="RGB"):
    """Random image guaranteed to contain no exact (128,128,128) pixel."""
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, size=(height, width, 3), dtype=np.uint8)
    data[..., 0][data[..., 0] == 128] = 129
    return Image.fromarray(data, "RGB").convert(mode) if mode != "RGB" else Image.fromarray(data, "RGB")


def gray_mask(array):
    return (array == np.array(GRAY, np.uint8)).all(axis=2)


def test_gray_is_pil_gray():
    assert Image.new("RGB", (1, 1), "gray").getpixel((0, 0)) == GRAY == (128, 128, 128)


def test_brainscore_1855px_sizes():
    # brain-score tests/test_benchmark_helpers/test_screen.py: 1855-px image, 10→8° = 1484 px, 10→12° = 2226 px
    image = noise_image(1855, 1855)
    assert apply_ratio(image, 8 / 10).size == (1484, 1484)
    assert apply_ratio(image, 12 / 10).size == (2226, 2226)


def test_gray_fraction_8_to_10_by_hand():
    # gray pixels / (H·W·3) for a non-gray image placed 8→10°: canvas round(1.25·w) × round(1.25·h)
    w, h = 1855, 1237
    image = noise_image(w, h, seed=1)
    placed = np.asarray(apply_ratio(image, 10 / 8))
    tw, th = int(np.round(1.25 * w)), int(np.round(1.25 * h))  # 2319 (2318.75), 1546 (1546.25)
    assert placed.shape == (th, tw, 3)
    expected = (tw * th - w * h) / (tw * th * 3)
    assert gray_mask(placed).sum() / placed.size == pytest.approx(expected, abs=1e-12)
    # square case close to the analytic (1 - (1/1.25)^2) / 3
    square = np.asarray(apply_ratio(noise_image(400, 400), 10 / 8))
    assert square.shape == (500, 500, 3)
    assert gray_mask(square).sum() / square.size == pytest.approx((1 - (1 / 1.25) ** 2) / 3, abs=1e-12)


@pytest.mark.parametrize("size, ratio, target, corner", [
    ((5, 5), 1.5, (8, 8), (2, 2)),     # 7.5 → 8 (half to even); corner round(1.5) = 2
    ((3, 3), 1.5, (4, 4), (0, 0)),     # 4.5 → 4 (half to even); corner round(0.5) = 0
    ((7, 5), 1.5, (10, 8), (2, 2)),    # 10.5 → 10, 7.5 → 8; corners round(1.5)=2, round(1.5)=2
    ((11, 4), 1.0, (11, 4), (0, 0)),   # ratio 1: same size, image unchanged
])
def test_paste_is_unscaled_and_centred(size, ratio, target, corner):
    image = noise_image(*size, seed=2)
    placed = np.asarray(apply_ratio(image, ratio))
    assert placed.shape == (target[1], target[0], 3)
    x0, y0 = corner
    w, h = size
    np.testing.assert_array_equal(placed[y0:y0 + h, x0:x0 + w], np.asarray(image))
    outside = np.ones(placed.shape[:2], bool)
    outside[y0:y0 + h, x0:x0 + w] = False
    assert (placed[outside] == 128).all()


@pytest.mark.parametrize("size, ratio, crop, corner", [
    ((10, 10), 0.25, (2, 2), (4, 4)),    # 2.5 → 2; left round(4) = 4
    ((10, 10), 0.35, (4, 4), (3, 3)),    # 3.5 → 4; left round(3) = 3
    ((9, 6), 0.5, (4, 3), (2, 2)),       # 4.5 → 4, 3; left round(2.5) = 2, upper round(1.5) = 2
    ((1855, 1855), 0.8, (1484, 1484), (186, 186)),  # round(185.5) = 186
])
def test_crop_is_centred(size, ratio, crop, corner):
    image = noise_image(*size, seed=3)
    cropped = np.asarray(apply_ratio(image, ratio))
    x0, y0 = corner
    np.testing.assert_array_equal(cropped, np.asarray(image)[y0:y0 + crop[1], x0:x0 + crop[0]])


def test_placed_identifier_format():
    assert placed_identifier("hvm-private", 10, 8) == "hvm-private--target10.00--source8.00"
    assert placed_identifier("SyntheticShapes", 8, 10) == "SyntheticShapes--target8.00--source10.00"
    # degrees with more decimals are written exactly, not as Brain-Score's id rounds them (test_screen_degrees.py)
    assert placed_identifier("x", 8.125, 4) == "x--target8.125--source4.00"


def make_stimulus_folder(folder, sizes, mode="RGB"):
    (folder / "images").mkdir(parents=True)
    rows = []
    for index, size in enumerate(sizes):
        name = f"images/im{index}.png"
        noise_image(*size, seed=index, mode=mode).save(folder / name)
        rows.append(dict(stimulus_id=f"{index:04d}", filename=name, object_name=f"o{index % 2}"))
    pd.DataFrame(rows).to_csv(folder / "stimuli.csv", index=False)
    return rows


@pytest.mark.parametrize("target, source", [(10, 8), (8, 10)])
def test_place_on_screen_folder(tmp_path, target, source):
    rows = make_stimulus_folder(tmp_path / "in", [(40, 40), (30, 20)])
    place_on_screen(tmp_path / "in", tmp_path / "out", target, source)
    table = pd.read_csv(tmp_path / "out" / "stimuli.csv", dtype={"stimulus_id": str})
    assert table["stimulus_id"].tolist() == [r["stimulus_id"] for r in rows]
    assert table["filename"].tolist() == [r["filename"] for r in rows]
    assert (table["degrees"] == target).all()
    assert "path" not in table.columns
    for row in rows:
        original = Image.open(tmp_path / "in" / row["filename"])
        placed = Image.open(tmp_path / "out" / row["filename"])
        expected = apply_ratio(original.convert("RGB"), target / source)
        np.testing.assert_array_equal(np.asarray(placed.convert("RGB")), np.asarray(expected))


def test_place_on_screen_grayscale_input_gets_gray_canvas(tmp_path):
    make_stimulus_folder(tmp_path / "in", [(20, 20)], mode="L")
    place_on_screen(tmp_path / "in", tmp_path / "out", 10, 8)
    placed = np.asarray(Image.open(tmp_path / "out" / "images/im0.png").convert("RGB"))
    assert placed.shape == (25, 25, 3)
    assert (placed[0, 0] == 128).all()


def test_place_on_screen_rejects_bad_degrees(tmp_path):
    make_stimulus_folder(tmp_path / "in", [(8, 8)])
    with pytest.raises(ValueError, match="positive"):
        place_on_screen(tmp_path / "in", tmp_path / "out", 0, 8)


def test_place_on_screen_unreadable_image(tmp_path):
    make_stimulus_folder(tmp_path / "in", [(8, 8)])
    (tmp_path / "in" / "images/im0.png").write_bytes(b"not a png")
    with pytest.raises(ValueError, match="im0.png"):
        place_on_screen(tmp_path / "in", tmp_path / "out", 10, 8)
