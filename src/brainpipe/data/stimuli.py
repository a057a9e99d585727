"""Stimulus sets on disk: a folder with ``stimuli.csv`` (stimulus_id, filename, metadata columns) and the images.

``filename`` is relative to the folder. This is brainpipe's one stimulus format; the demo generator and the
Brain-Score fetcher both write it, and place_on_screen writes a copy of it.
"""

from pathlib import Path

import pandas as pd
from PIL import Image

CSV_NAME = "stimuli.csv"
REQUIRED_COLUMNS = ("stimulus_id", "filename")


def read_stimulus_set(folder, check_files=True) -> pd.DataFrame:
    """Read ``folder/stimuli.csv``; add an absolute ``path`` column; check every image exists.

    Raises FileNotFoundError / ValueError naming the folder and what is wrong.
    """
    folder = Path(folder)
    csv = folder / CSV_NAME
    if not csv.exists():
        raise FileNotFoundError(f"{csv}: stimulus set has no {CSV_NAME}")
    table = pd.read_csv(csv, dtype={"stimulus_id": str})
    missing = [column for column in REQUIRED_COLUMNS if column not in table.columns]
    if missing:
        raise ValueError(f"{csv}: missing column(s) {missing}; have {list(table.columns)}")
    duplicated = table["stimulus_id"][table["stimulus_id"].duplicated()].unique()
    if len(duplicated):
        raise ValueError(f"{csv}: duplicate stimulus_id values, e.g. {list(duplicated[:3])}")
    table["path"] = [str(folder / name) for name in table["filename"]]
    if check_files:
        absent = [path for path in table["path"] if not Path(path).is_file()]
        if absent:
            raise FileNotFoundError(f"{csv}: {len(absent)} image file(s) missing, e.g. {absent[:3]}")
    return table


def write_stimulus_table(table: pd.DataFrame, folder) -> None:
    """Write the CSV of a stimulus set (without the absolute ``path`` column)."""
    table.drop(columns=["path"], errors="ignore").to_csv(Path(folder) / CSV_NAME, index=False)


def load_image(path) -> Image.Image:
    """Open an image as RGB the way Brain-Score does: modes with L, A or P are pasted onto an RGB canvas."""
    try:
        image = Image.open(path)
        image.load()
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: cannot read image ({error})") from None
    if image.mode == "RGB":
        return image
    # brain-score/vision model_helpers/activations/pytorch.py: L/A/P modes pasted on a new RGB image.
    canvas = Image.new("RGB", image.size)
    canvas.paste(image)
    return canvas
