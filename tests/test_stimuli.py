"""brainpipe.data.stimuli: the on-disk stimulus-set format and Brain-Score's RGB loading rule."""

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from brainpipe.data.stimuli import CSV_NAME, load_image, read_stimulus_set, write_stimulus_table


def make_set(folder, ids=("0015b49a", "00ff", "abc"), extra=None):
    (folder / "img").mkdir(parents=True, exist_ok=True)
    rows = []
    for k, stimulus_id in enumerate(ids):
        Image.new("RGB", (4, 4), (k, 2 * k, 3 * k)).save(folder / "img" / f"{k}.png")
        rows.append(dict(stimulus_id=stimulus_id, filename=f"img/{k}.png", object_name=f"o{k}", **(extra or {})))
    pd.DataFrame(rows).to_csv(folder / CSV_NAME, index=False)


def test_read_adds_paths_and_keeps_ids_as_strings(tmp_path):
    make_set(tmp_path, ids=("0015", "1e5", "007"))  # would become numbers if parsed naively
    table = read_stimulus_set(tmp_path)
    assert table["stimulus_id"].tolist() == ["0015", "1e5", "007"]
    assert table["path"].tolist() == [str(tmp_path / f"img/{k}.png") for k in range(3)]
    assert table["object_name"].tolist() == ["o0", "o1", "o2"]


def test_missing_csv(tmp_path):
    with pytest.raises(FileNotFoundError, match=CSV_NAME):
        read_stimulus_set(tmp_path)


def test_missing_column(tmp_path):
    make_set(tmp_path)
    table = pd.read_csv(tmp_path / CSV_NAME).drop(columns="filename")
    table.to_csv(tmp_path / CSV_NAME, index=False)
    with pytest.raises(ValueError, match="filename"):
        read_stimulus_set(tmp_path)


def test_duplicate_ids(tmp_path):
    make_set(tmp_path, ids=("a", "b", "a"))
    with pytest.raises(ValueError, match="duplicate"):
        read_stimulus_set(tmp_path)


def test_missing_image_named(tmp_path):
    make_set(tmp_path)
    (tmp_path / "img" / "1.png").unlink()
    with pytest.raises(FileNotFoundError, match="1.png"):
        read_stimulus_set(tmp_path)
    assert len(read_stimulus_set(tmp_path, check_files=False)) == 3


def test_write_table_roundtrip_without_path(tmp_path):
    make_set(tmp_path)
    table = read_stimulus_set(tmp_path)
    out = tmp_path / "copy"
    out.mkdir()
    write_stimulus_table(table.assign(degrees=8), out)
    written = pd.read_csv(out / CSV_NAME, dtype={"stimulus_id": str})
    assert "path" not in written.columns
    assert written["stimulus_id"].tolist() == table["stimulus_id"].tolist()
    assert (written["degrees"] == 8).all()


def test_load_image_rgb_unchanged(tmp_path):
    data = np.random.default_rng(0).integers(0, 256, size=(5, 6, 3), dtype=np.uint8)
    Image.fromarray(data, "RGB").save(tmp_path / "a.png")
    image = load_image(tmp_path / "a.png")
    assert image.mode == "RGB"
    np.testing.assert_array_equal(np.asarray(image), data)


def test_load_image_grayscale_and_palette(tmp_path):
    gray = np.arange(30, dtype=np.uint8).reshape(5, 6) * 8
    Image.fromarray(gray, "L").save(tmp_path / "l.png")
    image = load_image(tmp_path / "l.png")
    assert image.mode == "RGB"
    np.testing.assert_array_equal(np.asarray(image), np.repeat(gray[:, :, None], 3, axis=2))
    rgb = np.random.default_rng(1).integers(0, 256, size=(4, 4, 3), dtype=np.uint8)
    Image.fromarray(rgb, "RGB").convert("P").save(tmp_path / "p.png")
    palette = Image.open(tmp_path / "p.png")
    assert palette.mode == "P"
    np.testing.assert_array_equal(np.asarray(load_image(tmp_path / "p.png")), np.asarray(palette.convert("RGB")))


def test_load_image_rgba_pasted_on_rgb(tmp_path):
    # Brain-Score: Image.new("RGB", size).paste(image) — the colour channels are copied, alpha dropped
    rgba = np.random.default_rng(2).integers(0, 256, size=(4, 4, 4), dtype=np.uint8)
    Image.fromarray(rgba, "RGBA").save(tmp_path / "a.png")
    image = load_image(tmp_path / "a.png")
    reference = Image.new("RGB", (4, 4))
    reference.paste(Image.open(tmp_path / "a.png"))
    assert image.mode == "RGB"
    np.testing.assert_array_equal(np.asarray(image), np.asarray(reference))


def test_load_image_unreadable_named(tmp_path):
    (tmp_path / "bad.png").write_bytes(b"garbage")
    with pytest.raises(ValueError, match="bad.png"):
        load_image(tmp_path / "bad.png")
