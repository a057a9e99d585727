"""Stand-ins for the data of issue 25's remaining neural benchmarks, in the real formats under the real object names.

* ``MajajHong2015public.{V4,IT}-reverse_pls`` (Brain-Score's muzellec2026 plugin) read MajajHong2015's public
  split: tests/brainio_fixtures.py writes it (``assy_dicarlo_MajajHong2015_public.nc``, ``stimulus_hvm-public``),
  here with enough neuroids per region for 25 PLS components predicting the model (Brain-Score's PLSRegression
  refuses more components than the recordings have neuroids: 88 V4 and 168 IT in the real file) and four
  repetitions per image (the split-half ceiling draws halves of each image's repetitions).
* ``Bracci2019_RSA-{V1,posteriorVTC}`` read Bracci2019's file: tests/neural_family_fixtures.py's ``bracci2019_store``
  (its format notes there; V1, posterior and anterior VTC voxels of 12 subjects).
"""

from __future__ import annotations

import brainio_fixtures as bf
import neural_family_fixtures

#: MajajHong2015 public split: 160 images (16 objects), 4 repetitions, 28 V4 and 30 IT neuroids.
MAJAJ_REVERSE_SCALE = dict(reps=4, v4=28, it=30)


def majaj_reverse_store(root, seed: int = 0) -> dict[str, str]:
    """Write assy_dicarlo_MajajHong2015_public.nc and stimulus_hvm-public.csv/.zip into ``root``; name -> sha1."""
    return bf.write_fixture_store(root, scale=MAJAJ_REVERSE_SCALE, datasets=("MajajHong2015.public",), seed=seed)


#: Every store of this module: the reference script and the tests write the same files.
STORES = (majaj_reverse_store, neural_family_fixtures.bracci2019_store)


def write_all(root) -> dict[str, str]:
    sums = {}
    for store in STORES:
        sums.update(store(root))
    return sums


if __name__ == "__main__":  # python tests/neural_rest_fixtures.py OUT_DIR: write the files (for the reference)
    import json
    import sys

    print(json.dumps(write_all(sys.argv[1]), indent=1))
