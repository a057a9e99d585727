"""Shared by the benchmark scripts: run a measurement in its own process, and read its own peak RSS there
(Linux /proc), so one implementation's memory never counts against another's."""

import json
import subprocess
import sys


def reset_peak_rss() -> None:
    """Reset the kernel's peak-RSS mark (VmHWM) so the next reading covers only what runs after this call."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def status_bytes(key: str) -> int:
    """A /proc/self/status memory field (VmRSS, VmHWM, ...) in bytes; 0 where unavailable."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_worker(script, args, label, timeout):
    """Run ``script --worker *args`` in a fresh Python; return the JSON of its last output line, None on timeout."""
    command = [sys.executable, str(script), "--worker", *map(str, args)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        raise RuntimeError(f"{label} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
