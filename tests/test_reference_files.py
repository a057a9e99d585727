"""A missing, unreadable or empty reference file stops the comparison naming the file (never a silent skip)."""

import json

import pytest

from reference_files import reference_numbers


def test_a_missing_file_names_itself_and_its_maker(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"zerbe2026_reference.json: no reference numbers; write them with "
                                                r"tests/reference/make_zerbe2026_reference.py"):
        reference_numbers(tmp_path / "zerbe2026_reference.json")


@pytest.mark.parametrize("content, message", [("{", "not JSON"), ('{"benchmarks": {}}', "no benchmark"),
                                              ("{}", "no benchmark")])
def test_unreadable_or_empty_files_are_errors(tmp_path, content, message):
    path = tmp_path / "kato2026_reference.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        reference_numbers(path)


def test_stored_numbers_are_returned(tmp_path):
    path = tmp_path / "x_reference.json"
    path.write_text(json.dumps({"benchmarks": {"X-pls": {"score": 0.5}}}))
    assert reference_numbers(path)["benchmarks"]["X-pls"]["score"] == 0.5
