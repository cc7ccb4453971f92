"""The report in a real headless browser: Debian's chromium driven by playwright.

Needs the ``browser`` extra (playwright from PyPI; no browser download: the tests point it at
the system's chromium, ``apt-get install chromium``). Skipped with a reason where either is
missing, except in CI's report step (``PARBLEU_REQUIRE=report,browser``), where they fail.
Screenshots go to ``PARBLEU_REPORT_SCREENSHOTS`` (a directory) when set, else to tmp_path.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from report_support import NAMES, require_extra, sample, sample_report

import parbleu
from helpers import is_required

CHROMIUM_NAMES = ("chromium", "chromium-browser")


def _chromium() -> str:
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    if is_required("browser"):
        pytest.fail("chromium is not installed (apt-get install chromium)")
    pytest.skip("chromium is not installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_extra("playwright")
    from playwright.sync_api import sync_playwright

    exe = _chromium()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


class Page:
    """A report opened from disk, with every console message and outside request recorded."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.console: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(path.as_uri())
        self.page.wait_for_selector("html[data-ready='1']", timeout=15000)

    def check_clean(self, url: str) -> None:
        assert self.errors == []
        assert [m for m in self.console if m.startswith(("error", "warning"))] == []
        assert self.requests == [url], "the page asked for something besides itself"


def _shots() -> Path | None:
    d = os.environ.get("PARBLEU_REPORT_SCREENSHOTS")
    return Path(d) if d else None


@pytest.fixture(scope="module")
def report_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    sample_report(200).write(path)
    return path


def _column(page: Any, table: str, col: int) -> list[str]:
    return page.eval_on_selector_all(
        f"#{table} tbody tr", f"rows => rows.map(r => r.cells[{col}].textContent)"
    )


def test_renders_without_errors(browser: Any, report_file: Path, tmp_path: Path) -> None:
    p = Page(browser, report_file)
    page = p.page
    assert page.title() == "parbleu report"
    # Histograms: one per system, one difference chart per non-baseline system.
    assert page.locator("#dist-charts svg").count() == 3
    assert page.locator("#diff-charts svg").count() == 2
    # 10 bins worse, one of ties, 10 better (no difference beyond ±100 in BLEU).
    assert page.locator("#diff-charts svg rect").count() == 42
    shot = (_shots() or tmp_path) / "report.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:4] == b"\x89PNG"
    p.check_clean(report_file.as_uri())
    page.close()


def test_sorting(browser: Any, report_file: Path) -> None:
    p = Page(browser, report_file)
    page = p.page
    data = sample_report(200).data
    bleu = data["scores"][0]["scores"]
    expect = sorted(NAMES, key=lambda n: -bleu[n])
    assert _column(page, "score-table", 0) == expect == data["by_score"]  # best first
    # The toggle goes back to file order, and forth.
    page.click("#order-toggle")
    assert _column(page, "score-table", 0) == list(NAMES)
    assert page.text_content("#order-what") == "In file order."
    page.click("#order-toggle")
    assert _column(page, "score-table", 0) == expect
    page.click("#order-toggle")
    page.click("#score-table thead th:nth-child(2)")  # BLEU: descending first
    assert _column(page, "score-table", 0) == expect
    assert page.get_attribute("#score-table thead th:nth-child(2)", "aria-sort") == "descending"
    page.click("#score-table thead th:nth-child(2)")
    assert _column(page, "score-table", 0) == expect[::-1]
    page.click("#score-table thead th:nth-child(1)")  # text: ascending first
    assert _column(page, "score-table", 0) == sorted(NAMES)
    p.check_clean(report_file.as_uri())
    page.close()


def test_system_choice_and_baseline(browser: Any, report_file: Path, tmp_path: Path) -> None:
    p = Page(browser, report_file)
    page = p.page
    row = page.locator('#score-table tbody tr[data-name="Facebook-AI"]')
    assert row.is_visible()
    # Facebook-AI is the best by BLEU, so the default baseline (the page says why).
    assert "the best system by BLEU" in (page.text_content("#baseline-rule") or "")
    assert page.eval_on_selector("#baseline", "s => s.options[s.selectedIndex].text") == (
        "Facebook-AI"
    )
    page.locator("input.syspick").nth(1).uncheck()  # Facebook-AI
    assert not row.is_visible()
    # A hidden system is no longer the baseline: the menu moves to a shown one (issue 34).
    menu = page.eval_on_selector(
        "#baseline",
        "s => [s.options[s.selectedIndex].text, Array.from(s.options).map(o => o.disabled)]",
    )
    assert menu == ["Online-W", [False, True, False]]
    caption = page.text_content("#diff-caption") or ""
    assert "the baseline's (Online-W)" in caption
    assert page.locator("#dist-charts svg").count() == 2
    # The list of all pairs is collapsed; opened, it shows the pairs of shown systems only.
    assert not page.locator("#sig-table-0").is_visible()
    page.click("#all-pairs-0 summary")
    assert page.locator("#sig-table-0").is_visible()
    visible_pairs = page.eval_on_selector_all(
        "#sig-table-0 tbody tr", "rs => rs.filter(r => r.offsetParent !== null).length"
    )
    assert visible_pairs == 1
    page.locator("input.syspick").nth(1).check()
    assert row.is_visible() and page.locator("#dist-charts svg").count() == 3
    page.select_option("#baseline", "2")
    caption = page.text_content("#diff-caption") or ""
    assert caption.startswith("Sentence BLEU of each system minus the baseline's (VolcTrans-GLAT)")
    titles = page.eval_on_selector_all("#diff-charts .title", "ts => ts.map(t => t.textContent)")
    assert all(t.split(" \u2212 ")[1].startswith("VolcTrans-GLAT:") for t in titles)
    # The first pair with the new baseline is shown, the others hidden.
    shown = page.eval_on_selector_all(
        ".pair-view",
        "vs => vs.filter(v => !v.classList.contains('hidden')).map(v => v.dataset.key)",
    )
    assert shown == ["1"]
    # The measure picker of the length buckets.
    page.select_option("#length_buckets select", "f1")
    assert page.locator("#length_buckets-f1").is_visible()
    assert not page.locator("#length_buckets-bleu").is_visible()
    shot = (_shots() or tmp_path) / "report-baseline.png"
    page.screenshot(path=str(shot), full_page=False)
    p.check_clean(report_file.as_uri())
    page.close()


def test_evil_text_stays_text(browser: Any, tmp_path: Path) -> None:
    ref, systems = sample(8)
    evil = "<script>window.__pwned = 1</script>"
    ref = [evil + r for r in ref]
    hyps = [evil + h for h in systems["Online-W"]]
    path = tmp_path / "evil.html"
    parbleu.report(
        [ref], {"<img src=x onerror='window.__pwned=2'>": hyps, "b": systems["Facebook-AI"]},
        n=10, flavors=(), top_segments=8,
    ).write(path)  # fmt: skip
    p = Page(browser, path)
    assert p.page.evaluate("window.__pwned === undefined")
    assert f"reference: {evil}" in (p.page.text_content("#pairs .seg .ref") or "")
    name = p.page.text_content("#score-table tbody tr td")
    assert name == "<img src=x onerror='window.__pwned=2'>"
    p.check_clean(path.as_uri())
    p.page.close()


_CHARTS = """cs => cs.map(c => ({
  title: c.querySelector('.title').textContent,
  bars: Array.from(c.querySelectorAll('rect')).map(r => [r.getAttribute('class'),
    r.querySelector('title').textContent]),
  labels: Array.from(c.querySelectorAll('svg text')).map(t => t.textContent)
}))"""


def test_histograms_colour_by_direction(browser: Any, tmp_path: Path) -> None:
    ref, systems = sample(60)
    base = systems["Online-W"]
    # "better": the reference itself on 20 segments (BLEU 100, TER 0), the baseline's output
    # on the other 40 (ties). "long": five copies of the output on 10 segments (TER > 100).
    better = ref[:20] + base[20:]
    long = [" ".join([h] * 5) if i < 10 else h for i, h in enumerate(base)]
    path = tmp_path / "hist.html"
    rep = parbleu.report(
        [ref], {"base": base, "better": better, "long": long}, n=20, flavors=(), baseline="base"
    )
    rep.write(path)
    ter = rep.data["sentence"][2]["scores"]
    over = {n: sum(x > 100 for x in v) for n, v in ter.items()}
    assert over["long"] >= 10
    p = Page(browser, path)
    page = p.page
    for metric, word in ((0, "higher BLEU"), (2, "lower TER")):
        page.select_option("#sent-metric", str(metric))
        caption = page.text_content("#diff-caption") or ""
        name = word.split()[1]
        assert caption.startswith(f"Sentence {name} of each system minus the baseline's (base)")
        assert f"({word} is better)" in caption
        charts = page.eval_on_selector_all("#diff-charts .chart", _CHARTS)
        titles = [c["title"].split(":")[0] for c in charts]
        assert titles == ["better \u2212 base", "long \u2212 base"]
        bars = charts[0]["bars"]
        assert charts[0]["title"].endswith("better 20, worse 0, same 40")
        # Ties: their own grey bar in the middle, not the first "better" bin.
        mid = [k for k, (cls, _) in enumerate(bars) if cls == "bar tie"]
        assert len(mid) == 1 and bars[mid[0]][1] == "40 ties (difference 0)"
        filled = {cls for cls, tip in bars if not tip.startswith("0 ")}
        assert filled - {"bar overflow pos"} == {"bar pos", "bar tie"}, bars  # better: green
        # BLEU rises (right of 0), TER falls (left of 0): both green.
        side = bars[mid[0] + 1 :] if metric == 0 else bars[: mid[0]]
        assert sum(int(tip.split()[0]) for _, tip in side) == 20
    # TER above 100: an overflow bar, labelled, in the distribution of "long".
    dist = page.eval_on_selector_all("#dist-charts .chart", _CHARTS)
    long_chart = next(c for c in dist if c["title"].startswith("long"))
    k = over["long"]
    assert long_chart["bars"][-1] == ["bar overflow", f"{k} segments above 100"]
    assert long_chart["labels"][1] == ">100" and f"{k} above 100" in long_chart["title"]
    assert len(long_chart["bars"]) == 21
    # Without scores above 100 (BLEU), no overflow bar, and the axis ends at 100.
    page.select_option("#sent-metric", "0")
    for c in page.eval_on_selector_all("#dist-charts .chart", _CHARTS):
        assert len(c["bars"]) == 20 and c["labels"][:2] == ["0", "100"]
    p.check_clean(path.as_uri())
    page.close()


def test_imported_scores_and_agreement_render(browser: Any, tmp_path: Path) -> None:
    # A metric near 0-1 (imported) draws its histograms over its own range, and the page
    # with the agreement section runs clean.
    ref, systems = sample(120)
    fake = {n: [len(h) % 7 / 10 for h in systems[n]] for n in NAMES}
    imported = parbleu.ImportedScores("FAKE", fake, higher_is_better=True, hypotheses=systems)
    human = {n: [float(len(h) % 5) for h in systems[n]] for n in NAMES}
    rep = parbleu.report([ref], systems, metrics=[imported, parbleu.BLEU()], n=50, flavors=(),
                         human_seg=human)  # fmt: skip
    path = tmp_path / "imported.html"
    rep.write(path)
    p = Page(browser, path)
    p.check_clean(path.as_uri())
    page = p.page
    assert page.locator("#agreement-table tbody tr").count() == 2
    # FAKE is the first metric: its histograms run 0-1, its differences -1 to 1.
    labels = page.eval_on_selector_all("#dist-charts svg text", "ts => ts.map(t => t.textContent)")
    assert "0" in labels and "1" in labels and "100" not in labels
    diff = page.eval_on_selector_all("#diff-charts svg text", "ts => ts.map(t => t.textContent)")
    assert "\u22121" in diff and "\u2212100" not in diff
    assert "in bins of 0.1 points" in page.locator("#diff-caption").text_content()
