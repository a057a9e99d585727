"""place_on_screen: show a stimulus set at the model's visual angle, exactly as Brain-Score does.

Source: brain-score/vision benchmark_helpers/screen.py (ImageConverter.apply_ratio). ratio = model degrees /
benchmark degrees; target size = numpy-round(ratio × size) (half to even). ratio ≥ 1: the image, unscaled, pasted
on a (128, 128, 128) canvas of the target size at round((target − size) / 2); ratio < 1: a centre crop of the
target size. The model's own preprocessing then resizes the whole result.
"""

from pathlib import Path

import numpy as np
from PIL import Image

from .stimuli import read_stimulus_set, write_stimulus_table

GRAY = (128, 128, 128)  # PIL colour 'gray'


def degrees_text(degrees) -> str:
    """The degrees as a placed folder's name writes them: two decimals (Brain-Score's ``:.2f``) where that is the
    exact value, else every digit the value needs (2.986667, not 2.99). A folder name is then never shared by two
    different degrees, and :func:`placement_degrees` reads back the exact value the images were placed at."""
    degrees = float(degrees)
    two = f"{degrees:.2f}"
    return two if float(two) == degrees else np.format_float_positional(degrees, unique=True, trim="-")


def placed_identifier(stimulus_set, target_degrees, source_degrees):
    """The placed set's folder name: Brain-Score's id f"{id}--target{target:.2f}--source{source:.2f}" where both
    degrees have at most two decimals, the exact degrees otherwise (:func:`degrees_text`). Brain-Score places at
    the exact degrees whatever its id says (Malania2007's 2.986667° is 343 px for 128 at 8°, 2.99° would be 342)."""
    return f"{stimulus_set}--target{degrees_text(target_degrees)}--source{degrees_text(source_degrees)}"


def placement_degrees(text) -> float:
    """The exact degrees a placed folder's name (its ``--target``/``--source`` part) stands for; ValueError for a
    name brainpipe does not write (e.g. ``2.99`` for 2.986667°, or ``8.0``), which would place at other degrees."""
    try:
        degrees = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"visual degrees {text!r} in a placed folder's name: not a number") from None
    if not degrees > 0 or degrees_text(degrees) != text:
        raise ValueError(f"visual degrees {text!r} in a placed folder's name: brainpipe names these degrees "
                         f"{degrees_text(degrees)!r} (placed_identifier); ask for the folder it plans "
                         f"(results/stimuli_on_screen/<set>--target<model degrees>--source<benchmark degrees>)")
    return degrees


def apply_ratio(image: Image.Image, ratio: float) -> Image.Image:
    size = np.array(image.size)
    target_size = np.round(ratio * size).astype(int)
    if ratio >= 1:
        canvas = Image.new("RGB", tuple(int(v) for v in target_size), GRAY)
        corner = np.round((target_size - size) / 2).astype(int)
        canvas.paste(image, tuple(int(v) for v in corner))
        return canvas
    left, upper = np.round((size - target_size) / 2).astype(int)
    return image.crop((int(left), int(upper), int(left + target_size[0]), int(upper + target_size[1])))


def place_on_screen(stimuli_folder, output_folder, target_degrees, source_degrees):
    """Write the placed copy of ``stimuli_folder`` into ``output_folder`` (same file names, same CSV)."""
    if target_degrees <= 0 or source_degrees <= 0:
        raise ValueError(f"visual degrees must be positive, got target {target_degrees}, source {source_degrees}")
    table = read_stimulus_set(stimuli_folder)
    ratio = target_degrees / source_degrees
    output_folder = Path(output_folder)
    for filename, path in zip(table["filename"], table["path"]):
        destination = output_folder / filename
        destination.parent.mkdir(parents=True, exist_ok=True)
        try:
            image = Image.open(path)
            image.load()
        except OSError as error:
            raise ValueError(f"{path}: cannot read image ({error})") from None
        if image.mode != "RGB" and ratio >= 1:
            image = image.convert("RGB")  # the canvas is RGB; PIL would convert on paste anyway
        apply_ratio(image, ratio).save(destination)
    write_stimulus_table(table.assign(degrees=target_degrees), output_folder)
    return table
