"""The report's inline stylesheet and script (no outside resources: the page works from disk)."""

CSS = """
:root{--fg:#1d232b;--mute:#5d6875;--line:#d9dee4;--bg:#fff;--alt:#f5f7f9;--acc:#2458a6;
--good:#1d7a3c;--bad:#b3261e;--m1:#fff2b3;--m2:#ffe07a;--m3:#ffc94a;--m4:#ffb000;
--barc:#dbe6f6}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
background:var(--bg);margin:0;padding:0 24px 48px;max-width:1400px}
h1{font-size:22px;margin:20px 0 4px;overflow-wrap:anywhere}h2{font-size:18px;margin:32px 0 8px;
border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
.meta,.note{color:var(--mute)}.note{font-size:12px}
code,.sig{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.sig{word-break:break-all;color:var(--mute)}
table{border-collapse:collapse;margin:0;font-variant-numeric:tabular-nums}
.tbl{max-width:100%;overflow-x:auto;margin:6px 0 10px}
td.txt{overflow-wrap:break-word;max-width:30em}
#flavor-table td.txt{white-space:nowrap;max-width:none}
button.toggle{font:inherit;font-size:12px;margin-left:8px;cursor:pointer}
td.b{background:linear-gradient(90deg,var(--barc) var(--w),transparent var(--w))}
tfoot td{color:var(--mute);font-size:12px}
th,td{border-bottom:1px solid var(--line);padding:3px 9px;text-align:right;vertical-align:top}
th{background:var(--alt);font-weight:600;white-space:nowrap}
th:first-child,td:first-child,td.txt,th.txt{text-align:left}
table.sortable th{cursor:pointer;user-select:none}
table.sortable th[aria-sort=ascending]::after{content:" \\25B2";font-size:10px}
table.sortable th[aria-sort=descending]::after{content:" \\25BC";font-size:10px}
tr.sig-yes td.sigcell{color:var(--good);font-weight:600}
.controls{position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--line);
padding:8px 0;z-index:2;display:flex;flex-wrap:wrap;gap:6px 18px;align-items:center}
.controls label{white-space:nowrap;max-width:100%;overflow:hidden;text-overflow:ellipsis}
.controls details{max-width:100%}.controls summary{cursor:pointer}
.controls .boxes{display:flex;flex-wrap:wrap;gap:2px 14px;max-height:30vh;overflow:auto;
padding:4px 0}
#files code{overflow-wrap:anywhere}
.hidden,.off-sys{display:none!important}
.charts{display:flex;flex-wrap:wrap;gap:10px}
.chart{border:1px solid var(--line);border-radius:4px;padding:4px}
.chart .title{font-size:12px;font-weight:600;margin:0 4px;max-width:260px;
overflow-wrap:anywhere}
select{max-width:min(30em,90vw)}h2,h3,p,li{overflow-wrap:anywhere}
svg text{font:10px system-ui,sans-serif;fill:var(--mute)}
.bar{fill:var(--acc)}.bar.neg{fill:var(--bad)}.bar.pos{fill:var(--good)}
.bar.tie{fill:var(--mute)}.bar.overflow{opacity:.55}
.seg{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:4px 14px;
border:1px solid var(--line);border-radius:4px;padding:6px 10px;margin:8px 0;
overflow-wrap:anywhere}
.seg .ref,.seg .src{grid-column:1/3;color:var(--mute)}
.seg .ref,.seg .src,.seg .hyp{max-height:12em;overflow:auto;overflow-wrap:anywhere}
details.more,details.more>summary{display:inline}
details.more>summary{cursor:pointer;color:var(--acc);font-size:12px}
.seg .head{font-size:12px;color:var(--mute)}
.m1{background:var(--m1)}.m2{background:var(--m2)}.m3{background:var(--m3)}
.m4,.m5,.m6,.m7,.m8{background:var(--m4)}
.tok{padding:0 1px;border-radius:2px}
.win{font-weight:600}
details{margin:4px 0}
/* significance section */
tr.cluster-first td{border-top:2px solid var(--fg)}
table.clusters td.rank{font-weight:600}
.warn{color:var(--bad);font-weight:600}
details.all-pairs>summary{cursor:pointer;color:var(--acc)}
"""

JS = r"""
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("parbleu-data").textContent);
  var state = {
    shown: DATA.systems.slice(),
    baseline: DATA.baseline,
    sentMetric: 0
  };
  function segs(n) { return n + (n === 1 ? " segment" : " segments"); }
  function fmt(x, d) { return x === null || x === undefined ? "\u2013" : x.toFixed(d); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) { for (var k in attrs) { e.setAttribute(k, attrs[k]); } }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  var SVG = "http://www.w3.org/2000/svg";
  function sv(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // --- sorting: click a header; numbers sort by data-v, text by its content ---------------
  function cellKey(td) {
    if (!td) { return ""; }
    var v = td.getAttribute("data-v");
    if (v !== null) { return v === "" ? -Infinity : parseFloat(v); }
    return td.textContent;
  }
  function sortTable(table, col, dir) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellKey(a.cells[col]), y = cellKey(b.cells[col]);
      var c = (typeof x === "number" && typeof y === "number") ? x - y
        : String(x).localeCompare(String(y));
      return dir === "ascending" ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      if (i === col) {
        th.setAttribute("aria-sort", dir);
      } else {
        th.removeAttribute("aria-sort");
      }
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener("click", function () {
        var dir = th.getAttribute("aria-sort") === "descending" ? "ascending" : "descending";
        if (th.getAttribute("aria-sort") === null && !th.hasAttribute("data-num")) {
          dir = "ascending";
        }
        sortTable(table, i, dir);
      });
    });
  });

  // --- the score table's order: best first (DATA.by_score) or file order, one button -------
  var orderToggle = document.getElementById("order-toggle");
  if (orderToggle) {
    var byScore = DATA.order !== "file";
    orderToggle.addEventListener("click", function () {
      byScore = !byScore;
      var table = document.getElementById("score-table");
      var body = table.tBodies[0], rows = {};
      Array.prototype.forEach.call(body.rows, function (r) {
        rows[r.getAttribute("data-name")] = r;
      });
      (byScore ? DATA.by_score : DATA.systems).forEach(function (n) {
        if (rows[n]) { body.appendChild(rows[n]); }
      });
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
        th.removeAttribute("aria-sort");
      });
      orderToggle.textContent = byScore ? "show in file order" : "show best first";
      document.getElementById("order-what").textContent = byScore
        ? "Best first by " + DATA.scores[0].metric + "." : "In file order.";
    });
  }

  // --- system choice: hide rows/columns of systems not shown -------------------------------
  // A hidden system cannot be the baseline: its menu entry is disabled, and a hidden baseline
  // moves to the report's baseline (if shown) or the first system shown.
  function baseOptions() {
    var pick = document.getElementById("baseline");
    if (!pick) { return false; }
    Array.prototype.forEach.call(pick.options, function (o) {
      o.disabled = state.shown.indexOf(DATA.systems[parseInt(o.value, 10)]) < 0;
    });
    if (state.shown.indexOf(state.baseline) >= 0 || !state.shown.length) { return false; }
    state.baseline = state.shown.indexOf(DATA.baseline) >= 0 ? DATA.baseline : state.shown[0];
    pick.value = String(DATA.systems.indexOf(state.baseline));
    return true;
  }
  function applySystems() {
    var rebased = baseOptions();
    Array.prototype.forEach.call(document.querySelectorAll("[data-sys]"), function (e) {
      var names = JSON.parse(e.getAttribute("data-sys"));
      var on = names.every(function (n) { return state.shown.indexOf(n) >= 0; });
      e.classList.toggle("off-sys", !on);
    });
    var count = document.getElementById("sys-count");
    if (count) { count.textContent = state.shown.length + " of " + DATA.systems.length; }
    drawSentence();
    pairOptions(rebased);
  }
  Array.prototype.forEach.call(document.querySelectorAll("input.syspick"), function (box) {
    box.addEventListener("change", function () {
      var name = DATA.systems[parseInt(box.getAttribute("data-i"), 10)];
      state.shown = DATA.systems.filter(function (n) {
        return n === name ? box.checked : state.shown.indexOf(n) >= 0;
      });
      applySystems();
    });
  });
  var basePick = document.getElementById("baseline");
  basePick.addEventListener("change", function () {
    state.baseline = DATA.systems[parseInt(basePick.value, 10)];
    drawSentence();
    pairOptions(true);
  });

  // --- histograms of sentence scores and of differences against the baseline -------------
  // Scores outside the drawn range (sentence TER above 100) get a labelled overflow bar, never
  // the last bin; a difference of exactly 0 (a tie) gets its own grey bar between "worse" and
  // "better", coloured by the metric's direction (lower TER is better).
  // Rounding puts a perfect sentence BLEU at 100.00000000000004 (as in SacreBLEU): values
  // within EPS of an end of the range are in it, not overflow.
  var EPS = 1e-9;
  function scoreBars(values, lo, hi, bins) {
    var counts = new Array(bins).fill(0), w = (hi - lo) / bins, under = 0, over = 0;
    values.forEach(function (v) {
      if (v < lo - EPS) { under += 1; return; }
      if (v > hi + EPS) { over += 1; return; }
      v = Math.min(Math.max(v, lo), hi);
      counts[Math.min(bins - 1, Math.floor((v - lo) / w))] += 1;  // hi itself: last bin
    });
    var bars = counts.map(function (c, k) {
      var a = lo + k * w;
      return { c: c, cls: "bar", tip: segs(c) + " in [" + a + ", " + (a + w) +
        (k === bins - 1 ? "]" : ")") };
    });
    // An overflow bar's label replaces the label of the range's end next to it (no overlap).
    if (under) {
      bars.unshift({ c: under, cls: "bar overflow", tip: segs(under) + " below " + lo });
    }
    if (over) {
      bars.push({ c: over, cls: "bar overflow", tip: segs(over) + " above " + hi });
    }
    var labels = [{ at: 0, text: (under ? "<" : "") + lo },
      { at: bars.length, text: (over ? ">" : "") + hi }];
    return { bars: bars, labels: labels, under: under, over: over };
  }
  function diffBars(d, higherIsBetter) {
    var neg = new Array(10).fill(0), pos = new Array(10).fill(0);
    var tie = 0, under = 0, over = 0;
    d.forEach(function (x) {
      if (x === 0) { tie += 1; } else if (x < -100 - EPS) { under += 1; } else if (
        x > 100 + EPS) { over += 1; } else if (x < 0) {
        neg[Math.min(9, Math.max(0, Math.floor((x + 100) / 10)))] += 1;
      } else { pos[Math.min(9, Math.max(0, Math.ceil(x / 10) - 1))] += 1; }
    });
    var down = higherIsBetter ? "neg" : "pos", up = higherIsBetter ? "pos" : "neg";
    var bars = [];
    if (under) {
      bars.push({ c: under, cls: "bar overflow " + down, tip: under + " below \u2212100" });
    }
    neg.forEach(function (c, k) {
      bars.push({ c: c, cls: "bar " + down, tip: c + " in [" + (k * 10 - 100) + ", " +
        (k * 10 - 90) + ")" });
    });
    var mid = bars.length;
    bars.push({ c: tie, cls: "bar tie",
      tip: tie + (tie === 1 ? " tie" : " ties") + " (difference 0)" });
    pos.forEach(function (c, k) {
      bars.push({ c: c, cls: "bar " + up, tip: c + " in (" + (k * 10) + ", " + (k * 10 + 10) +
        "]" });
    });
    if (over) {
      bars.push({ c: over, cls: "bar overflow " + up, tip: over + " above 100" });
    }
    var labels = [{ at: 0, text: (under ? "<" : "") + "\u2212100" },
      { at: mid + 0.5, text: "0" }, { at: bars.length, text: (over ? ">" : "") + "100" }];
    return { bars: bars, labels: labels, under: under, over: over };
  }
  function barChart(title, h) {
    var W = 260, H = 120, P = 22, n = h.bars.length;
    var max = Math.max.apply(null, h.bars.map(function (b) { return b.c; }).concat([1]));
    var box = el("div", { "class": "chart" });
    box.appendChild(el("div", { "class": "title" }, title));
    var svg = sv("svg", { width: W, height: H + P, viewBox: "0 0 " + W + " " + (H + P),
      role: "img" });
    var bw = (W - 2 * P) / n;
    h.bars.forEach(function (b, k) {
      var ht = H * b.c / max;
      var r = sv("rect", { x: P + k * bw + 0.5, y: H - ht + 2, width: Math.max(bw - 1, 1),
        height: ht, "class": b.cls });
      r.appendChild(sv("title", {}, b.tip));
      svg.appendChild(r);
    });
    h.labels.forEach(function (l) {
      var anchor = l.at === 0 ? "start" : (l.at >= n ? "end" : "middle");
      svg.appendChild(sv("text", { x: P + l.at * bw, y: H + 16, "text-anchor": anchor },
        l.text));
    });
    svg.appendChild(sv("text", { x: 2, y: 10 }, String(max)));
    box.appendChild(svg);
    return box;
  }
  function drawSentence() {
    var m = DATA.sentence[state.sentMetric];
    var dist = document.getElementById("dist-charts");
    var diff = document.getElementById("diff-charts");
    if (!m || !dist) { return; }
    dist.textContent = "";
    if (diff) { diff.textContent = ""; }
    var base = m.scores[state.baseline];
    state.shown.forEach(function (name) {
      var v = m.scores[name];
      var mean = v.reduce(function (a, b) { return a + b; }, 0) / v.length;
      var h = scoreBars(v, 0, 100, 20);
      dist.appendChild(barChart(name + " (mean " + fmt(mean, 2) +
        (h.over ? "; " + h.over + " above 100" : "") + ")", h));
      if (name === state.baseline || !diff) { return; }
      var d = v.map(function (x, i) { return x - base[i]; });
      var better = 0, worse = 0;
      d.forEach(function (x) {
        if (x > 0) { better += 1; } else if (x < 0) { worse += 1; }
      });
      if (!m.higher_is_better) { var t = better; better = worse; worse = t; }
      var title = name + " \u2212 " + state.baseline + ": better " + better + ", worse " + worse +
        ", same " + (d.length - better - worse);
      diff.appendChild(barChart(title, diffBars(d, m.higher_is_better)));
    });
    var caption = document.getElementById("diff-caption");
    if (caption) {
      caption.textContent = "Sentence " + m.metric + " of each system minus the baseline's (" +
        state.baseline + "), segment by segment, in bins of 10 points. Green: better than " +
        "the baseline, red: worse (" + (m.higher_is_better ? "higher" : "lower") + " " +
        m.metric + " is better); the grey bar in the middle counts ties (the same score). " +
        "Differences beyond \u00b1100 get their own bar at either end, labelled.";
    }
  }
  var metricPick = document.getElementById("sent-metric");
  if (metricPick) {
    metricPick.addEventListener("change", function () {
      state.sentMetric = parseInt(metricPick.value, 10);
      drawSentence();
    });
  }

  // --- measure pickers of the bucket tables, pair picker -----------------------------------
  Array.prototype.forEach.call(document.querySelectorAll("select.pick"), function (sel) {
    function show() {
      Array.prototype.forEach.call(document.querySelectorAll(sel.getAttribute("data-target")),
        function (e) { e.classList.toggle("hidden", e.getAttribute("data-key") !== sel.value); });
    }
    sel.addEventListener("change", show);
    show();
  });
  // The pair menu lists the pairs whose two systems are shown, the baseline's first; a new
  // baseline selects its first pair. Where the baseline has no computed pair (more systems
  // than all_pairs_up_to: only the report's baseline has pairs), a note says so.
  function pairOptions(rebase) {
    var sel = document.getElementById("pair-pick");
    if (!sel) { return; }
    var base = state.baseline, mine = [], rest = [];
    DATA.pairs.forEach(function (p, k) {
      if (state.shown.indexOf(p.a) < 0 || state.shown.indexOf(p.b) < 0) { return; }
      (p.a === base || p.b === base ? mine : rest).push(k);
    });
    var keep = sel.value, order = mine.concat(rest);
    sel.textContent = "";
    order.forEach(function (k) {
      var p = DATA.pairs[k];
      sel.appendChild(el("option", { value: String(k) }, p.a + " vs " + p.b));
    });
    var keys = order.map(String);
    if (rebase || keys.indexOf(keep) < 0) { keep = keys.length ? keys[0] : ""; }
    sel.value = keep;
    sel.disabled = keys.length === 0;
    var note = document.getElementById("pair-note");
    if (note) {
      var why = "";
      if (!keys.length) {
        why = "No computed pair has both systems shown.";
      } else if (DATA.pair_scope !== "all" && base !== DATA.baseline) {
        why = "Pairs of " + base + " with the other systems were not computed: with " +
          DATA.systems.length + " systems only the pairs of " + DATA.baseline +
          " are; run the report with --baseline " + base + " for " + base + "'s pairs.";
      }
      note.textContent = why;
    }
    sel.dispatchEvent(new Event("change"));
  }
  applySystems();
  pairOptions(true);  // open on a pair of the baseline
  document.documentElement.setAttribute("data-ready", "1");
})();
"""


def _swap(text: str, old: str, new: str) -> str:
    # Exactly one occurrence: an edit of JS above that moves a piece fails here, loudly.
    if text.count(old) != 1:
        raise AssertionError(f"report script: {old[:60]!r} found {text.count(old)} times")
    return text.replace(old, new)


_DIFF_BARS_RANGED = r"""  function diffBars(d, higherIsBetter, s) {
    // Ten bins each side of 0 over +-s (s: the width of the metric's range).
    var neg = new Array(10).fill(0), pos = new Array(10).fill(0), b = s / 10;
    var tie = 0, under = 0, over = 0;
    function r(x) { return +x.toPrecision(6); }
    d.forEach(function (x) {
      if (x === 0) { tie += 1; } else if (x < -s - EPS * s) { under += 1; } else if (
        x > s + EPS * s) { over += 1; } else if (x < 0) {
        neg[Math.min(9, Math.max(0, Math.floor((x + s) / b)))] += 1;
      } else { pos[Math.min(9, Math.max(0, Math.ceil(x / b) - 1))] += 1; }
    });
    var down = higherIsBetter ? "neg" : "pos", up = higherIsBetter ? "pos" : "neg";
    var bars = [];
    if (under) {
      bars.push({ c: under, cls: "bar overflow " + down, tip: under + " below \u2212" + s });
    }
    neg.forEach(function (c, k) {
      bars.push({ c: c, cls: "bar " + down, tip: c + " in [" + r(k * b - s) + ", " +
        r(k * b - s + b) + ")" });
    });
    var mid = bars.length;
    bars.push({ c: tie, cls: "bar tie",
      tip: tie + (tie === 1 ? " tie" : " ties") + " (difference 0)" });
    pos.forEach(function (c, k) {
      bars.push({ c: c, cls: "bar " + up, tip: c + " in (" + r(k * b) + ", " + r(k * b + b) +
        "]" });
    });
    if (over) {
      bars.push({ c: over, cls: "bar overflow " + up, tip: over + " above " + s });
    }
    var labels = [{ at: 0, text: (under ? "<" : "") + "\u2212" + s },
      { at: mid + 0.5, text: "0" }, { at: bars.length, text: (over ? ">" : "") + s }];
    return { bars: bars, labels: labels, under: under, over: over };
  }
"""


def ranged_js() -> str:
    """Return :data:`JS` with histograms over each metric's ``range`` (default 0-100).

    A page whose metrics are all on the 0-100 scale keeps :data:`JS` byte for byte (its
    pages stay identical); a page with a metric of another scale (imported scores: its
    sentence entry has ``range``) gets this script: score histograms over ``range``,
    differences over plus or minus its width, in tenths of it.
    """
    js = _swap(
        JS,
        "    var base = m.scores[state.baseline];\n",
        "    var base = m.scores[state.baseline];\n"
        "    var lo = m.range ? m.range[0] : 0, hi = m.range ? m.range[1] : 100;\n",
    )
    js = _swap(js, "scoreBars(v, 0, 100, 20)", "scoreBars(v, lo, hi, 20)")
    js = _swap(js, '" above 100" : ""', '" above " + hi : ""')
    start = js.index("  function diffBars(d, higherIsBetter) {\n")
    end = js.index("  function barChart(title, h) {\n")
    js = js[:start] + _DIFF_BARS_RANGED + js[end:]
    js = _swap(js, "diffBars(d, m.higher_is_better)", "diffBars(d, m.higher_is_better, hi - lo)")
    js = _swap(
        js,
        "segment by segment, in bins of 10 points.",
        'segment by segment, in bins of " + (hi - lo) / 10 + " points.',
    )
    return _swap(
        js,
        '"Differences beyond \\u00b1100 get',
        '"Differences beyond \\u00b1" + (hi - lo) + " get',
    )
