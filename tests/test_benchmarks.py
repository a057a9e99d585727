"""brainpipe.benchmarks: identifiers and Brain-Score's constants (brain-score/vision brainscore_vision/benchmarks/majajhong2015/)."""

import pytest

from brainpipe.benchmarks import FAMILIES, METRICS, parse, with_access


def test_parse_majajhong():
    benchmark = parse("MajajHong2015public.IT-pls")
    assert (benchmark.family_name, benchmark.region, benchmark.metric) == ("MajajHong2015public", "IT", "pls")
    family = benchmark.family
    assert family.visual_degrees == 8 and family.number_of_trials == 50
    assert family.stratification == "object_name" and family.time_window == (70, 170)
    assert benchmark.kind == "regression" and benchmark.n_folds == 10


@pytest.mark.parametrize("identifier, kind, folds", [
    ("SyntheticShapes.V4-rdm_cv", "representational", 10),
    ("SyntheticShapes.V4-rdm", "representational", 1),
    ("SyntheticShapes.V4-cka", "representational", 1),
    ("SyntheticShapes.V4-ridge_split", "regression", 1),
    ("SyntheticShapes.IT-spantime_pls", "temporal", 10),
])
def test_kinds_and_folds(identifier, kind, folds):
    benchmark = parse(identifier)
    assert benchmark.kind == kind and benchmark.n_folds == folds


@pytest.mark.parametrize("identifier, message", [
    ("MajajHong2015-IT.pls", "expected"),
    ("Nope2020.IT-pls", "unknown family 'Nope2020'"),
    ("MajajHong2015.V1-pls", "no region 'V1'"),
    ("MajajHong2015.IT-svm", "unknown metric 'svm'"),
    ("MajajHong2015.IT-spantime_pls", "needs time-resolved recordings"),
    ("FreemanZiemba2013.V1-ridge_split", "needs a fixed train/test split"),
])
def test_parse_errors(identifier, message):
    with pytest.raises(ValueError, match=message):
        parse(identifier)


def test_settings():
    benchmark = parse("SyntheticShapes.IT-pls", {"splits": 3})
    assert benchmark.n_folds == 3 and benchmark.visual_degrees == 10
    assert parse("SyntheticShapes.IT-pls", {"visual_degrees": 4}).visual_degrees == 4


def test_private_split():
    public = parse("MajajHong2015.IT-pls")
    assert public.family.dataset == "MajajHong2015.public" and public.family.stimulus_set == "hvm-public"
    private = with_access(public, "private")
    assert private.family.dataset == "MajajHong2015.private" and private.family.stimulus_set == "hvm-private"
    assert with_access(public, "public") == public
    with pytest.raises(ValueError, match="no private recordings"):
        with_access(parse("MajajHong2015public.IT-pls"), "private")
    with pytest.raises(ValueError, match="no private recordings"):
        with_access(parse("SyntheticShapes.IT-pls"), "private")
    with pytest.raises(ValueError, match="'public' or 'private'"):
        with_access(public, "secret")


def test_freemanziemba_constants():
    family = FAMILIES["FreemanZiemba2013"]
    assert family.visual_degrees == 4 and family.time_window == (50, 200)
    assert family.stratification == "texture_type" and family.regions == ("V1", "V2")
    assert len(set(METRICS)) == len(METRICS)
