"""`snakemake --report` opened in a real browser (Debian's headless chromium): every category and subcategory of the
report renders its results without a console error, and the Leaderboard's HTML page opens. The report is a React
page whose rendering depends on the rules' report labels (Snakemake turns some label layouts into toggles), which
no Python-side check sees. Slow: one real run of the tiny grid with a one-layer sweep."""

import html
import json
import os
import re
import shutil
import subprocess
import sys
from base64 import b64decode
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
TINY = ROOT / "tests" / "configs" / "tiny.yaml"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="needs a headless browser: `apt-get install -y chromium` "
                                                          "(Debian) puts chromium on PATH")]

# Clicks through the report as a user does (the categories menu, then each subcategory, then the leaderboard page's
# eye button) and writes what each view showed into the <body> attribute data-walk, which --dump-dom prints.
WALK = """<script>
window.addEventListener("load", () => setTimeout(async () => {
  const pause = () => new Promise(done => setTimeout(done, 300));
  const seen = [];
  for (const category of Object.keys(categories)) {
    for (const subcategory of Object.keys(categories[category])) {
      app.setView({navbarMode: "menu"});
      await pause();
      app.showCategory(category);
      await pause();
      if (!isSingleSubcategory(category)) app.setView({navbarMode: "subcategory", subcategory: subcategory});
      await pause();
      const app_div = document.querySelector("#app");
      seen.push({category: category, subcategory: subcategory, text: app_div ? app_div.innerText : ""});
    }
  }
  app.setView({navbarMode: "menu"});
  await pause();
  app.showCategory("Leaderboard");
  await pause();
  const row = [...document.querySelectorAll("#app tr")].find(tr => tr.innerText.includes("leaderboard.html"));
  if (row) { row.querySelector("a").click(); await pause(); }
  const frame = document.querySelector("#app iframe");
  const beside = frame ? frame.getBoundingClientRect().width : 0;
  app.setView({hideNavbar: true});  // the menu's own "hide" button: the page then takes the report's full width
  await pause();
  for (let i = 0; i < 30; i++) {  // the report re-lays itself out in steps: a loaded machine takes longer
    const now = document.querySelector("#app iframe");
    if (now && now.getBoundingClientRect().width >= 0.95 * window.innerWidth) break;
    await pause();
  }
  const alone = document.querySelector("#app iframe");
  document.body.setAttribute("data-walk", JSON.stringify({seen: seen, frame: frame ? frame.src : null,
    widths: {beside: beside, alone: alone ? alone.getBoundingClientRect().width : 0, window: window.innerWidth}}));
}, 300));
</script>"""


def open_in_chromium(report, scratch):
    """(console lines, what the walk saw) of the report opened in headless chromium with a fresh profile."""
    page = report.read_text()
    end = page.rindex("</body>")
    walked = scratch / "walked.html"
    walked.write_text(page[:end] + WALK + page[end:])
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                           "--disable-component-update", "--disable-sync", "--no-first-run",
                           f"--user-data-dir={scratch / 'profile'}", "--enable-logging=stderr", "--v=0",
                           "--virtual-time-budget=60000", "--dump-dom", walked.as_uri()],
                          capture_output=True, text=True, timeout=180)
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    found = re.search(r'data-walk="([^"]*)"', done.stdout)
    return console, (json.loads(html.unescape(found.group(1))) if found else None)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """report.html of the tiny grid, with alexnet_untrained also scoring features.7 on IT (a 'Layer sweeps'
    subcategory holding one table and one plot)."""
    workdir = tmp_path_factory.mktemp("report")
    (workdir / "config").mkdir()
    shutil.copy(ROOT / "config" / "config.yaml", workdir / "config" / "config.yaml")
    sweep = workdir / "sweep.yaml"
    sweep.write_text("model_zoo:\n  alexnet_untrained:\n    architecture: alexnet\n    weights: null\n"
                     "    visual_degrees: 8\n    layers: {V4: features.7, IT: features.12}\n"
                     "    sweep: {IT: [features.7, features.12]}\n")
    base = [SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--directory", str(workdir), "--configfile", str(TINY),
            str(sweep)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    for extra in (["--cores", "2"], ["--report", str(workdir / "report.html")]):
        run = subprocess.run(base + extra, capture_output=True, text=True, cwd=workdir, env=env)
        assert run.returncode == 0, run.stderr[-4000:]
    return workdir / "report.html"


def test_every_report_page_renders_and_the_leaderboard_opens(report, tmp_path):
    console, walk = open_in_chromium(report, tmp_path)
    errors = [line for line in console if "Error" in line or "Uncaught" in line]
    assert not errors, "the report's page throws in the browser:\n" + "\n".join(errors)
    assert walk is not None, "the walk through the report did not finish:\n" + "\n".join(console)
    views = {(v["category"], v["subcategory"]): v for v in walk["seen"]}
    assert {"Leaderboard", "Layer sweeps", "Per-fold spread"} <= {category for category, _ in views}, list(views)
    for (category, subcategory), view in views.items():  # a render error unmounts the whole page
        assert view["text"].strip(), f"{category} / {subcategory}: blank page"
    leaderboard = views[("Leaderboard", "Other")]["text"]
    assert "leaderboard.csv" in leaderboard and "leaderboard.html" in leaderboard, leaderboard
    sweeps = views[("Layer sweeps", "alexnet_untrained")]["text"]
    assert "SyntheticShapes.IT-pls (table)" in sweeps and "IT (plot)" in sweeps, sweeps  # one figure per parent
    assert {"Per-fold spread"} <= {category for category, _ in views}
    assert walk["frame"] and walk["frame"].startswith("data:text/html"), walk["frame"]
    page = b64decode(walk["frame"].split("base64,", 1)[1]).decode()
    # the whole interactive page, self-contained (a data: URL cannot load anything beside it)
    assert "brainpipe leaderboard" in page and ">alexnet_untrained</th>" in page
    assert 'id="grid-data"' in page and "DataTables 2.3.8" in page and "<template data-kind=\"model\"" in page
    widths = walk["widths"]
    assert widths["alone"] >= 0.95 * widths["window"], widths  # full width once the report's menu is hidden
