"""Score files and checks shared by the report tests."""


def headline(model, benchmark, score, layer="l", error=0.01, per_fold=(0.3, 0.4, 0.5), **extra):
    return {"model": model, "benchmark": benchmark, "score": score, "raw": 0.4, "ceiling": 0.8, "error": error,
            "layer": layer, "per_fold": list(per_fold), **extra}


def is_png(path):
    data = path.read_bytes()
    return len(data) > 1000 and data[:8] == b"\x89PNG\r\n\x1a\n"
