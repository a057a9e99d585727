"""brainpipe.behaviour.stages.task_inputs: the task job reads each file the rule gives it, and only those."""

import numpy as np
import pandas as pd
import xarray as xr

from brainpipe.behaviour import stages
from brainpipe.data.stimuli import CSV_NAME
from brainpipe.io import write_netcdf


def _layer(path, ids):
    features = xr.DataArray(np.arange(len(ids) * 2, dtype=np.float32).reshape(len(ids), 2),
                            dims=("presentation", "neuroid"),
                            coords={"stimulus_id": ("presentation", np.array(ids, dtype=object))})
    write_netcdf(features, path)
    return features


def _stimuli(folder, ids):
    folder.mkdir()
    pd.DataFrame({"stimulus_id": ids, "filename": [f"{i}.png" for i in ids]}).to_csv(folder / CSV_NAME, index=False)
    return str(folder)


def test_task_inputs_reads_the_files_it_is_given(tmp_path):
    features = _layer(tmp_path / "test.nc", ["001", "002"])  # ids that read as numbers stay text
    only = stages.task_inputs({"features": str(tmp_path / "test.nc")})
    assert list(only) == ["features"] and (only["features"].values == features.values).all()
    fitting = _layer(tmp_path / "fitting.nc", ["f1", "f2", "f3"])
    human = _layer(tmp_path / "human.nc", ["001"])
    paths = {"features": str(tmp_path / "test.nc"), "fitting": str(tmp_path / "fitting.nc"),
             "fitting_stimuli": _stimuli(tmp_path / "fit_set", ["f1", "f2", "f3"]),
             "test_stimuli": _stimuli(tmp_path / "test_set", ["001", "002"]),
             "base": str(tmp_path / "fitting.nc"), "base_stimuli": _stimuli(tmp_path / "base_set", ["f1"]),
             "human": str(tmp_path / "human.nc")}
    read = stages.task_inputs(paths)
    assert set(read) == {"features", "fitting_features", "fitting_table", "test_table", "base_features",
                         "base_table", "human"}
    assert (read["fitting_features"].values == fitting.values).all() and (read["human"].values == human.values).all()
    assert list(read["test_table"]["stimulus_id"]) == ["001", "002"]
    assert read["fitting_table"].attrs["source"] == f"{paths['fitting_stimuli']}/{CSV_NAME}"
    assert read["human"].attrs["source"] == paths["human"]
