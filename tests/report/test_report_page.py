"""``parbleu.report``: the page's structure (parsed, not string-matched) and its numbers.

Numbers are checked against SacreBLEU 2.6.0 and NLTK (oracles), against
:func:`parbleu.significance.compare_all` (the API the table reports), and against naive
re-implementations of the word-level counts.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
import sacrebleu
from report_support import NAMES, Node, check_bucket_bleu, data_v, parse, sample, sample_report
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import parbleu
from parbleu.significance import compare_all

N = 200


@pytest.fixture(scope="module")
def page() -> Node:
    return parse(sample_report(N).html())


def test_self_contained(page: Node) -> None:
    head = page.iter("head")[0]
    csp = [m for m in head.iter("meta") if m.attrs.get("http-equiv") == "Content-Security-Policy"]
    assert len(csp) == 1 and "default-src 'none'" in (csp[0].attrs["content"] or "")
    assert not page.iter("link") and not page.iter("iframe") and not page.iter("img")
    for node in page.iter():
        for name in ("src", "href", "action", "srcset", "poster", "data"):
            assert name not in node.attrs, f"<{node.tag} {name}=...> loads something"
    scripts = page.iter("script")
    assert [s.attrs.get("type") for s in scripts] == ["application/json", None]


def test_embedded_json_is_the_data(page: Node) -> None:
    rep = sample_report(N)
    embedded = json.loads(page.by_id("parbleu-data").text())
    assert embedded == json.loads(rep.to_json())


def test_score_table_equals_sacrebleu(page: Node) -> None:
    ref, systems = sample(N)
    table = page.by_id("score-table")
    head = [th.text() for th in table.iter("th")]
    assert head[:4] == ["System", "BLEU", "BLEU CI low", "BLEU CI high"]
    rows = table.iter("tbody")[0].iter("tr")
    oracles = [sacrebleu.BLEU(), sacrebleu.CHRF(), sacrebleu.TER()]
    # Best first by the first metric (issue 34), SacreBLEU's BLEU deciding.
    order = sorted(NAMES, key=lambda n: -oracles[0].corpus_score(systems[n], [ref]).score)
    assert order != list(NAMES)  # the sample's file order is not its BLEU order
    assert [r.iter("td")[0].text() for r in rows] == order
    for row, name in zip(rows, order):
        cells = row.iter("td")
        for k, metric in enumerate(oracles):
            expected = metric.corpus_score(systems[name], [ref]).score
            assert data_v(cells[1 + 3 * k]) == pytest.approx(expected, rel=1e-12, abs=1e-12)
            assert cells[1 + 3 * k].text() == f"{expected:.2f}"
    # The last column: BLEU's hypothesis/reference length, as SacreBLEU's ratio.
    assert head[-1] == "length ratio"
    for row, name in zip(rows, order):
        bleu = oracles[0].corpus_score(systems[name], [ref])
        assert data_v(row.iter("td")[-1]) == pytest.approx(bleu.sys_len / bleu.ref_len)
        assert row.iter("td")[-1].text() == f"{bleu.sys_len / bleu.ref_len:.3f}"
    sigs = [c.text() for c in page.by_id("scores").iter("code")]
    oracles[0].corpus_score(systems[NAMES[0]], [ref])
    assert sigs[0] == oracles[0].get_signature().format().replace(
        "version:2.6.0", f"version:parbleu-{parbleu.__version__}"
    )


def test_intervals_and_pairs_equal_compare_all(page: Node) -> None:
    ref, systems = sample(N)
    comp = compare_all(
        [parbleu.BLEU(), parbleu.CHRF(), parbleu.TER()], systems, [ref], n=200, seed=12345
    )
    rows = page.by_id("score-table").iter("tbody")[0].iter("tr")
    for row in rows:
        cells = row.iter("td")
        name = cells[0].text()
        for k, mc in enumerate(comp.metrics):
            ci = mc.intervals[name]
            assert (data_v(cells[2 + 3 * k]), data_v(cells[3 + 3 * k])) == (ci.low, ci.high)
    for k, mc in enumerate(comp.metrics):
        trs = page.by_id(f"sig-table-{k}").iter("tbody")[0].iter("tr")
        assert len(trs) == len(mc.pairs) == 3
        for tr, pair in zip(trs, mc.pairs):
            tds = tr.iter("td")
            assert [tds[0].text(), tds[1].text()] == [pair.system_a, pair.system_b]
            assert [data_v(tds[i]) for i in (2, 3, 4)] == [pair.delta, pair.p_value, pair.p_holm]
            assert tds[5].text() == ("yes" if pair.significant else "no")
            assert ("sig-yes" in tr.cls()) == pair.significant
        # Holm: the adjusted p-values, recomputed here from the raw ones
        raw = [p.p_value for p in mc.pairs]
        order = sorted(range(3), key=lambda i: raw[i])
        running = 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (3 - rank) * raw[i]))
            assert mc.pairs[i].p_holm == pytest.approx(running)


def test_sentence_scores_equal_sacrebleu() -> None:
    ref, systems = sample(N)
    data = sample_report(N).data
    by_metric = {m["metric"]: m["scores"] for m in data["sentence"]}
    assert list(by_metric) == ["BLEU", "chrF2", "TER"]
    assert [m["higher_is_better"] for m in data["sentence"]] == [True, True, False]
    for name in NAMES:
        for i in range(0, N, 17):
            h, r = systems[name][i], [ref[i]]
            assert by_metric["BLEU"][name][i] == pytest.approx(
                sacrebleu.sentence_bleu(h, r).score, abs=1e-9
            )
            assert by_metric["chrF2"][name][i] == pytest.approx(
                sacrebleu.sentence_chrf(h, r).score, abs=1e-9
            )
            assert by_metric["TER"][name][i] == pytest.approx(
                sacrebleu.sentence_ter(h, r).score, abs=1e-9
            )


def _tokens(lines: list[str]) -> list[list[str]]:
    tok = Tokenizer13a()
    return [tok(line.rstrip()).split() for line in lines]


def test_length_buckets_equal_sacrebleu(page: Node) -> None:
    ref, systems = sample(N)
    b = sample_report(N).data["length_buckets"]
    lens = [len(t) for t in _tokens(ref)]
    edges = [0, *b["edges"], math.inf]
    # Systems down, buckets across (a 50-system page grows down, not sideways), the segment
    # counts in the footer.
    table = page.by_id("length_buckets-bleu")
    assert [th.text() for th in table.iter("th")] == ["System", *b["labels"]]
    rows = table.iter("tbody")[0].iter("tr")
    assert [r.iter("td")[0].text() for r in rows] == list(NAMES)
    counts = table.iter("tfoot")[0].iter("td")
    assert counts[0].text() == "segments"
    for k in range(len(b["labels"])):
        idx = [i for i, n in enumerate(lens) if edges[k] <= n < edges[k + 1]]
        assert data_v(counts[1 + k]) == len(idx) == b["segments"][k]
        for row, name in zip(rows, NAMES):
            check_bucket_bleu(data_v(row.iter("td")[1 + k]), systems[name], ref, idx)


def _clipped(hyp: list[str], ref: list[str], n: int) -> Counter[tuple[str, ...]]:
    h = Counter(tuple(hyp[j : j + n]) for j in range(len(hyp) - n + 1))
    r = Counter(tuple(ref[j : j + n]) for j in range(len(ref) - n + 1))
    return h & r


def test_frequency_buckets_equal_a_naive_count() -> None:
    ref, systems = sample(N)
    b = sample_report(N).data["freq_buckets"]
    rt = _tokens(ref)
    freq = Counter(w for t in rt for w in t)
    edges = [0, *b["edges"], math.inf]

    def bucket(w: str) -> int:
        return next(k for k in range(len(edges) - 1) if edges[k] <= freq[w] < edges[k + 1])

    ref_n = Counter(bucket(w) for t in rt for w in t)
    # Counted in the references, no reference word is in bucket "0": it is left out.
    assert ref_n[0] == 0 and b["labels"][0] == "1" and not b["zero_bucket"]
    shown = range(1, len(edges) - 1)
    assert b["ref_tokens"] == [ref_n[k] for k in shown]
    for name in NAMES:
        ht = _tokens(systems[name])
        hyp_n = Counter(bucket(w) for t in ht for w in t)
        match = Counter()
        for h, r in zip(ht, rt):
            for (w,), c in _clipped(h, r, 1).items():
                match[bucket(w)] += c
        for j, k in enumerate(shown):
            p = 100 * match[k] / hyp_n[k] if hyp_n[k] else None
            r_ = 100 * match[k] / ref_n[k] if ref_n[k] else None
            assert b["precision"][name][j] == pytest.approx(p)
            assert b["recall"][name][j] == pytest.approx(r_)


def test_word_list_buckets() -> None:
    ref, systems = sample(50)
    counts = {"die": 5000, "der": 5000, "und": 50}
    rep = parbleu.report([ref], systems, word_counts=counts, flavors=(), n=10)
    b = rep.data["freq_buckets"]
    assert b["source"] == "word list"
    rt = _tokens(ref)
    assert b["ref_tokens"][-1] == sum(t.count("die") + t.count("der") for t in rt)
    assert b["ref_tokens"][5] == sum(t.count("und") for t in rt)
    # With a word list, "0" holds the reference words the list lacks: kept, and filled.
    assert b["zero_bucket"] and b["labels"][0] == "0"
    assert b["ref_tokens"][0] == sum(len(t) for t in rt) - b["ref_tokens"][5] - b["ref_tokens"][-1]
    assert all(r is not None for r in b["recall"]["Online-W"][:1])


def test_ngram_lists_equal_a_naive_count() -> None:
    ref, systems = sample(N)
    data = sample_report(N).data
    rt = _tokens(ref)
    totals = {}
    for name in NAMES:
        c: Counter[tuple[str, ...]] = Counter()
        for h, r in zip(_tokens(systems[name]), rt):
            for n in range(1, 5):
                c.update(_clipped(h, r, n))
        totals[name] = c
    ref_c: Counter[tuple[str, ...]] = Counter()
    for r in rt:
        for n in range(1, 5):
            ref_c.update(tuple(r[j : j + n]) for j in range(len(r) - n + 1))
    assert len(data["pairs"]) == 3
    for pair in data["pairs"]:
        for side, mine, other in (
            ("ngrams_a", pair["a"], pair["b"]),
            ("ngrams_b", pair["b"], pair["a"]),
        ):
            listed = pair[side]
            assert len(listed) == 10
            for g in listed:
                key = tuple(g["ngram"].split())
                assert (g["mine"], g["other"], g["ref"]) == (
                    totals[mine][key],
                    totals[other][key],
                    ref_c[key],
                )
            ratio = [
                (totals[mine][k] + 1) / (totals[mine][k] + totals[other][k] + 2) for k in ref_c
            ]
            assert max(ratio) == pytest.approx(listed[0]["ratio"])
            assert sum(r > listed[-1]["ratio"] + 1e-12 for r in ratio) <= len(listed)


def test_segments_side_by_side(page: Node) -> None:
    ref, systems = sample(N)
    data = sample_report(N).data
    pair = data["pairs"][0]
    views = [d for d in page.iter("div") if "pair-view" in d.cls()]
    assert len(views) == 3
    segs = [d for d in views[0].iter("div") if "seg" in d.cls()]
    assert len(segs) == len(pair["segments"]) == 10
    sent = {m["metric"]: m["scores"] for m in data["sentence"]}["BLEU"]
    diffs = [sent[pair["a"]][i] - sent[pair["b"]][i] for i in range(N)]
    assert segs[0].attrs["data-index"] == str(max(range(N), key=lambda i: (diffs[i], -i)))
    for seg, s in zip(segs, pair["segments"]):
        i = s["index"]
        scores = [x for x in seg.iter("span") if "sent-score" in x.cls()]
        assert [data_v(x) for x in scores] == [sent[pair["a"]][i], sent[pair["b"]][i]]
        hyps = [d for d in seg.iter("div") if "hyp" in d.cls()]
        assert hyps[0].text().split() == _tokens([systems[pair["a"]][i]])[0]
        rt = set(_tokens([ref[i]])[0])
        for span in hyps[0].iter("span"):
            if "m1" in span.cls():
                assert span.text() in rt


def test_flavor_table_nltk_equals_nltk(page: Node) -> None:
    # NLTK is in the test install from Python 3.10 (it supports no older one).
    corpus_bleu = pytest.importorskip("nltk.translate.bleu_score").corpus_bleu

    ref, systems = sample(N)
    table = page.by_id("flavor-table")
    assert [th.text() for th in table.iter("th")] == ["System", "nltk", "multi-bleu", "tfnmt"]
    rows = table.iter("tbody")[0].iter("tr")
    assert [r.iter("td")[0].text() for r in rows] == list(NAMES)
    for row, name in zip(rows, NAMES):
        expected = 100 * corpus_bleu([[r.split()] for r in ref], [h.split() for h in systems[name]])
        assert data_v(row.iter("td")[1]) == pytest.approx(expected, rel=1e-12)
    about = page.by_id("flavor-about").iter("tbody")[0].iter("tr")
    assert [r.iter("td")[0].text() for r in about] == ["nltk", "multi-bleu", "tfnmt"]
    details = page.by_id("flavors").iter("details")
    assert details and "nltk" in details[0].text()


def test_system_controls(page: Node) -> None:
    boxes = [i for i in page.iter("input") if "syspick" in i.cls()]
    assert len(boxes) == 3 and all("checked" in b.attrs for b in boxes)
    options = page.by_id("baseline").iter("option")
    assert [o.text() for o in options] == list(NAMES)
    # The default baseline: the best by BLEU (Facebook-AI on this sample), not the first file.
    assert [("selected" in o.attrs) for o in options] == [False, True, False]


def test_one_system() -> None:
    ref, systems = sample(60)
    rep = parbleu.report([ref], {"only": systems["Online-W"]}, n=50, flavors=())
    root = parse(rep.html())
    assert rep.data["pairs"] == []
    assert [s.attrs.get("id") for s in root.iter("section")] == [
        "scores",
        "sentence",
        "length_buckets",
        "freq_buckets",
        "length_diff_buckets",
    ]
    ci = parbleu.significance.confidence_interval(parbleu.BLEU(), systems["Online-W"], [ref], n=50)
    assert rep.data["scores"][0]["ci"]["only"]["low"] == ci.low
    # Nothing to take differences against: no empty Differences heading and charts.
    ids = {n.attrs.get("id") for n in root.iter()}
    assert "dist-charts" in ids and not ids & {"diff-charts", "diff-caption"}
    assert "Differences" not in root.by_id("sentence").text()


def test_repeated_segments_are_shown_once() -> None:
    ref, systems = sample(60)
    a, b = list(systems["Online-W"]), list(systems["Facebook-AI"])
    # Segment 7, where a beats b most, repeated at 20, 30 and 40 (same reference, same outputs).
    diffs = [parbleu.BLEU(effective_order=True).sentence_score(x, [r]).score
             - parbleu.BLEU(effective_order=True).sentence_score(y, [r]).score
             for x, y, r in zip(a, b, ref)]  # fmt: skip
    top = max(range(60), key=lambda i: (diffs[i], -i))
    ref = list(ref)
    for i in (20, 30, 40):
        ref[i], a[i], b[i] = ref[top], a[top], b[top]
    rep = parbleu.report([ref], {"a": a, "b": b}, flavors=(), top_segments=3, n=10)
    segs = rep.data["pairs"][0]["segments"]
    wins_a = [s for s in segs if s["winner"] == "a"]
    assert len(wins_a) == 3
    keys = [(s["ref"], tuple(s["a_tokens"]), tuple(s["b_tokens"])) for s in segs]
    assert len(set(keys)) == len(keys)
    first = wins_a[0]
    copies = sorted({top, 20, 30, 40} - {first["index"]})
    assert first["index"] == min(top, 20) and first["repeats"] == copies
    assert first["n_repeats"] == 3
    page = parse(rep.html())
    shown = next(d for d in page.iter("div") if "seg" in d.cls())
    assert "(also " + ", ".join(f"#{i + 1}" for i in copies) in shown.text()


def test_baseline_and_pairs_of_many_systems() -> None:
    ref, systems = sample(40)
    many = {f"s{k}": systems[NAMES[k % 3]] for k in range(10)}
    rep = parbleu.report([ref], many, baseline="s3", n=20, flavors=(), all_pairs_up_to=8)
    assert [(p["a"], p["b"]) for p in rep.data["pairs"]] == [
        ("s3", f"s{k}") for k in range(10) if k != 3
    ]
    assert rep.data["baseline"] == "s3"


def test_multiple_references_and_ar() -> None:
    ref, systems = sample(60)
    other = systems["VolcTrans-GLAT"]
    rep = parbleu.report([ref, other], systems, test="ar", n=100, flavors=("nltk",))
    s = rep.data["scores"][0]["scores"]["Online-W"]
    assert s == pytest.approx(sacrebleu.corpus_bleu(systems["Online-W"], [ref, other]).score)
    assert rep.data["scores"][0]["ci"] == {}
    comp = compare_all(parbleu.BLEU(), systems, [ref, other], test="ar", n=100)
    assert [p["p"] for p in rep.data["scores"][0]["pairs"]] == [
        p.p_value for p in comp.metrics[0].pairs
    ]


def test_flavor_systems_baseline_first() -> None:
    ref, systems = sample(30)
    for k, expect in ((1, {"Facebook-AI"}), (2, {"Facebook-AI", "Online-W"}), (5, set(NAMES))):
        rep = parbleu.report(
            [ref], systems, n=10, flavors=("nltk",), baseline="Facebook-AI", flavor_systems=k
        )
        scores = rep.data["flavors"][0]["scores"]
        assert {n for n, v in scores.items() if v is not None} == expect
