"""Which of Brain-Score 2.4.2's benchmark identifiers brainpipe has, kept exact in two fixture files.

src/brainpipe/benchmarks/brainscore_identifiers_2.4.2.txt (what the selector `suite:brainscore` names): the
benchmark_registry keys of brain-score/vision 2.4.2's brainscore_vision/benchmarks/*/__init__.py, one a line. tests/data/brainscore_identifiers_missing.txt: those that
brainpipe's built-in families do not provide yet. The test fails both when a family adds identifiers (delete their
lines from the missing list) and when one disappears, so the list always says where brainpipe stands.
"""

from pathlib import Path

from brainpipe import benchmarks

DATA = Path(__file__).parent / "data"
LIBRARY = Path(__file__).parents[1] / "src" / "brainpipe" / "benchmarks"


def _identifiers(name):
    lines = (LIBRARY / name if (LIBRARY / name).is_file() else DATA / name).read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_brainscore_list_is_the_2_4_2_registry():
    brainscore = _identifiers("brainscore_identifiers_2.4.2.txt")
    assert len(brainscore) == len(set(brainscore)) == 291
    assert "MajajHong2015public.IT-pls" in brainscore and "Kar2019-ost" in brainscore


def test_missing_list_is_exactly_what_brainpipe_lacks():
    brainscore = _identifiers("brainscore_identifiers_2.4.2.txt")
    ours = set(benchmarks.builtin().identifiers())
    missing = _identifiers("brainscore_identifiers_missing.txt")
    assert set(missing) <= set(brainscore), f"not Brain-Score identifiers: {sorted(set(missing) - set(brainscore))}"
    now_provided = sorted(set(missing) & ours)
    assert not now_provided, f"brainpipe now has these: delete them from brainscore_identifiers_missing.txt: {now_provided}"
    lost = sorted(set(brainscore) - ours - set(missing))
    assert not lost, f"brainpipe no longer provides these Brain-Score identifiers: {lost}"
    print(f"\nbrainpipe has {len(brainscore) - len(missing)} of Brain-Score 2.4.2's {len(brainscore)} identifiers")
