"""Sources are cited by their upstream repository and path, never by files outside this repository."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Built from parts so this file does not match itself.
FORBIDDEN = ("../" + "shared/", "/work/" + "shared/", "brainscore-" + "facts")
FOLDERS = ("src", "workflow", "tests", "perf", "config", "profiles", ".ci", "docs")


def test_no_citation_of_files_outside_the_repository():
    files = [ROOT / "README.md", ROOT / "Snakefile", ROOT / "Makefile", ROOT / "mkdocs.yml"]
    for folder in FOLDERS:
        files += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in (".py", ".smk", ".md", ".yaml",
                                                                                      ".sh", ".rst", "")]
    hits = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for path in files if "__pycache__" not in path.parts
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
            if any(text in line for text in FORBIDDEN)]
    assert not hits, "cite the upstream source (e.g. brain-score/vision <path>) instead of:\n" + "\n".join(hits)
