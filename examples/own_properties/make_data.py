"""Make the files of a small "own properties benchmark" (README, "Your own benchmark → properties").

Writes into the folder given (default: here) what a lab would have after an experiment:
* images/ and stimuli.csv: drifting-grating stand-ins at the screen centre (spatial frequency × orientation ×
  phase, the grating columns a property set reads; brainpipe.properties.demo draws them);
* properties.csv: one row per recorded neuron, one column per property (here drawn from known distributions:
  circular variance ~ beta(2, 2.5), bandwidth ~ gamma(4, 6) degrees, peak_rate ~ lognormal(3, 0.5) spikes/s);
* bins.yaml: the bin edges each property is compared on.

Then package and declare them (commands in README "Your own benchmark → properties")::

    python examples/own_properties/make_data.py my_tuning
    brainpipe package --name MyTuning --images my_tuning/images --stimuli my_tuning/stimuli.csv \\
        --properties my_tuning/properties.csv --bins my_tuning/bins.yaml --property-set ringach2002 \\
        --measures or_bandwidth=bandwidth,circular_variance=circular_variance --neurons SyntheticGratings \\
        --visual-degrees 8 --out my_tuning/packaged
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from brainpipe.properties import demo


def main(folder: Path, n_neurons: int = 200, seed: int = 0):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "images").mkdir(exist_ok=True)
    table, images = demo.generate_stimuli("orientation", image_size=96)
    for filename, image in zip(table.filename, images):
        image.save(folder / filename)
    table["filename"] = [Path(f).name for f in table.filename]  # relative to the image folder
    table.drop(columns=["degrees"]).to_csv(folder / "stimuli.csv", index=False)
    rng = np.random.default_rng(seed)
    pd.DataFrame({"neuroid_id": [f"n{i:03d}" for i in range(n_neurons)],
                  "circular_variance": rng.beta(2.0, 2.5, n_neurons),
                  "bandwidth": np.clip(rng.gamma(4.0, 6.0, n_neurons), 5, 90),
                  "peak_rate": rng.lognormal(3.0, 0.5, n_neurons)}).to_csv(folder / "properties.csv", index=False)
    bins = {"circular_variance": np.linspace(0, 1, 14).tolist(), "bandwidth": np.linspace(0, 90, 18).tolist(),
            "peak_rate": np.logspace(0, 3, 10).tolist()}
    (folder / "bins.yaml").write_text(yaml.safe_dump(bins))
    print(f"wrote {len(table)} stimuli and {n_neurons} neurons' properties into {folder}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent))
