"""brainpipe.pipeline.logs.logged: output to the log; a failure puts the traceback in the log and one message on stderr."""

import re
import sys

import pytest

from brainpipe.pipeline.logs import logged


def test_output_goes_to_log(tmp_path, capsys):
    log = tmp_path / "logs" / "stage.log"
    with logged(log, "stage"):
        print("to stdout")
        print("to stderr", file=sys.stderr)
    lines = log.read_text().splitlines()
    assert lines[:2] == ["to stdout", "to stderr"]
    assert re.fullmatch(r"peak memory \(resident\): \d+ MB this process, \d+ MB its largest child process", lines[2])
    captured = capsys.readouterr()
    assert "to stdout" not in captured.out + captured.err


def test_failure_traceback_in_log_message_on_stderr(tmp_path, capsys):
    log = tmp_path / "stage.log"
    with pytest.raises(SystemExit) as exit_info:
        with logged(log, "fit_fold"):
            print("progress line")
            raise ValueError("input.nc: missing coordinate 'stimulus_id'")
    assert exit_info.value.code == 1
    text = log.read_text()
    assert "progress line" in text
    assert "Traceback (most recent call last)" in text and "ValueError: input.nc: missing coordinate" in text
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip() == f"brainpipe fit_fold failed: input.nc: missing coordinate 'stimulus_id' (traceback: {log})"


def test_stderr_restored(tmp_path):
    before = sys.stderr
    with pytest.raises(SystemExit):
        with logged(tmp_path / "a.log", "x"):
            raise RuntimeError("boom")
    assert sys.stderr is before
    with logged(tmp_path / "b.log", "x"):
        pass
    assert sys.stderr is before


def test_stdout_restored(tmp_path):
    before = sys.stdout
    try:
        with logged(tmp_path / "a.log", "x"):
            pass
        assert sys.stdout is before
    finally:
        sys.stdout = before
