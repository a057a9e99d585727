"""The documentation as the tests read it: README.md and the pages of docs/ (the MkDocs site's sources). Tests that
check a command or a code block "of the README" find it wherever it now lives: in README.md or in a docs/ page."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def pages():
    """README.md, then every Markdown page of docs/ (sorted): the files whose commands the tests exercise."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def text():
    """All of them as one text (for a search that does not care which page holds a sentence)."""
    return "\n".join(path.read_text() for path in pages())


def _headings(lines):
    """(index, level, title) of each Markdown heading outside code fences."""
    fence = False
    for index, line in enumerate(lines):
        if line.startswith("```"):
            fence = not fence
        match = None if fence else re.match(r"(#{1,6}) (.+?)\s*$", line)
        if match:
            yield index, len(match.group(1)), match.group(2)


def section(title):
    """The body of the one section headed ``title`` (any level, any page) up to the next heading of the same or a
    higher level; AssertionError when no page or several pages have it."""
    found = []
    for path in pages():
        lines = path.read_text().splitlines(keepends=True)
        headings = list(_headings(lines))
        for position, (index, level, heading) in enumerate(headings):
            if heading == title:
                end = next((i for i, lv, _ in headings[position + 1:] if lv <= level), len(lines))
                found.append((path, "".join(lines[index + 1:end])))
    assert len(found) == 1, f"section {title!r}: found in {[str(p.relative_to(ROOT)) for p, _ in found]}"
    return found[0][1]


def commands():
    """(command, origin) for each command line of the documentation's bash blocks and inline command spans."""
    found, shown = [], text()
    for block in re.findall(r"```bash\n(.*?)```", shown, flags=re.S):
        if "<<'EOF'" in block:  # a here-document is one command
            found.append((block.strip(), "bash block"))
            continue
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if line and not line.startswith("#"):
                found.append((re.sub(r"\s+", " ", line), "bash block"))
    for span in re.findall(r"`((?:snakemake|brainpipe|python -c|make) [^`]+)`", shown):
        found.append((span, "inline"))
    seen, unique = set(), []
    for command, origin in found:  # each command once, where it first occurs
        if command not in seen:
            seen.add(command)
            unique.append((command, origin))
    return unique
