"""Reading the leaderboard page's structure back (tests of brainpipe.pipeline.leaderboard_page): which benchmark
columns each expandable parent holds, as the page's header declares them for its script."""

import html
import re

HEADER = re.compile(r'<th class="(?P<cls>pc|bm)" data-id="(?P<id>\w+)" data-kind="\w+" data-label="(?P<label>[^"]*)" '
                    r'data-ancestors="(?P<ancestors>[^"]*)"(?: title="(?P<title>[^"]*)")?>.*?<span class="note">'
                    r'(?P<note>.*?)</span></th>', re.S)


def page_groups(page):
    """parent label -> [(child label, its note)], children in column order (a child may be a sub-parent)."""
    head = page.split("<tbody>", 1)[0]
    found = [m.groupdict() for m in HEADER.finditer(head)]
    label = {f["id"]: html.unescape(f["label"]) for f in found}
    groups = {label[f["id"]]: [] for f in found if f["cls"] == "pc"}
    for f in found:
        ancestors = f["ancestors"].split()
        if ancestors:
            groups[label[ancestors[-1]]].append((html.unescape(f["label"]), html.unescape(f["note"])))
    return groups


def column_titles(page):
    """benchmark label -> the header's title (why it is in no mean), for those that have one."""
    head = page.split("<tbody>", 1)[0]
    return {html.unescape(m["label"]): html.unescape(m["title"]) for m in HEADER.finditer(head) if m["title"]}


def body_rows(page):
    """The rows of the overview table's body (not the model and benchmark pages)."""
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [row for row in body.split("<tr>")[1:]]


def grid_cell(page, model, benchmark):
    """The page's data for one cell (what its hover text and the model and benchmark pages show): field -> value."""
    import json

    data = json.loads(page.split('<script type="application/json" id="grid-data">', 1)[1].split("</script>", 1)[0])
    row = data["cells"][data["models"].index(model)]
    return dict(zip(data["fields"], row[data["benchmarks"].index(benchmark)]))
