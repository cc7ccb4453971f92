"""tensorflow/nmt (and HF evaluate's bleu) and tensor2tensor against recorded outputs."""

from __future__ import annotations

import json
from typing import Any

import flavor_support
import numpy as np
import pytest
from flavor_support import SHARED, close, options, read_lines, records, ref_paths, requires_shared

from parbleu import _core
from parbleu.errors import FlavorError
from parbleu.flavors import t2t, tfnmt

pytestmark = requires_shared


def _tok(lines: list[str], how: str) -> list[list[str]]:
    if how == "13a":
        return [t.split() for t in _core.tokenize("13a", lines, False)]
    assert how == "split", how
    return [line.split() for line in lines]


def api_inputs(rec: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Hypothesis lines and per-segment reference lines as the API tools were given them."""
    hyps = list(read_lines(rec["hyp"]))
    case_dir = SHARED / rec["hyp"].rsplit("/", 1)[0]
    ragged = case_dir / "ragged.json"
    if rec.get("case") and ragged.is_file():
        data = json.loads(ragged.read_text(encoding="utf-8"))
        return data["hyp"], data["refs_per_segment"]
    streams = [list(read_lines(p)) for p in ref_paths(rec)]
    return hyps, [[s[i] for s in streams if i < len(s)] for i in range(len(hyps))]


def _check_result(rec: dict[str, Any], res: tuple[Any, ...]) -> None:
    score, precisions, bp, ratio, sys_len, ref_len = res
    assert close(score, rec["score"]), (score, rec["score"])
    if "precisions" in rec:
        assert close(precisions, rec["precisions"])
        assert close(bp, rec["bp"]) and close(ratio, rec["ratio"])
        assert (sys_len, ref_len) == (rec["sys_len"], rec["ref_len"])


def _error_type(rec: dict[str, Any]) -> str:
    return str(rec["error"]).split(":")[0]


def _raises(rec: dict[str, Any], fn: Any, *args: Any, **kw: Any) -> None:
    with pytest.raises(FlavorError) as ei:
        fn(*args, **kw)
    assert any(c.__name__ == _error_type(rec) for c in type(ei.value).__mro__), ei.value


def _tool_records(impl: str, tag: str) -> list[dict[str, Any]]:
    """A tool's records of tfnmt/corpus.jsonl (``impl`` names it), then its edge cases."""
    return flavor_support.with_edge_cases(
        (r for r in records("tfnmt/corpus.jsonl") if impl in r["impl"]), tag
    )


@pytest.mark.parametrize(
    "rec", _tool_records("nmt/scripts/bleu.py", ".tfnmt."), ids=lambda r: r["id"]
)
def test_nmt(rec: dict[str, Any]) -> None:
    opts = options(rec)
    tok = opts["tokenizer"]
    if tok == "nmt-cli":
        ref, hyp = SHARED / ref_paths(rec)[0], SHARED / rec["hyp"]
        if "error" in rec:
            _raises(rec, tfnmt.bleu, str(ref), str(hyp))
            return
        got = tfnmt.bleu(str(ref), str(hyp))
        assert close(got, 100 * rec["score"])
        if "score_x100" in rec:
            assert close(got, rec["score_x100"])
        return
    hyps, refs = api_inputs(rec)
    h = _tok(hyps, tok)
    flat = _tok([r for rs in refs for r in rs], tok)
    it = iter(flat)
    r = [[next(it) for _ in rs] for rs in refs]
    args = (r, h, opts.get("max_order", 4), opts.get("smooth", False))
    if "error" in rec:
        _raises(rec, tfnmt.compute_bleu, *args)
        return
    _check_result(rec, tfnmt.compute_bleu(*args))
    if tok == "13a" and rec.get("equivalent_to", "").startswith("HF"):
        d = tfnmt.load("bleu").compute(
            predictions=hyps, references=refs, max_order=args[2], smooth=args[3]
        )
        res = tuple(
            d[k]
            for k in (
                "bleu",
                "precisions",
                "brevity_penalty",
                "length_ratio",
                "translation_length",
                "reference_length",
            )
        )
        _check_result(rec, res)


@pytest.mark.parametrize("rec", list(records("tfnmt/sentence.jsonl")), ids=lambda r: r["id"])
def test_nmt_sentence(rec: dict[str, Any]) -> None:
    opts = options(rec)
    lo, hi = rec["line_range"]
    hyps = _tok(list(read_lines(rec["hyp"]))[lo:hi], opts["tokenizer"])
    streams = [_tok(list(read_lines(p))[lo:hi], opts["tokenizer"]) for p in ref_paths(rec)]
    for i, want in enumerate(rec["segments"]):
        res = tfnmt.compute_bleu([[s[i] for s in streams]], [hyps[i]], 4, opts["smooth"])
        _check_result(want, res)
    assert len(rec["segments"]) == len(rec["segment_scores"])


@pytest.mark.parametrize("rec", _tool_records("tensor2tensor", ".t2t."), ids=lambda r: r["id"])
def test_t2t(rec: dict[str, Any]) -> None:
    opts = options(rec)
    api = rec.get("api") or opts.get("api", "")
    if "bleu_wrapper" in api:
        ref, hyp = str(SHARED / ref_paths(rec)[0]), str(SHARED / rec["hyp"])
        cs = opts["case_sensitive"]
        if "error" in rec:
            _raises(rec, t2t.bleu_wrapper, ref, hyp, cs)
            return
        got = t2t.bleu_wrapper(ref, hyp, cs)
        assert isinstance(got, np.float32)
        assert got == np.float32(rec["score"])
        if "t2t_bleu_printed" in rec:
            assert f"{100 * got:6.2f}" == rec["t2t_bleu_printed"]
        return
    hyps = [h.split() for h in read_lines(rec["hyp"])]
    refs = [r.split() for r in read_lines(ref_paths(rec)[0])]
    got = t2t.compute_bleu(refs, hyps)
    assert isinstance(got, np.float32) and got == np.float32(rec["score"])


def test_t2t_command_output() -> None:
    rec = next(r for r in _tool_records("tensor2tensor", ".t2t.") if "t2t_bleu_printed" in r)
    out = t2t.t2t_bleu(str(SHARED / rec["hyp"]), str(SHARED / ref_paths(rec)[0]))
    assert out.startswith("BLEU_uncased = ") and "BLEU_cased = " in out


def test_errors_are_flavor_errors() -> None:
    with pytest.raises(ZeroDivisionError):
        tfnmt.compute_bleu([[["a"]]], [[]])
    with pytest.raises(FlavorError):
        tfnmt.compute_bleu([[[]]], [["a"]])
    with pytest.raises(ValueError):
        tfnmt.compute_bleu([[]], [["a"]])
    assert tfnmt.hf_bleu(["a"], [""])["brevity_penalty"] == 0.0
