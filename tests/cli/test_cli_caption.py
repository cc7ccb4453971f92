"""``-m cider rouge-l meteor``: COCO's caption metrics as registered metrics (issue 33).

Numbers: pycocoevalcap's (live where installed, else parbleu's coco flavor, itself checked
against pycocoevalcap and golden records in tests/flavors). Surfaces: plain scoring with
several reference files, JSON, ``--paired-bs``, ``compare`` refusals naming the capability.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_support import run_main

from parbleu.errors import InvalidOptionError
from parbleu.flavors import coco
from parbleu.metrics.caption.ptb import ptb_tokenize
from parbleu.metrics.registry import get_metric, make_metric

HYPS = ["A dog runs on the grass.", "Two cats sleep on a red sofa.", "A man rides a bike.",
        "A plane over a lake.", "People walk in the rain, with umbrellas."]  # fmt: skip
REFS = [
    ["A brown dog running on grass.", "A dog is running in a field.", "The dog runs."],
    ["Two cats are sleeping on a couch.", "Cats asleep on a sofa.", "Two kittens on a sofa."],
    ["A man riding a bicycle.", "A person on a bike in the street.", "A cyclist rides by."],
    ["A small plane flying over a lake.", "An airplane above water.", "A plane and a lake."],
    ["People with umbrellas walking.", "A crowd in the rain.", "Pedestrians under umbrellas."],
]
STREAMS = [[r[j] for r in REFS] for j in range(3)]
HAVE_ORIGINAL = importlib.util.find_spec("pycocoevalcap") is not None


def _original_bleu() -> list[float]:
    """pycocoevalcap's ``Bleu(4)`` corpus scores of HYPS, REFS after the PTB tokenizer."""
    gts = {i: [ptb_tokenize(r) for r in rs] for i, rs in enumerate(REFS)}
    res = {i: [ptb_tokenize(h)] for i, h in enumerate(HYPS)}
    if HAVE_ORIGINAL:
        from pycocoevalcap.bleu.bleu import Bleu

        scorer: Any = Bleu(4)
    else:
        scorer = coco.Bleu(4)
    return [float(x) for x in scorer.compute_score(gts, res, verbose=0)[0]]


def _original(name: str) -> tuple[float, list[float]]:
    gts = {i: [ptb_tokenize(r) for r in rs] for i, rs in enumerate(REFS)}
    res = {i: [ptb_tokenize(h)] for i, h in enumerate(HYPS)}
    if HAVE_ORIGINAL:
        from pycocoevalcap.cider.cider import Cider
        from pycocoevalcap.rouge.rouge import Rouge

        scorer: Any = {"cider": Cider, "rouge-l": Rouge}[name]()
    else:
        scorer = {"cider": coco.Cider, "rouge-l": coco.Rouge}[name]()
    mean, per = scorer.compute_score(gts, res)
    return float(mean), [float(x) for x in per]


@pytest.mark.parametrize("name", ["cider", "rouge-l"])
def test_api_is_pycocoevalcap(name: str) -> None:
    m = make_metric(name)
    mean, per = _original(name)
    assert m.corpus_score(HYPS, STREAMS).score == mean  # the same bits
    assert m.sentence_scores(HYPS, STREAMS).tolist() == per
    evaluated = coco.evaluate(
        {i: r for i, r in enumerate(REFS)}, {i: [h] for i, h in enumerate(HYPS)},
        metrics=["CIDEr" if name == "cider" else "ROUGE_L"],
    )[0]  # fmt: skip
    assert list(evaluated.values()) == [mean]
    # Resampled by the core's Scorer.mean: the interval is around the mean of images.
    s = m.corpus_score(HYPS, STREAMS, n_bootstrap=200)
    assert s.score == pytest.approx(float(np.mean(per)), abs=1e-12)
    assert s._ci > 0 and "±" in s.format()


@pytest.mark.parametrize("name", ["cider", "rouge-l"])
def test_pre_tokenized(name: str) -> None:
    tok = [[ptb_tokenize(r) for r in s] for s in STREAMS]
    got = make_metric(name).corpus_score([ptb_tokenize(h) for h in HYPS], tok).score
    assert (
        get_metric(name)
        .create(tokenize="none")
        .corpus_score([ptb_tokenize(h) for h in HYPS], tok)
        .score
        == got
        == _original(name)[0]
    )
    with pytest.raises(InvalidOptionError, match="tokenize"):
        get_metric(name).create(tokenize="13a")


def test_capabilities_declared() -> None:
    assert get_metric("cider").capabilities.resample
    assert not get_metric("cider").capabilities.streaming  # document frequencies: whole set
    assert not get_metric("meteor").capabilities.resample  # the jar's aggregate, not a mean
    # COCO's BLEU sums n-gram counts over images: its score is no mean of image rows.
    caps = get_metric("bleu-coco").capabilities
    assert not caps.resample and not caps.streaming and not caps.merge


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, list[str]]:
    hyp = tmp_path / "cap.hyp"
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    refs = []
    for j, s in enumerate(STREAMS):
        p = tmp_path / f"cap.ref{j}"
        p.write_text("\n".join(s) + "\n", encoding="utf-8")
        refs.append(str(p))
    return str(hyp), refs


def test_cli_several_reference_files(
    files: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    hyp, refs = files
    run = run_main([*refs, "-i", hyp, "-m", "cider", "rouge-l", "-f", "text"], monkeypatch)
    assert run.code == 0, run.err
    lines = run.out.decode().strip().splitlines()
    # COCOEvalCap's precision: %0.3f.
    assert lines[0].startswith("CIDEr|nrefs:3|tok:ptb|")
    assert lines[0].endswith(f" = {_original('cider')[0]:.3f}")
    assert lines[1].endswith(f" = {_original('rouge-l')[0]:.3f}")
    run = run_main([*refs, "-i", hyp, "-m", "cider", "-w", "6"], monkeypatch)
    out = json.loads(run.out)
    assert out["score"] == round(_original("cider")[0], 6)
    assert "tok:ptb" in out["signature"] and "nrefs:3" in out["signature"]


def test_cli_paired_bs(files: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    hyp, refs = files
    other = Path(hyp).with_name("other.hyp")
    other.write_text("\n".join(reversed(HYPS)) + "\n", encoding="utf-8")
    argv = [*refs, "-i", hyp, str(other), "-m", "cider", "rouge-l", "--paired-bs"]
    run = run_main([*argv, "--paired-bs-n", "100"], monkeypatch)
    assert run.code == 0, run.err
    rows = json.loads(run.out)
    assert rows[0]["CIDEr"]["score"] == _original("cider")[0]
    assert rows[1]["CIDEr"]["p_value"] < 0.05 and rows[1]["ROUGE_L"]["ci"] > 0


def test_cli_meteor_refused_by_resampling(
    files: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    hyp, refs = files
    run = run_main([*refs, "-i", hyp, hyp, "-m", "meteor", "--paired-bs"], monkeypatch)
    assert run.code != 0
    err = run.err.decode()
    assert "METEOR" in err and "resample" in err, err


def test_cli_bleu_coco_reference_files(
    files: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    hyp, refs = files
    want = _original_bleu()
    run = run_main([*refs, "-i", hyp, "-m", "bleu-coco", "-w", "15"], monkeypatch)
    assert run.code == 0, run.err
    out = json.loads(run.out)
    assert [o["name"] for o in out] == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"]
    assert [o["score"] for o in out] == [round(w, 15) for w in want]
    assert all("nrefs:3" in o["signature"] and "tok:ptb" in o["signature"] for o in out)
    # API: the columns' scores are the original's bits; the object itself scores Bleu_4.
    cols = make_metric("bleu-coco").columns()
    assert [c.corpus_score(HYPS, STREAMS).score for c in cols] == want
    assert make_metric("bleu-coco").corpus_score(HYPS, STREAMS).score == want[3]
    run = run_main([*refs, "-i", hyp, "-m", "bleu-coco", "bleu", "-f", "text"], monkeypatch)
    lines = [line.strip() for line in run.out.decode().strip().splitlines()]
    assert lines[0].startswith("BLEU|") and lines[1].startswith("Bleu_1|nrefs:3|tok:ptb|")
    assert lines[4].endswith(f" = {want[3]:.3f}")


def test_metrics_lists_bleu_coco(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main(["metrics"], monkeypatch)
    assert run.code == 0, run.err
    text = run.out.decode()
    assert "bleu-coco: COCOEvalCap's Bleu_1..Bleu_4" in text
    row = next(line for line in text.splitlines() if line.startswith("bleu-coco "))
    assert row.split()[1:5] == ["-", "higher", "-", "-"]  # no resampling, no pairwise
