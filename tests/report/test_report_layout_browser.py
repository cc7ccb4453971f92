"""The report at 14-50 systems in headless chromium (issue 24): width, height, controls.

Same browser setup as ``test_report_browser.py`` (extra ``browser``, Debian's chromium).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from report_support import sample, wmt_ja_en
from test_report_browser import Page, browser  # noqa: F401 - the fixture

import parbleu

WIDTH = 1280  # the window of Page


def _scroll_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.fixture(scope="module")
def wmt14(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """14 WMT21 ja-en systems by their full file names, every flavor for every system."""
    ref, systems = wmt_ja_en(150)
    path = tmp_path_factory.mktemp("wmt14") / "report.html"
    parbleu.report([ref], systems, n=50, all_pairs_up_to=8).write(path)
    return path


def test_wmt_page_never_scrolls_sideways(browser: Any, wmt14: Path) -> None:  # noqa: F811
    p = Page(browser, wmt14)
    assert p.page.locator("#score-table tbody tr").count() == 14
    assert _scroll_width(p.page) <= WIDTH
    # Wide tables scroll inside their own box; the flavors table has a number in every cell.
    assert p.page.locator("#flavor-table tbody td:has-text('–')").count() == 0
    # The 14 check boxes are folded (the sticky bar stays one line); opened, the page stays
    # narrow.
    assert not p.page.locator("input.syspick").nth(13).is_visible()
    assert p.page.text_content("#sys-count") == "14 of 14"
    p.page.click("#syslist summary")
    assert p.page.locator("input.syspick").nth(13).is_visible()
    assert _scroll_width(p.page) <= WIDTH
    p.page.locator("input.syspick").nth(13).uncheck()
    assert p.page.text_content("#sys-count") == "13 of 14"
    assert p.page.locator("#flavor-table tbody tr:visible").count() == 13
    p.check_clean(wmt14.as_uri())
    p.page.close()


def test_flavor_table_names_stay_on_one_line(browser: Any, wmt14: Path) -> None:  # noqa: F811
    # Issue 34: 12 flavor columns squeezed the System column and wrapped the names.
    p = Page(browser, wmt14)
    lines = p.page.eval_on_selector_all(
        "#flavor-table tbody td.txt",
        "tds => tds.map(td => { const r = document.createRange(); r.selectNodeContents(td);"
        " return r.getClientRects().length; })",
    )
    assert len(lines) == 14 and set(lines) == {1}
    assert _scroll_width(p.page) <= WIDTH  # the table scrolls in its own box instead
    p.page.close()


def test_fifty_systems_never_scroll_sideways(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    ref, systems = wmt_ja_en(40)
    texts = list(systems.values())
    many = {
        f"newstest2021.ja-en.hyp.a-rather-long-system-name-{k:02d}.en": texts[k % 14]
        for k in range(50)
    }
    path = tmp_path / "fifty.html"
    parbleu.report([ref], many, n=20, flavors=("nltk", "multi-bleu", "mteval-v13a")).write(path)
    p = Page(browser, path)
    assert p.page.locator("#length_buckets-bleu tbody tr").count() == 50
    assert _scroll_width(p.page) <= WIDTH
    p.check_clean(path.as_uri())
    p.page.close()


def test_long_lines_are_bounded(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    ref, systems = sample(4)
    huge = "y" * 100_000
    many = " ".join(["word"] * 20_000)
    path = tmp_path / "long.html"
    parbleu.report(
        [[many, ref[1], huge, ref[3]]], {"a": systems["Online-W"], "b": [many, ref[1], huge, "x"]},
        metrics=[parbleu.BLEU(), parbleu.CHRF()], n=10, flavors=("nltk",), top_segments=4,
        names=["A" * 300, "B" * 300], title="T" * 300,
    ).write(path)  # fmt: skip
    p = Page(browser, path)
    page = p.page
    heights = page.eval_on_selector_all(
        ".seg", "ss => ss.map(s => s.getBoundingClientRect().height)"
    )
    assert heights and max(heights) < 600, heights  # was a 37,589 px block
    assert _scroll_width(page) <= WIDTH
    # The rest is one click away, and stays in a box of bounded height.
    page.locator(".seg .hyp details.more summary").first.click()
    assert page.locator(".seg .hyp details.more").first.get_attribute("open") is not None
    box = page.eval_on_selector(".seg .hyp", "h => h.getBoundingClientRect().height")
    assert box < 400
    assert _scroll_width(page) <= WIDTH
    p.check_clean(path.as_uri())
    page.close()


def _options(page: Any) -> list[str]:
    return page.eval_on_selector_all("#pair-pick option", "os => os.map(o => o.textContent)")


def _rotations_report(chrome: Any, tmp_path: Path, k: int, **options: Any) -> tuple[Page, Path]:
    """A report of ``k`` systems s0, s1, ... (rotations of sample(40)'s three), opened in the
    ``browser`` fixture's ``chrome``."""
    ref, systems = sample(40)
    texts = list(systems.values())
    rotated = {f"s{i}": texts[i % 3][i:] + texts[i % 3][:i] for i in range(k)}
    path = tmp_path / f"{k}-systems.html"
    parbleu.report([ref], rotated, n=10, flavors=(), **options).write(path)
    return Page(chrome, path), path


def _shown_pair(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        ".pair-view",
        "vs => vs.filter(v => v.offsetParent !== null).map(v => JSON.parse(v.dataset.sys))",
    )


def test_baseline_rebases_the_pairs(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    p, path = _rotations_report(browser, tmp_path, 7)
    page = p.page
    assert len(_options(page)) == 21
    page.select_option("#baseline", "4")  # s4
    options = _options(page)
    # The baseline's six pairs come first, and the first of them is shown.
    assert all("s4" in o.split(" vs ") for o in options[:6])
    assert not any("s4" in o.split(" vs ") for o in options[6:])
    assert len(_shown_pair(page)) == 1 and "s4" in _shown_pair(page)[0]
    assert page.input_value("#pair-pick") == page.eval_on_selector(
        "#pair-pick option", "o => o.value"
    )
    p.check_clean(path.as_uri())
    page.close()


def test_page_opens_on_a_pair_of_the_baseline(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    p, path = _rotations_report(browser, tmp_path, 7, baseline="s3")
    assert _shown_pair(p.page) == [["s0", "s3"]]
    assert _options(p.page)[:6] == [f"s{k} vs s3" for k in range(3)] + [
        f"s3 vs s{k}" for k in range(4, 7)
    ]
    p.check_clean(path.as_uri())
    p.page.close()


def test_pair_menu_drops_hidden_systems(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    p, path = _rotations_report(browser, tmp_path, 7)
    page = p.page
    assert _shown_pair(page) == [["s0", "s1"]]
    page.locator("input.syspick").nth(1).uncheck()  # s1
    options = _options(page)
    assert len(options) == 15 and not any("s1" in o.split(" vs ") for o in options)
    shown = _shown_pair(page)
    assert len(shown) == 1 and "s1" not in shown[0]
    page.locator("input.syspick").nth(1).check()
    assert len(_options(page)) == 21
    p.check_clean(path.as_uri())
    page.close()


def test_baseline_without_computed_pairs_says_so(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    p, path = _rotations_report(browser, tmp_path, 10, all_pairs_up_to=8)
    page = p.page
    assert page.text_content("#pair-note") == ""
    page.select_option("#baseline", "5")  # s5: only s0's pairs were computed
    note = page.text_content("#pair-note") or ""
    assert "Pairs of s5 with the other systems were not computed" in note
    assert "--baseline s5" in note
    # The one computed pair with s5 (s0 vs s5) is listed first and shown.
    assert _options(page)[0] == "s0 vs s5" and _shown_pair(page) == [["s0", "s5"]]
    page.select_option("#baseline", "0")
    assert page.text_content("#pair-note") == ""
    p.check_clean(path.as_uri())
    page.close()
