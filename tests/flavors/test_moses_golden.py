"""multi-bleu.perl / multi-bleu-detok.perl against their recorded outputs (golden data)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from flavor_support import SHARED, read_lines, records, requires_shared, with_edge_cases
from hypothesis import given, settings
from hypothesis import strategies as st

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
    return with_edge_cases(records("moses/corpus.jsonl"), ".moses.")


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


def _read_chop_loop(data: bytes) -> list[str]:
    # The character loop the split-based reader replaced: Perl's chop of every line.
    text = data.decode("utf-8", "replace")
    out = []
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end + 1
        out.append(text[start : end - 1])
        start = end
    return out


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab\n\r é😀", max_size=30))
def test_read_chop_equals_the_loop(text: str) -> None:
    data = text.encode()
    assert moses._read_chop(data) == _read_chop_loop(data)
    assert moses._read_chop(data + b"\xff") == _read_chop_loop(data + b"\xff")


def _perl_ref_len(hyp_lens: list[int], ref_lens: list[list[int]]) -> int:
    # multi-bleu(-detok).perl's loop: start at (9999, 9999), keep the closest, ties shorter.
    total = 0
    for h, rl in zip(hyp_lens, ref_lens):
        best = (9999, 9999)
        for r in rl:
            best = min(best, (abs(h - r), r))
        total += best[1]
    return total


lengths = st.sampled_from([0, 1, 2, 9998, 9999, 10000, 10001, 20001])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(lengths, min_size=1, max_size=4),
    st.lists(st.lists(lengths, max_size=4), min_size=1, max_size=2),
)
def test_reference_length_rule(hyp_lens: list[int], ref_streams: list[list[int]]) -> None:
    # Long lines, where Perl's start value (9999, 9999) beats every reference, and reference
    # files shorter than the hypotheses (no reference line), on both the vectorized and the
    # loop path of _finish.
    hyps = [" ".join(["w"] * h) for h in hyp_lens]
    streams = [[" ".join(["w"] * r) for r in s] for s in ref_streams]
    segs = moses._segments(len(hyps), [s[: len(hyps)] for s in ref_streams])
    want = _perl_ref_len(hyp_lens, segs)
    try:
        res = moses.multi_bleu(hyps, streams)
    except ZeroDivisionError:
        return
    assert res.ref_len == want


@pytest.mark.parametrize("detok", [False, True])
def test_missing_or_empty_reference_dies_as_perl(tmp_path: Any, detok: bool) -> None:
    script = "multi-bleu-detok.perl" if detok else "multi-bleu.perl"
    line = 42 if detok else 32
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    full = tmp_path / "full"
    full.write_bytes(b"a b\n")
    cases = [
        # (argv, exit status): ENOENT when the stem does not exist, 255 after reading it; the
        # further arguments are only read after the check.
        ([str(tmp_path / "none")], 2),
        ([str(empty)], 255),
        ([str(empty), str(full)], 255),
    ]
    for argv, status in cases:
        out, err = io.StringIO(), io.StringIO()
        assert moses.main(argv, detok, b"a b\n", out, err) == status
        assert out.getvalue() == ""
        assert err.getvalue() == (
            f"ERROR: could not find reference file {argv[0]} at {script} line {line}.\n"
        )
    out = io.StringIO()
    assert moses.main([str(full), str(empty)], detok, b"a b\n", out, io.StringIO()) == 0
    # Perl's line for this input (no trigram: 0.00).
    assert out.getvalue() == (
        "BLEU = 0.00, 100.0/100.0/0.0/0.0 (BP=1.000, ratio=1.000, hyp_len=2, ref_len=2)\n"
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=6) | st.text(alphabet="a\n\xe9", max_size=4), max_size=5))
def test_latin1_lines_equal_line_by_line(lines: list[Any]) -> None:
    assert moses._latin1_lines(lines) == [moses._as_latin1(x) for x in lines]
