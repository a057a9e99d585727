// The leaderboard's behaviour: DataTables sorts and filters the table; a parent's button shows or hides its
// benchmarks (DataTables column visibility); model and benchmark pages are <template>s shown in #detail, chosen by
// the URL fragment (#model/<name>, #benchmark/<id>), so one file works from file:// and inside snakemake --report.
(function () {
  "use strict";
  const started = performance.now();
  const table = document.getElementById("board");
  const headers = [...table.querySelectorAll("thead th")];
  const columns = headers.map((th, index) => ({
    index: index, id: th.dataset.id || null, kind: th.dataset.kind || "fixed",
    label: (th.dataset.label || "").toLowerCase(),
    ancestors: th.dataset.ancestors ? th.dataset.ancestors.split(" ").filter(Boolean) : [],
  }));
  const grouped = columns.filter(c => c.id);
  const expanded = new Set();
  const summaries = table.querySelectorAll("thead th.summary").length;
  const board = new DataTable(table, {
    paging: false, info: false, autoWidth: false, orderClasses: false,
    order: summaries ? [[1, "desc"]] : [],
    layout: {topStart: null, topEnd: null, bottomStart: null, bottomEnd: null},
    columnDefs: [
      {targets: 0, searchable: true, orderable: true},
      {targets: "_all", searchable: false},
      {targets: grouped.filter(c => c.ancestors.length).map(c => c.index), visible: false},
    ],
  });
  table.classList.remove("pending");
  document.body.dataset.initialised = String(Math.round(performance.now()));
  const shown = document.getElementById("shown");
  const benchmarkFilter = document.getElementById("filter-benchmarks");

  function visibility() {
    const query = benchmarkFilter.value.trim().toLowerCase();
    const visible = new Map();
    if (!query) {
      for (const c of grouped) visible.set(c.index, c.ancestors.every(a => expanded.has(a)));
    } else {  // matches and the parents above them
      const keep = new Set();
      for (const c of grouped) {
        if (c.kind === "benchmark" && c.label.includes(query)) {
          visible.set(c.index, true);
          c.ancestors.forEach(a => keep.add(a));
        }
      }
      for (const c of grouped) {
        if (c.kind === "parent") visible.set(c.index, keep.has(c.id) || c.label.includes(query));
        else if (!visible.has(c.index)) visible.set(c.index, false);
      }
    }
    return visible;
  }

  function refresh() {
    const visible = visibility();
    const on = [], off = [];
    for (const [index, show] of visible) {
      if (board.column(index).visible() !== show) (show ? on : off).push(index);
    }
    if (on.length) board.columns(on).visible(true, false);
    if (off.length) board.columns(off).visible(false, false);
    if (on.length || off.length) board.columns.adjust().draw(false);
    const count = [...visible].filter(([index, show]) => show && columns[index].kind === "benchmark").length;
    shown.textContent = `${count} benchmark column(s) shown`;
    for (const button of document.querySelectorAll("button.toggle")) {
      const open = expanded.has(button.dataset.group);
      button.setAttribute("aria-expanded", String(open));
      button.textContent = open ? "\u25BE" : "\u25B8";
    }
  }

  // --- the grid's data: hover text of the cells, tables of the model and benchmark pages -------------------------
  const grid = JSON.parse(document.getElementById("grid-data").textContent);
  const field = Object.fromEntries(grid.fields.map((name, i) => [name, i]));
  const modelIndex = new Map(grid.models.map((name, i) => [name, i]));
  const benchmarkIndex = new Map(grid.benchmarks.map((name, i) => [name, i]));
  const fmt = (value, digits = 3) => value === null || value === undefined ? "\u2013" : value.toFixed(digits);
  const fmtError = value => value === null || value === undefined ? "n/a" : value.toPrecision(2);

  // as brainpipe.pipeline.report._shade: white (score 0 or less) to green (score 1 or more)
  function shade(value) {
    if (value === null || value === undefined || !isFinite(value)) return "#ffffff";
    const t = Math.min(Math.max(value, 0), 1);
    const channel = a => Math.round(255 + (a - 255) * t).toString(16).padStart(2, "0");
    return "#" + channel(99) + channel(190) + channel(123);
  }

  function hoverText(cell) {
    if (!cell) return "";
    const status = cell[field.status];
    if (status === "stale") return "stale: " + cell[field.reason];
    if (status === "missing") return "missing: no score file (its job failed or did not run)";
    const parts = [`raw ${fmt(cell[field.raw])}`, `ceiling ${fmt(cell[field.ceiling])}`,
                   `error ${fmtError(cell[field.error])}`, `layer ${cell[field.layer]}`];
    if (cell[field.best_layer]) parts.push(`best layer of the sweep: ${cell[field.best_layer]}`);
    if (status === "null") parts.unshift("no score: " + cell[field.reason]);
    return parts.join("; ");
  }

  table.addEventListener("mouseover", event => {
    const td = event.target.closest("td.bm");
    if (!td || td.title) return;
    const index = board.cell(td).index();
    if (!index) return;
    const benchmark = benchmarkIndex.get(headers[index.column].dataset.label);
    if (benchmark !== undefined) td.title = hoverText(grid.cells[index.row][benchmark]);
  });

  function link(kind, name) {  // DOM, not markup: names and reasons are text
    const a = document.createElement("a");
    a.className = "open";
    a.textContent = name;
    a.dataset.view = `${kind}/${name}`;
    a.href = "#" + encodeURI(`${kind}/${name}`);
    return a;
  }

  const text = DataTable.render.text();
  const plain = {render: (value, type) => type === "display" ? fmt(value) : (value === null ? -1e9 : value),
                 className: "dt-right"};
  const number = {...plain, createdCell: (td, value) => { td.style.background = shade(value); }};  // a score
  const status = {render: text, createdCell: (td, value) => { if (value !== "scored") td.className = "flag"; }};

  function modelTable(element) {
    const m = modelIndex.get(element.dataset.model);
    const rows = grid.benchmarks.map((benchmark, b) => {
      const cell = grid.cells[m][b];
      const reason = cell[field.reason];
      return [benchmark, grid.parents[b], cell[field.score], cell[field.raw], cell[field.ceiling],
              cell[field.status] === "scored" ? fmtError(cell[field.error]) : "", cell[field.layer],
              cell[field.best_layer], cell[field.status] + (reason ? ": " + reason : "")];
    });
    return new DataTable(element, {data: rows, paging: false, info: false, autoWidth: false, order: [],
      columns: [
        {title: "benchmark", render: text, createdCell: (td, value) => td.replaceChildren(link("benchmark", value))},
        {title: "parent", render: text}, {title: "score", ...number}, {title: "raw", ...plain},
        {title: "ceiling", ...plain}, {title: "error", render: text}, {title: "layer", render: text},
        {title: "best layer", render: text}, {title: "status", ...status}]});
  }

  function benchmarkTable(element) {
    const b = benchmarkIndex.get(element.dataset.benchmark);
    const rows = grid.models.map((model, m) => {
      const cell = grid.cells[m][b];
      const reason = cell[field.reason];
      return [0, model, cell[field.score], cell[field.raw],
              cell[field.status] === "scored" ? fmtError(cell[field.error]) : "", cell[field.layer],
              cell[field.status] + (reason ? ": " + reason : "")];
    });
    rows.sort((x, y) => (y[2] === null ? -Infinity : y[2]) - (x[2] === null ? -Infinity : x[2]));
    rows.forEach((row, i) => { row[0] = i + 1; });
    return new DataTable(element, {data: rows, paging: false, info: false, autoWidth: false, order: [],
      columns: [
        {title: "#"}, {title: "model", render: text, createdCell: (td, value) => td.replaceChildren(link("model", value))},
        {title: "score", ...number}, {title: "raw", ...plain}, {title: "error", render: text},
        {title: "layer", render: text}, {title: "status", ...status}]});
  }

  function sweepTable(element) {
    const m = modelIndex.get(element.dataset.sweep);
    const sweeps = grid.sweeps[element.dataset.sweep] || {};
    const rows = Object.entries(sweeps).map(([benchmark, layers]) => {
      const cell = grid.cells[m][benchmarkIndex.get(benchmark)];
      const committed = cell[field.layer];
      return [benchmark, layers.map(([layer, score]) => `${layer}${layer === committed ? " \u2605" : ""} ${fmt(score)}`)
        .join(" \u00b7 "), cell[field.best_layer]];
    });
    return new DataTable(element, {data: rows, paging: false, info: false, autoWidth: false, order: [],
      columns: [{title: "benchmark", render: text, createdCell: (td, value) => td.replaceChildren(link("benchmark", value))},
                {title: "score per layer (shallow \u2192 deep)", render: text}, {title: "best layer", render: text}]});
  }

  // --- pages ---------------------------------------------------------------------------------------------------
  const overview = document.getElementById("overview");
  const detail = document.getElementById("detail");

  function show(view) {
    const slash = view ? view.indexOf("/") : -1;
    const kind = slash > 0 ? view.slice(0, slash) : "";
    const name = slash > 0 ? view.slice(slash + 1) : "";
    const page = kind && [...document.querySelectorAll(`template[data-kind="${kind}"]`)]
      .find(t => t.dataset.name === name);
    if (!page) {
      detail.hidden = true;
      detail.replaceChildren();
      overview.hidden = false;
      return;
    }
    detail.replaceChildren(page.content.cloneNode(true));
    detail.dataset.view = view;
    overview.hidden = true;
    detail.hidden = false;
    detail.querySelectorAll("table[data-model]").forEach(modelTable);
    detail.querySelectorAll("table[data-benchmark]").forEach(benchmarkTable);
    detail.querySelectorAll("table[data-sweep]").forEach(sweepTable);
    window.scrollTo(0, 0);
  }

  function go(view) {
    show(view);
    try {  // (a data: URL inside snakemake --report may refuse history entries: the view is shown anyway)
      history.pushState(null, "", "#" + (view ? encodeURI(view) : ""));
    } catch (error) { /* no history there */ }
  }

  function route() {
    show(decodeURI(location.hash.replace(/^#/, "")));
  }

  // capture phase: before DataTables' own header click (which would sort when a parent's button is pressed)
  document.addEventListener("click", event => {
    const toggle = event.target.closest("button.toggle");
    if (toggle) {
      event.stopPropagation();
      event.preventDefault();
      const group = toggle.dataset.group;
      if (expanded.has(group)) {  // collapsing a parent collapses its sub-parents too
        expanded.delete(group);
        for (const c of grouped) if (c.ancestors.includes(group)) expanded.delete(c.id);
      } else {
        expanded.add(group);
      }
      refresh();
      return;
    }
    const target = event.target.closest("[data-view]");
    if (target) {
      event.stopPropagation();
      event.preventDefault();
      go(target.dataset.view);
    }
  }, true);
  window.addEventListener("popstate", route);
  window.addEventListener("hashchange", route);

  document.getElementById("filter-models").addEventListener("input", event => {
    board.column(0).search(event.target.value).draw();
  });
  benchmarkFilter.addEventListener("input", refresh);
  document.getElementById("expand-all").addEventListener("click", () => {
    grouped.filter(c => c.kind === "parent").forEach(c => expanded.add(c.id));
    refresh();
  });
  document.getElementById("collapse-all").addEventListener("click", () => {
    expanded.clear();
    refresh();
  });
  refresh();
  route();
  document.body.dataset.started = String(Math.round(started));
  document.body.dataset.ready = String(Math.round(performance.now()));
})();
