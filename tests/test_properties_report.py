"""The leaderboard nests Brain-Score's V1 sub-parents of the properties benchmarks under V1 (not under behavior,
although their identifiers have no region like behavioural ones)."""

import pytest

from brainpipe.pipeline.report import aggregation, leaderboard


def headlines():
    return [dict(model="m", benchmark="SyntheticShapes.IT-pls", score=0.5),
            dict(model="m", benchmark="Marques2020_Ringach2002-or_bandwidth", score=0.8, parent="V1-orientation",
                 metric="ks_similarity"),
            dict(model="m", benchmark="Marques2020_Ringach2002-circular_variance", score=0.4,
                 parent="V1-orientation", metric="ks_similarity"),
            dict(model="m", benchmark="Marques2020_Ringach2002-max_dc", score=0.2, parent="V1-response_magnitude",
                 metric="ks_similarity"),
            dict(model="m", benchmark="SyntheticShapesBehaviour-i2n", score=0.3, parent="behavior", metric="i2n")]


def test_v1_subparents_count_in_v1_and_v1_in_the_average():
    columns = aggregation(headlines(), [h["benchmark"] for h in headlines()])
    assert columns["V1-orientation (mean)"] == (["Marques2020_Ringach2002-or_bandwidth",
                                                 "Marques2020_Ringach2002-circular_variance"], False)
    assert columns["V1 (mean)"] == (["V1-orientation (mean)", "V1-response_magnitude (mean)"], True)
    assert columns["behavior (mean)"] == (["SyntheticShapesBehaviour-i2n"], True)
    order = list(columns)
    assert order.index("V1-orientation (mean)") < order.index("V1 (mean)")
    table = leaderboard(headlines(), {})
    assert table.loc["m", "V1-orientation (mean)"] == pytest.approx(0.6)
    assert table.loc["m", "V1 (mean)"] == pytest.approx((0.6 + 0.2) / 2)
    assert table.loc["m", "average"] == pytest.approx((0.5 + 0.4 + 0.3) / 3)
