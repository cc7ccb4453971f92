"""mteval-v13a / v14 (BLEU and NIST, system/document/segment level) against recorded outputs."""

from __future__ import annotations

from typing import Any

import flavor_support
import pytest
from flavor_support import close, options, read_lines, records, ref_paths, requires_shared

from parbleu.errors import FlavorError, InvalidOptionError
from parbleu.flavors import mteval

pytestmark = requires_shared


def _kwargs(rec: dict[str, Any]) -> dict[str, Any]:
    opts = options(rec)
    flags = opts.get("flags", [])
    method = "bleu" if "-b" in flags else "nist" if "-n" in flags else "both"
    bp = "shortest" if "shortest" in flags else "closest"
    return {
        "version": "v14" if rec["impl"].endswith("v14.pl") else "v13a",
        "case_sensitive": "-c" in flags,
        "international": "--international-tokenization" in flags,
        "brevity_penalty": bp,
        "smoothing": "--no-smoothing" not in flags,
        "method": method,
        "input_format": opts.get("input_format", "sgm"),
        "docsize": opts.get("docsize"),
    }


def _records() -> list[dict[str, Any]]:
    return flavor_support.with_edge_cases(records("mteval/mteval.jsonl"), ".mteval.")


def _same_printed(got: float | None, want: float | None) -> bool:
    """Equal as Perl prints them (``%.15g``, what the golden files hold)."""
    if want is None:
        return got is None
    return got is not None and float(mteval.perl_number(got)) == float(want)


@pytest.mark.parametrize("rec", _records(), ids=lambda r: r["id"])
def test_mteval(rec: dict[str, Any]) -> None:
    hyps = list(read_lines(rec["hyp"]))
    refs = [list(read_lines(p)) for p in ref_paths(rec)]
    kw = _kwargs(rec)
    if rec.get("rc", 0) != 0:
        with pytest.raises(FlavorError) as ei:
            mteval.score_lines(hyps, refs, **kw)
        first = rec["stderr"].splitlines()[0].split(" at ")[0].strip()
        assert first in str(ei.value), (first, str(ei.value))
        if "line " in rec["stderr"] and "FATAL" not in rec["stderr"]:
            line = rec["stderr"].rsplit("line ", 1)[1].rstrip(".")
            assert f"line {line}." in str(ei.value)
        return
    r = mteval.score_lines(hyps, refs, **kw)
    if kw["method"] != "nist":
        assert _same_printed(r.bleu, rec["score"]), (r.bleu, rec["score"])
    if kw["method"] != "bleu":
        assert _same_printed(r.nist, rec["nist"]) or close(r.nist, rec["nist"], 1e-13), (
            r.nist,
            rec["nist"],
        )
    if "score_line" in rec:
        assert r.score_line.replace('"system"', "") in rec["score_line"].rsplit('"', 2)[0] + "" or (
            r.score_line.split(" for system")[0] == rec["score_line"].split(" for system")[0]
        )
    for key, got in (
        ("bleu_individual", r.bleu_individual),
        ("bleu_cumulative", r.bleu_cumulative),
        ("nist_individual", r.nist_individual),
        ("nist_cumulative", r.nist_cumulative),
    ):
        if key in rec and (kw["method"] == "both" or key.startswith(kw["method"])):
            assert [round(x, 4) for x in got] == pytest.approx(rec[key], abs=1e-9), key
    if rec.get("counts") is not None:
        assert r.counts == rec["counts"] and r.totals == rec["totals"]
    if "ref_ngram_totals_all_refs" in rec:
        assert r.ref_ngram_totals == rec["ref_ngram_totals_all_refs"]
        docs = max(1, len(rec.get("doc_scores_bleu") or {}))
        assert r.tst_info == pytest.approx(rec["tst_info"], abs=6e-5 * docs)
        assert r.ref_info == pytest.approx(rec["ref_info"], abs=6e-5 * docs)
    if "sys_len" in rec:
        assert r.sys_len == rec["sys_len"]
    if rec.get("ref_len") is not None:
        assert r.ref_len == rec["ref_len"]
    lr = rec.get("length_ratio_line")
    if lr is not None:
        assert r.length_ratio_line is not None
        text = r.length_ratio_line
        parts = [
            text.split()[2],
            *text.split("(")[1].split(")")[0].split("/"),
            text.rsplit(" ", 1)[1],
        ]
        if isinstance(lr, dict):
            want = [lr["ratio"], lr["sys_len"], lr["ref_len"], lr["log_bp"]]
        else:
            want = lr
        assert [float(x) for x in parts] == [float(x) for x in want]
    elif kw["version"] == "v14" or kw["method"] == "nist":
        assert r.length_ratio_line is None
    if "segment_scores" in rec:
        got = list(r.seg_bleu.values()) if kw["method"] != "nist" else list(r.seg_nist.values())
        assert all(_same_printed(g, w) for g, w in zip(got, rec["segment_scores"]))
        assert len(got) == len(rec["segment_scores"])
    if "segment_scores_nist" in rec:
        got = list(r.seg_nist.values())
        assert len(got) == len(rec["segment_scores_nist"])
        assert all(
            _same_printed(g, w) or close(g, w, 1e-13)
            for g, w in zip(got, rec["segment_scores_nist"])
        )
    for key, got_d in (("doc_scores_bleu", r.doc_bleu), ("doc_scores_nist", r.doc_nist)):
        if key in rec:
            assert set(got_d) == set(rec[key])
            assert all(close(got_d[d], w, 1e-13) for d, w in rec[key].items())


@pytest.mark.parametrize(
    "rec", [r for r in _records() if _kwargs(r)["method"] != "nist"], ids=lambda r: r["id"]
)
def test_four_orders_give_the_same_bleu(rec: dict[str, Any]) -> None:
    """The flavors table counts orders 1-4 only (``orders=4``): same score, same errors."""
    hyps = list(read_lines(rec["hyp"]))
    refs = [list(read_lines(p)) for p in ref_paths(rec)]
    kw = {**_kwargs(rec), "method": "bleu"}
    try:
        want: Any = mteval.score_lines(hyps, refs, **kw)
    except FlavorError as e:
        with pytest.raises(FlavorError) as ei:
            mteval.score_lines(hyps, refs, **kw, orders=4)
        assert str(ei.value) == str(e)
        return
    got = mteval.score_lines(hyps, refs, **kw, orders=4)
    assert (got.bleu, got.seg_bleu, got.doc_bleu) == (want.bleu, want.seg_bleu, want.doc_bleu)
    assert got.length_ratio_line == want.length_ratio_line
    assert got.counts[:4] == want.counts[:4] and got.counts[4:] == [0] * 5


def test_every_system_counts_every_order() -> None:
    """Several systems in one call score as each alone (NIST needs orders 1-5 for each)."""
    # "a b c d" occurs twice, so its 5-grams carry information (NIST's 5th order is not 0).
    refs = {"r": {"d": {"1": "the cat sat on the mat today", "2": "a b c d e a b c d f"}}}
    test = {
        "s1": {"d": {"1": "the cat sat on a mat today", "2": "a b c d e"}},
        "s2": {"d": {"1": "the cat sat on the mat", "2": "a b c d e a b c d f"}},
    }
    both = mteval.evaluate(test, refs)
    for sysid in test:
        alone = mteval.evaluate({sysid: test[sysid]}, refs)[sysid]
        assert (both[sysid].nist, both[sysid].bleu) == (alone.nist, alone.bleu)
        assert both[sysid].tst_info == alone.tst_info


@pytest.mark.parametrize("orders", [0, 10, True, 4.0])
def test_orders_out_of_range(orders: Any) -> None:
    with pytest.raises(InvalidOptionError, match="orders="):
        mteval.score_lines(["a"], [["a"]], orders=orders)


def test_sgml_reader_round_trip(tmp_path: Any) -> None:
    src = tmp_path / "src.sgm"
    ref = tmp_path / "ref.sgm"
    tst = tmp_path / "tst.sgm"
    body = '<doc docid="d1" sysid="{s}">\n<seg id="1">{a}</seg>\n<seg id="2">{b}</seg>\n</doc>'
    src.write_text(
        '<srcset setid="x" srclang="en">' + body.format(s="src", a="x", b="y") + "</srcset>"
    )
    ref.write_text(
        '<refset setid="x" srclang="en" trglang="de" refid="r">'
        + body.format(s="r", a="Rodgers &amp;amp; Hart", b="the cat")
        + "</refset>"
    )
    tst.write_text(
        '<tstset setid="x" srclang="en" trglang="de" sysid="s">'
        + body.format(s="s", a="Rodgers &amp;amp; Hart", b="the  dog")
        + "</tstset>"
    )
    import io

    out, err = io.StringIO(), io.StringIO()
    rc = mteval.main(["-r", str(ref), "-s", str(src), "-t", str(tst), "-c"], "v13a", out, err)
    assert rc == 0, err.getvalue()
    assert 'for system "s"' in out.getvalue()
    tokens = mteval.tokenize("Rodgers &amp;amp; Hart", case_sensitive=True)
    assert tokens == ["Rodgers", "&", "amp", ";", "Hart"]


def test_xml_files_match_the_xml_path(tmp_path: Any) -> None:
    import io
    from xml.sax.saxutils import escape

    hyps = ["Rodgers &amp; Hart met.", "the <skipped> dog"]
    refs = ["Rodgers & Hart met .", "the dog"]

    def doc(lines: list[str]) -> str:
        segs = "".join(f'<seg id="{i + 1}">{escape(x)}</seg>' for i, x in enumerate(lines))
        return f'<doc docid="d1">{segs}</doc>'

    (tmp_path / "src.xml").write_text(
        f'<mteval><srcset setid="x" srclang="en">{doc(refs)}</srcset></mteval>', encoding="utf-8"
    )
    (tmp_path / "ref.xml").write_text(
        '<mteval><refset setid="x" srclang="en" trglang="de" refid="r">'
        f"{doc(refs)}</refset></mteval>",
        encoding="utf-8",
    )
    (tmp_path / "tst.xml").write_text(
        '<mteval><tstset setid="x" srclang="en" trglang="de" sysid="s">'
        f"{doc(hyps)}</tstset></mteval>",
        encoding="utf-8",
    )
    out = io.StringIO()
    argv = ["-r", str(tmp_path / "ref.xml"), "-s", str(tmp_path / "src.xml")]
    argv += ["-t", str(tmp_path / "tst.xml"), "-c", "-b"]
    assert mteval.main(argv, "v13a", out, io.StringIO()) == 0
    want = mteval.score_lines(hyps, [refs], case_sensitive=True, method="bleu", input_format="xml")
    assert f"BLEU score = {want.bleu:.4f}" in out.getvalue()
    sgm = mteval.score_lines(hyps, [refs], case_sensitive=True, method="bleu")
    assert sgm.bleu != want.bleu  # the SGML path keeps "& amp ;" and "< skipped >"
