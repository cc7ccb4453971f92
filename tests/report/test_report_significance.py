"""The report's significance at scale: resample count, clusters, minimum corpus, the words.

- With 14 and 20 WMT21 en-de systems (91 and 190 pairs), pairs whose BLEU differs by 2 points
  or more are significant (with 1,000 resamples none was: the smallest p-value 1/1001 times
  91 pairs is above 0.05), and the page says how many resamples ran and why.
- Clusters and rank ranges follow WMT's definition (checked against a hand example and as
  invariants on the WMT21 pairs).
- Below ``MIN_SEGMENTS`` the bootstrap is refused with a note (page and command line), not
  an error; approximate randomization still runs.
- :func:`parbleu.significance.compare_all` (and ``parbleu compare``) chooses its default count
  by the same rule.
"""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from report_support import NAMES, parse, sample

import parbleu
from helpers import SHARED
from parbleu.cli import main
from parbleu.reporting import _significance as sig
from parbleu.reporting._clusters import clusters
from parbleu.significance import compare_all

WMT21 = SHARED / "data" / "wmt21"
REF_A = WMT21 / "references" / "newstest2021.en-de.ref.A.de"
requires_wmt21 = pytest.mark.skipif(not REF_A.is_file(), reason="data/wmt21 is missing")


def _read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@functools.cache
def _wmt21() -> tuple[list[str], dict[str, list[str]]]:
    paths = sorted((WMT21 / "system-outputs").glob("newstest2021.en-de.hyp.*.de"))
    systems = {p.name.split(".hyp.")[1][: -len(".de")]: _read(p) for p in paths}
    return _read(REF_A), systems


@functools.cache
def _wmt_report(k: int, n: int | None = None) -> parbleu.Report:
    ref, systems = _wmt21()
    chosen = dict(itertools.islice(systems.items(), k))
    return parbleu.report(
        [ref], chosen, metrics=[parbleu.BLEU()], n=n, flavors=(), top_segments=0, top_ngrams=0
    )


# --- the resample count -----------------------------------------------------------------------
@requires_wmt21
@pytest.mark.parametrize("k", [14, 20])
def test_many_systems_find_the_large_differences(k: int) -> None:
    assert len(_wmt21()[1]) >= 20
    rep = _wmt_report(k)
    test, m = rep.data["test"], rep.data["scores"][0]
    pairs = k * (k - 1) // 2
    assert len(m["pairs"]) == test["pairs_per_metric"] == pairs
    # The count: the smallest with pairs / (n + 1) <= alpha / 5, not the default 1,000.
    n = test["n"]
    assert test["n_chosen"] == "pairs" and n > 1000
    assert pairs / (n + 1) <= 0.05 / sig.FLOOR_FACTOR < pairs / n
    assert test["min_holm_p"] == pairs / (n + 1)
    large = [p for p in m["pairs"] if abs(p["delta"]) >= 2.0]
    assert len(large) >= pairs // 3
    assert all(p["significant"] for p in large), [p for p in large if not p["significant"]]
    # Every pair none of whose resamples crossed zero is significant.
    floor = [p for p in m["pairs"] if p["p"] == 1 / (n + 1)]
    assert floor and all(p["significant"] for p in floor)
    assert test["notes"] == []
    page = parse(rep.html())
    count = page.by_id("sig-count").text()
    assert f"{n:,} resamples, chosen for the {pairs:,} pairs" in count


@requires_wmt21
def test_too_few_resamples_are_said() -> None:
    # What the page showed before: 1,000 resamples for 91 pairs, nothing significant.
    rep = _wmt_report(14, 1000)
    m = rep.data["scores"][0]
    assert not any(p["significant"] for p in m["pairs"])
    notes = rep.data["test"]["notes"]
    assert len(notes) == 1 and "no pair can be significant" in notes[0]
    assert f"at least {sig.needed_resamples(91, 0.05)}" in notes[0]
    warn = [p for p in parse(rep.html()).by_id("significance").iter("p") if "warn" in p.cls()]
    assert [p.text() for p in warn] == [notes[0][0].upper() + notes[0][1:] + "."]


def test_needed_resamples_is_the_smallest() -> None:
    for pairs in (1, 3, 91, 120, 190, 1225):
        for alpha in (0.05, 0.01, 0.1, 0.3):
            n = sig.needed_resamples(pairs, alpha)
            assert pairs / (n + 1) <= alpha / sig.FLOOR_FACTOR
            assert n == 0 or pairs / n > alpha / sig.FLOOR_FACTOR


@pytest.mark.parametrize(
    ("systems", "given", "expect_n", "chosen"),
    [(2, None, 1000, "default"), (3, None, 1000, "default"), (16, None, 11999, "pairs"),
     (16, 500, 500, "given"), (1, None, 1000, "default")],
)  # fmt: skip
def test_plan(systems: int, given: int | None, expect_n: int, chosen: str) -> None:
    p = sig.plan("bootstrap", given, systems, 1000, 0.05, 10**6)
    assert (p.n, p.chosen, p.skipped) == (expect_n, chosen, None)
    assert sig.plan("ar", None, 16, 1000, 0.05, 10**6).n == 11999  # the same floor for AR
    assert sig.plan("ar", None, 3, 1000, 0.05, 10**6).n == 10000


def test_plan_caps_at_the_largest_count() -> None:
    p = sig.plan("bootstrap", None, 200, 1000, 0.05, 10**5)
    assert p.n == 10**5 and len(p.notes) == 1 and "the most parbleu draws" in p.notes[0]
    assert "no pair can be significant; compare fewer systems" in p.notes[0]
    q = sig.plan("bootstrap", None, 200, 1000, 0.05, 500_000)  # floor 0.04: reachable
    assert q.n == 500_000 and "no pair" not in q.notes[0]


# --- clusters ---------------------------------------------------------------------------------
def test_clusters_hand_example() -> None:
    # a > c, a > d, b > d; nothing else. Cut after a? a beats c, d but not b: no.
    # Cut after b? a and b must beat c and d: b does not beat c: no. Cut after c? a, b, c
    # must beat d: c does not. One cluster.
    got = clusters("abcd", [("a", "c"), ("a", "d"), ("b", "d")])
    assert [c["systems"] for c in got] == [list("abcd")]
    assert got[0]["ranks"] == {"a": [1, 2], "b": [1, 3], "c": [2, 4], "d": [3, 4]}
    # b also beats c: now {a, b} beat {c, d}.
    got = clusters("abcd", [("a", "c"), ("a", "d"), ("b", "d"), ("b", "c")])
    assert [(c["rank"], c["systems"]) for c in got] == [(1, ["a", "b"]), (2, ["c", "d"])]
    assert got[1]["ranks"] == {"c": [3, 4], "d": [3, 4]}
    # Every pair significant: each system its own cluster, exact ranks.
    got = clusters("abc", [("a", "b"), ("a", "c"), ("b", "c")])
    assert [c["systems"] for c in got] == [["a"], ["b"], ["c"]]
    assert [c["ranks"] for c in got] == [{"a": [1, 1]}, {"b": [2, 2]}, {"c": [3, 3]}]
    assert clusters(["x"], []) == [{"rank": 1, "systems": ["x"], "ranks": {"x": [1, 1]}}]


@requires_wmt21
def test_clusters_of_wmt21_follow_the_definition() -> None:
    m = _wmt_report(20).data["scores"][0]
    ranking = m["ranking"]
    better = {(p["a"], p["b"]) for p in m["pairs"] if p["significant"]}
    groups = m["clusters"]
    assert [n for c in groups for n in c["systems"]] == ranking
    assert len(groups) >= 2
    for upper, lower in itertools.combinations(range(len(groups)), 2):
        for a in groups[upper]["systems"]:
            for b in groups[lower]["systems"]:
                assert (a, b) in better
    # No cut inside a cluster: some system above it does not beat some system below.
    for c in groups:
        start = ranking.index(c["systems"][0])
        for cut in range(start + 1, start + len(c["systems"])):
            assert any((a, b) not in better for a in ranking[:cut] for b in ranking[cut:])
    for pos, name in enumerate(ranking):
        lo, hi = next(c["ranks"][name] for c in groups if name in c["systems"])
        assert lo == 1 + sum((x, name) in better for x in ranking)
        assert hi == len(ranking) - sum((name, x) in better for x in ranking)
        assert lo <= pos + 1 <= hi
    # The page: one cluster table per metric, the flat list collapsed.
    page = parse(_wmt_report(20).html())
    rows = page.by_id("cluster-table-0").iter("tbody")[0].iter("tr")
    assert [r.iter("td")[2].text() for r in rows] == ranking
    assert sum("cluster-first" in r.cls() for r in rows) == len(groups) - 1
    details = page.by_id("all-pairs-0")
    assert details.tag == "details" and "open" not in details.attrs
    assert len(details.iter("tbody")[0].iter("tr")) == 190


# --- the minimum corpus -----------------------------------------------------------------------
@pytest.mark.parametrize("n_seg", [1, 5, sig.MIN_SEGMENTS - 1])
def test_few_segments_refuse_the_bootstrap(n_seg: int) -> None:
    ref, systems = sample(n_seg)
    rep = parbleu.report([ref], systems, flavors=())
    test = rep.data["test"]
    assert (
        test["n"] is None and test["skipped"] and f"at least {sig.MIN_SEGMENTS}" in test["skipped"]
    )
    for m in rep.data["scores"]:
        assert m["pairs"] == [] and m["ci"] == {} and m["clusters"] == []
        assert m["scores"]["Online-W"] is not None
    root = parse(rep.html())
    warn = [p.text() for p in root.by_id("significance").iter("p") if "warn" in p.cls()]
    assert len(warn) == 1 and warn[0].startswith("No significance or intervals: ")
    assert "No confidence intervals" in root.by_id("ci-note").text()
    assert not [t for t in root.iter("table") if (t.attrs.get("id") or "").startswith("sig-")]


def test_enough_segments_run_the_bootstrap() -> None:
    ref, systems = sample(sig.MIN_SEGMENTS)
    rep = parbleu.report([ref], systems, flavors=(), metrics=[parbleu.BLEU()])
    assert rep.data["test"]["n"] == 1000 and rep.data["test"]["skipped"] is None
    assert len(rep.data["scores"][0]["pairs"]) == 3 and len(rep.data["scores"][0]["ci"]) == 3


def test_one_segment_with_ar_runs_and_finds_nothing() -> None:
    ref, systems = sample(1)
    rep = parbleu.report([ref], systems, flavors=(), test="ar", metrics=[parbleu.BLEU()])
    pairs = rep.data["scores"][0]["pairs"]
    assert rep.data["test"]["skipped"] is None and len(pairs) == 3
    assert not any(p["significant"] for p in pairs)


def test_few_segments_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, systems = sample(3)
    (tmp_path / "ref").write_text("\n".join(ref) + "\n", encoding="utf-8")
    files = []
    for name in NAMES[:2]:
        (tmp_path / name).write_text("\n".join(systems[name]) + "\n", encoding="utf-8")
        files.append(str(tmp_path / name))
    out = tmp_path / "r.html"
    code = main(["report", str(tmp_path / "ref"), "-i", *files, "-o", str(out), "--flavors"])
    _, err = capsys.readouterr()
    assert code == 0, err
    lines = err.splitlines()
    assert lines[0].startswith("parbleu: wrote")
    assert len(lines) == 2 and lines[1].startswith(
        "parbleu: report: no significance or intervals: 3 segments: the paired bootstrap "
        f"needs at least {sig.MIN_SEGMENTS} segments"
    )
    data = json.loads(parse(out.read_text(encoding="utf-8")).by_id("parbleu-data").text())
    assert data["scores"][0]["pairs"] == []


# --- which test ran ---------------------------------------------------------------------------
@pytest.mark.parametrize("test", ["bootstrap", "ar"])
def test_the_page_names_the_test(test: str) -> None:
    ref, systems = sample(60)
    rep = parbleu.report([ref], systems, flavors=(), test=test, n=99, metrics=[parbleu.BLEU()])
    root = parse(rep.html())
    said = root.by_id("sig-test").text()
    name = "Paired bootstrap resampling" if test == "bootstrap" else "Approximate randomization"
    for words in (name, "two-sided", "SplitMix64", "Holm-Bonferroni", "sacrebleu --paired-bs",
                  "not comparable one to one"):  # fmt: skip
        assert words in said
    count = root.by_id("sig-count").text()
    what = "resamples" if test == "bootstrap" else "trials per pair"
    assert count.startswith(f"99 {what}, as given.") and "Seed 12345." in count
    assert rep.data["test"]["sided"] == "two-sided" and rep.data["test"]["rng"] == "splitmix64"


def test_plan_notes() -> None:
    assert sig.plan("bootstrap", None, 16, 1000, 0.05, 10**6).notes == ()
    close = sig.plan("bootstrap", 1000, 16, 1000, 0.05, 10**6)  # 120/1001 > 0.05
    assert len(close.notes) == 1 and "no pair can be significant" in close.notes[0]
    near = sig.plan("ar", 5000, 16, 1000, 0.05, 10**6)  # 120/5001: below 0.05, above 0.01
    assert len(near.notes) == 1 and "5000 trials for 120 pairs" in near.notes[0]
    assert "may be missed (a count of 11999 or more" in near.notes[0]


# --- the sibling: compare_all and parbleu compare choose the count the same way ---------------
def test_compare_all_default_count_follows_the_pairs() -> None:
    rng = np.random.default_rng(7)
    lengths = rng.integers(10, 30, size=300)
    # 14 systems with TER edit rates 0.10 to 0.36: neighbours close, far ones far apart.
    systems = {
        f"s{k:02d}": np.stack([rng.binomial(lengths, 0.10 + 0.02 * k), lengths], 1).astype(float)
        for k in range(14)
    }
    ter = parbleu.TER()
    ter.corpus_score(["x"], [["x"]])  # the signature needs the number of references
    comp = compare_all(ter, systems)
    assert comp.n == sig.needed_resamples(91, 0.05) == 9099
    assert f"bs:{comp.n}" in comp.metrics[0].signature
    far = [p for p in comp.metrics[0].pairs if abs(p.delta) >= 8]
    assert far and all(p.significant for p in far)
    # The old default: 1,000 resamples, nothing significant among 91 pairs.
    old = compare_all(ter, systems, n=1000)
    assert not any(p.significant for p in old.metrics[0].pairs)
    assert compare_all(ter, dict(itertools.islice(systems.items(), 3))).n == 1000
    assert compare_all(ter, dict(itertools.islice(systems.items(), 3)), test="ar").n == 10000
