"""pycocoevalcap's BLEU against recorded outputs (golden/coco, edge cases; tests/data)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import shutil
import sys
from typing import Any

import pytest
from flavor_support import SHARED, close, options, read_lines, records, ref_paths, requires_shared

from helpers import is_required
from parbleu.errors import FlavorError, TokenizerNotAvailableError
from parbleu.flavors import coco

pytestmark = requires_shared


def _captions(rec: dict[str, Any]) -> tuple[dict[str, list[str]], dict[str, list[str]]] | None:
    """``gts`` and ``res`` as the record's pipeline scored them (None: not reproducible here)."""
    opts = options(rec)
    pipeline = opts["pipeline"]
    if rec["hyp"].endswith(".json"):
        res = json.loads((SHARED / rec["hyp"]).read_text(encoding="utf-8"))
        gts = json.loads((SHARED / ref_paths(rec)[0]).read_text(encoding="utf-8"))
    elif opts.get("refs_source") == "ragged.json":
        data = json.loads(
            (SHARED / rec["hyp"]).with_name("ragged.json").read_text(encoding="utf-8")
        )
        res = {str(i): [h] for i, h in enumerate(data["hyp"])}
        gts = {str(i): list(r) for i, r in enumerate(data["refs_per_segment"])}
    else:
        hyps = list(read_lines(rec["hyp"]))
        streams = [list(read_lines(p)) for p in ref_paths(rec)]
        res = {str(i): [h] for i, h in enumerate(hyps)}
        gts = {str(i): [s[i] for s in streams if i < len(s)] for i in range(len(hyps))}
    if pipeline.startswith("ptb"):
        tok = _stored_ptb(rec)
        if tok is not None:
            res = {k: [h] for k, h in zip(res, tok[0])}
            gts = {k: r for k, r in zip(gts, tok[1])}
        elif _ptb_available():
            # The original pipeline: pycocoevalcap's Stanford PTB tokenizer (Java) on both sides.
            ptb = coco.PTBTokenizer()
            with (
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
            ):
                gts = ptb.tokenize({k: [{"caption": c} for c in v] for k, v in gts.items()})
                res = ptb.tokenize({k: [{"caption": c} for c in v] for k, v in res.items()})
        else:
            return None
    return gts, res


def _ptb_available() -> bool:
    """pycocoevalcap (the ``coco`` extra) and Java, which its PTB tokenizer runs."""
    return importlib.util.find_spec("pycocoevalcap") is not None and bool(shutil.which("java"))


_PTB_STORE: dict[str, tuple[list[str], list[list[str]]]] = {}


def _stored_ptb(rec: dict[str, Any]) -> tuple[list[str], list[list[str]]] | None:
    """PTB-tokenized captions recorded in the golden files (only some records hold them)."""
    if not _PTB_STORE:
        for r in records("coco/captions.jsonl"):
            if "ptb_tokenized_hyp" in r and "ptb_tokenized_refs" in r:
                _PTB_STORE[r["hyp"]] = (r["ptb_tokenized_hyp"], r["ptb_tokenized_refs"])
    return _PTB_STORE.get(rec["hyp"])


def _records() -> list[dict[str, Any]]:
    out = list(records("coco/captions.jsonl")) + list(records("coco/mt.jsonl"))
    out += [r for r in records("edge_cases_others/edge_cases.jsonl") if ".coco." in r["id"]]
    return out


def _score(rec: dict[str, Any], gts: Any, res: Any) -> Any:
    opts = options(rec)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        if "BleuScorer" in opts["pipeline"]:
            scorer = coco.BleuScorer(n=opts.get("n", 4))
            for k in gts:
                scorer += (res[k][0], gts[k])
            result = scorer.compute_score(option=opts["reflen_option"], verbose=1), scorer
        else:
            result = coco.Bleu(opts.get("n", 4)).compute_score(gts, res), None
    assert out.getvalue().count("ratio:") == 1
    return result


@pytest.mark.parametrize("rec", _records(), ids=lambda r: r["id"])
def test_bleu(rec: dict[str, Any]) -> None:
    inputs = _captions(rec)
    if inputs is None:
        pytest.skip(
            "PTB tokenization not recorded for this input, and pycocoevalcap (extra coco) or "
            "Java missing"
        )
    gts, res = inputs
    if "error" in rec:
        kind = rec["error"].split(":")[0]
        with pytest.raises(FlavorError) as ei:
            _score(rec, gts, res)
        assert any(c.__name__ == kind for c in type(ei.value).__mro__)
        return
    (score, per_image), scorer = _score(rec, gts, res)
    assert close(score, rec["scores_bleu_1_to_4"])
    assert close(score[-1], rec["score"])
    if "per_image_bleu_1_to_4" in rec:
        assert close(per_image, rec["per_image_bleu_1_to_4"])
    if "segment_scores_first_200" in rec:
        assert close([s[:200] for s in per_image], rec["segment_scores_first_200"])
    if scorer is not None:
        assert close(scorer.ratio(), rec["ratio"])
        assert close(scorer.reflen(), rec["reflen"]) and scorer.testlen() == rec["testlen"]


def test_ptb_jar_option_without_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    # java=True without pycocoevalcap (hidden here if installed): an error naming the extra;
    # the native tokenizer (the default) needs neither.
    monkeypatch.setitem(sys.modules, "pycocoevalcap.tokenizer.ptbtokenizer", None)
    with pytest.raises(TokenizerNotAvailableError, match=r"parbleu\[coco\]"):
        coco.PTBTokenizer(java=True).tokenize({"1": [{"caption": "A dog."}]})
    assert coco.PTBTokenizer().tokenize({"1": [{"caption": "A dog."}]}) == {"1": ["a dog"]}


def test_ci_runs_the_ptb_records() -> None:
    # CI's coco step installs the extra, has Java and sets PARBLEU_REQUIRE=coco: the PTB records
    # must not skip there.
    if not is_required("coco", "pycocoevalcap"):
        pytest.skip("PARBLEU_REQUIRE does not name coco (the coco extra's CI step does)")
    assert _ptb_available(), "PARBLEU_REQUIRE=coco: pycocoevalcap or Java missing"


def test_average_with_one_segment_is_the_default() -> None:
    s = coco.BleuScorer("a b c", ["a b c d", "a b"])
    with contextlib.redirect_stdout(io.StringIO()):
        (bleus, _), ratio = s.compute_score(), s.ratio()
    assert s.reflen() == 3.0 and ratio < 1 and bleus[0] < 1
