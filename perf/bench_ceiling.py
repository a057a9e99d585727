"""Time the split-half ceiling at MajajHong2015-public size against the per-split code it replaced.

Usage::

    .venv/bin/python perf/bench_ceiling.py              # 3200 stimuli × 44 repetitions × 168 neuroids
    .venv/bin/python perf/bench_ceiling.py --scale 0.1  # 320 stimuli
    .venv/bin/python perf/bench_ceiling.py --no-legacy  # only the fast code

Data: float32 trials (as prepare_assembly writes them), shuffled presentation order, signal + noise per neuroid.
``legacy`` is the previous implementation (tests/test_ceiling.py::legacy_internal_consistency); the per-split
values must agree exactly.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import xarray as xr

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def trials(n_stimuli, n_reps, n_neuroids, seed=0):
    rng = np.random.default_rng(seed)
    stim = np.tile(np.arange(n_stimuli), n_reps)
    order = rng.permutation(len(stim))
    values = rng.normal(size=(n_stimuli, n_neuroids))[stim] + 2 * rng.normal(size=(len(stim), n_neuroids))
    return xr.DataArray(values[order].astype(np.float32), dims=("presentation", "neuroid"),
                        coords={"stimulus_id": ("presentation", np.array([f"s{k:05d}" for k in stim[order]])),
                                "repetition": ("presentation", np.repeat(np.arange(n_reps), n_stimuli)[order]),
                                "neuroid_id": ("neuroid", [f"n{k}" for k in range(n_neuroids)])})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the 3200 stimuli")
    parser.add_argument("--repetitions", type=int, default=44)
    parser.add_argument("--neuroids", type=int, default=168)
    parser.add_argument("--no-legacy", action="store_true", help="skip the slow previous implementation")
    args = parser.parse_args()
    data = trials(max(2, round(3200 * args.scale)), args.repetitions, args.neuroids)
    print(f"trials: {data.sizes['presentation']} presentations × {data.sizes['neuroid']} neuroids "
          f"({data.nbytes / 2**20:.0f} MiB float32)")
    from brainpipe.neural.ceiling import internal_consistency

    started = time.perf_counter()
    new = internal_consistency(data)
    seconds = time.perf_counter() - started
    print(f"vectorised: {seconds:6.2f} s  ceiling {new['ceiling']:.6f}")
    if not args.no_legacy:
        from test_ceiling import legacy_internal_consistency

        started = time.perf_counter()
        old = legacy_internal_consistency(data)
        legacy_seconds = time.perf_counter() - started
        difference = np.max(np.abs(np.subtract(new["per_split"], old["per_split"])))
        print(f"legacy:     {legacy_seconds:6.2f} s  ceiling {old['ceiling']:.6f}  "
              f"max |per-split difference| {difference:.1e}  speed-up {legacy_seconds / seconds:.1f}×")
    load = open("/proc/loadavg").read().split()[:3] if Path("/proc/loadavg").exists() else ["?"]
    print(f"machine load (1/5/15 min): {' '.join(load)}")


if __name__ == "__main__":
    main()
