"""multi-bleu.perl / multi-bleu-detok.perl against their recorded outputs (../shared/golden)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from flavor_support import SHARED, read_lines, records, requires_shared

from parbleu.errors import FlavorError
from parbleu.flavors import moses

pytestmark = requires_shared


def _run(rec: dict[str, Any]) -> tuple[int, str, str]:
    detok = rec["impl"].endswith("multi-bleu-detok.perl")
    argv = (["-lc"] if rec["options"].get("lowercase") else []) + [
        str(SHARED / r) for r in rec["refs"]
    ]
    out, err = io.StringIO(), io.StringIO()
    rc = moses.main(argv, detok, (SHARED / rec["hyp"]).read_bytes(), out, err)
    return rc, out.getvalue(), err.getvalue()


def _corpus() -> list[dict[str, Any]]:
    recs = list(records("moses/corpus.jsonl"))
    recs += [r for r in records("edge_cases_others/edge_cases.jsonl") if ".moses." in r["id"]]
    return recs


@pytest.mark.parametrize("rec", _corpus(), ids=lambda r: r["id"])
def test_command_line(rec: dict[str, Any]) -> None:
    rc, out, err = _run(rec)
    assert rc == rec["rc"], (rc, err)
    if rec.get("formatted") is not None:
        assert out == rec["formatted"] + "\n"
    else:
        assert out == rec.get("stdout", "")
    if rc == 255:
        assert "Illegal division by zero" in err
    for line in (rec.get("stderr") or "").splitlines():
        if line.startswith("Use of uninitialized value"):
            assert line.split(" at ")[0] in err


@pytest.mark.parametrize(
    "rec",
    [r for r in _corpus() if r.get("counts") is not None and r.get("rc") == 0],
    ids=lambda r: r["id"],
)
def test_statistics(rec: dict[str, Any]) -> None:
    detok = rec["impl"].endswith("multi-bleu-detok.perl")
    rc, _, _ = _run(rec)
    hyps = (SHARED / rec["hyp"]).read_bytes()
    refs = [(SHARED / r).read_bytes() for r in rec["refs"]]
    if detok:
        res = moses.multi_bleu_detok(
            moses._read_chop(hyps), [moses._read_chop(r) for r in refs], rec["options"]["lowercase"]
        )
    else:
        res = moses.multi_bleu(
            moses._chomp_lines(hyps),
            [moses._chomp_lines(r) for r in refs],
            rec["options"]["lowercase"],
        )
    assert res.counts == rec["counts"] and res.totals == rec["totals"]
    assert (res.hyp_len, res.ref_len) == (rec["sys_len"], rec["ref_len"])
    assert res.exit_code == rc


@pytest.mark.parametrize("rec", list(records("moses/sentence.jsonl")), ids=lambda r: r["id"])
def test_sentence_level(rec: dict[str, Any]) -> None:
    detok = rec["impl"].endswith("multi-bleu-detok.perl")
    lo, hi = rec["line_range"]
    hyps = list(read_lines(rec["hyp"]))[lo:hi]
    streams = [list(read_lines(r))[lo:hi] for r in rec["refs"]]
    fn = moses.multi_bleu_detok if detok else moses.multi_bleu
    for i, want in enumerate(rec["segments"]):
        try:
            res = fn([hyps[i]], [[s[i]] for s in streams], rec["options"]["lowercase"])
        except FlavorError:
            assert want is None or want.get("score") is None
            continue
        assert float(f"{100 * res.bleu:.2f}") == want["score"] == rec["segment_scores"][i]
        assert [float(f"{100 * p:.1f}") for p in res.precisions] == want["precisions"]
        assert float(f"{res.bp:.3f}") == want["bp"]
        assert (res.hyp_len, res.ref_len) == (want["sys_len"], want["ref_len"])
        assert res.counts == want["counts"] and res.totals == want["totals"]


def test_empty_hypotheses_raise_a_flavor_error() -> None:
    with pytest.raises(FlavorError) as ei:
        moses.multi_bleu([b""], [[b"a b"]])
    assert isinstance(ei.value, ZeroDivisionError)
    assert "multi-bleu.perl" in str(ei.value)


def test_no_reference_prints_zero_and_exits_1() -> None:
    res = moses.multi_bleu([b"a"], [[b""]])
    assert res.exit_code == 1
    assert res.stdout == "BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, ref_len=0)\n"


def test_perl_whitespace_rules() -> None:
    # multi-bleu.perl: bytes, NBSP is not a separator; detok: Perl's Unicode \s, U+001C is not.
    res = moses.multi_bleu(["a\u00a0b c"], [["a\u00a0b c"]])
    assert res.hyp_len == 2
    res = moses.multi_bleu_detok(["a\u00a0b c"], [["a b c"]])
    assert res.hyp_len == 3 and res.counts[0] == 3
    res = moses.multi_bleu_detok(["a\x1cb c."], [["a\x1cb c ."]])
    assert res.hyp_len == 3 and res.counts == [3, 2, 1, 0]
