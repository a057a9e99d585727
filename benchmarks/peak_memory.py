"""Peak-memory probes shared by the benchmark scripts (Linux /proc): measure one phase's own peak RSS."""


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
