"""torchmetrics' ROUGEScore drop-in: integer counts, torchmetrics' float32 per-pair values.

torch and torchmetrics are not needed for most of this file: the drop-in's arithmetic lives in
``parbleu.integrations.rouge_counts`` and is checked against rouge-score's per-pair scores
rounded to float32 (torchmetrics' ``tensor(python_float)``), with references chosen and averaged
as torchmetrics does. The live comparison with ``torchmetrics.text.ROUGEScore`` needs torch
(skipped without it).
"""

from __future__ import annotations

import numpy as np
import pytest

from helpers import require, requires_shared
from rouge_support import summaries

require("rouge_score", "rouge")

from rouge_score import rouge_scorer  # noqa: E402

import parbleu  # noqa: E402
from parbleu.integrations import rouge_counts as rc  # noqa: E402

#: Keys whose numbers do not need NLTK's punkt data (rougeLsum splits with sent_tokenize).
KEYS = ("rouge1", "rouge2", "rougeL", "rouge4")


def _oracle(preds, target, keys, stem, accumulate):  # type: ignore[no-untyped-def]
    """torchmetrics' _rouge_score_update + compute, on rouge-score's per-pair float64 scores."""
    sc = rouge_scorer.RougeScorer(list(keys), use_stemmer=stem)
    per_pred = []
    for p, refs in zip(preds, target):
        rows = []
        for r in refs:
            s = sc.score(r, p)
            rows.append([[s[k].fmeasure, s[k].precision, s[k].recall] for k in keys])
        vals = np.asarray(rows).astype(np.float32)  # (refs, keys, 3)
        if accumulate == "best":
            per_pred.append(vals[int(np.argmax(vals[:, 0, 0]))])
        else:
            per_pred.append(vals.mean(axis=0, dtype=np.float32))
    return np.stack(per_pred)


@requires_shared
@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("accumulate", ["best", "avg"])
def test_per_prediction_values_equal_torchmetrics_formulas(stem: bool, accumulate: str) -> None:
    preds, target = summaries("en", n=50)
    target[3] = target[3][:1]  # a prediction with one reference among two-reference ones
    target[4] = [*target[4], "", target[4][0]]  # an empty reference, a repeated one
    preds[5] = ""
    counts, n_refs = rc.pair_counts(preds, target, KEYS, stem)
    assert counts.dtype == np.int64 and n_refs.tolist()[3:5] == [1, 4]
    values = rc.pair_values(counts)
    want = _oracle(preds, target, KEYS, stem, accumulate)
    if accumulate == "best":
        got = values[rc.choose_best(values, n_refs)]
        assert got.tobytes() == want.tobytes()
    else:
        starts = np.concatenate([[0], np.cumsum(n_refs)[:-1]])
        got = np.stack(
            [values[s : s + n].mean(axis=0, dtype=np.float32) for s, n in zip(starts, n_refs)]
        )
        np.testing.assert_allclose(got, want, rtol=1e-6)
    # Every pair's float32 values are rouge-score's float64 numbers rounded.
    sc = rouge_scorer.RougeScorer(list(KEYS), use_stemmer=stem)
    flat = [(p, r) for p, refs in zip(preds, target) for r in refs]
    for i in (0, 7, len(flat) - 1):
        s = sc.score(flat[i][1], flat[i][0])
        for k, key in enumerate(KEYS):
            assert (
                values[i, k].tolist()
                == np.float32([s[key].fmeasure, s[key].precision, s[key].recall]).tolist()
            )


def test_inputs_as_torchmetrics_reads_them() -> None:
    assert rc.inputs("a b", "a c") == (["a b"], [["a c"]])
    assert rc.inputs("a b", ["a c", "a d"]) == (["a b"], [["a c", "a d"]])
    assert rc.inputs(["a", "b"], ["a", "c"]) == (["a", "b"], [["a"], ["c"]])
    assert rc.inputs(["a"], [["a", "b"]]) == (["a"], [["a", "b"]])
    assert rc.result_keys(("rouge1", "rougeL")) == [
        "rouge1_fmeasure",
        "rouge1_precision",
        "rouge1_recall",
        "rougeL_fmeasure",
        "rougeL_precision",
        "rougeL_recall",
    ]


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: rc.inputs(["a", "b"], [["a"]]), parbleu.LengthMismatchError, "preds"),
        (lambda: rc.inputs(["a"], [[]]), parbleu.InputTypeError, "target"),
        (lambda: rc.inputs([1], [["a"]]), parbleu.InputTypeError, "preds"),
        (lambda: rc.check_keys(("rouge1", "rouge0")), parbleu.InvalidOptionError, "rouge0"),
        (lambda: rc.check_keys("rougeX"), parbleu.InvalidOptionError, "rougeX"),
    ],
)
def test_bad_input_is_one_clear_error(call, error, words) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=words):
        call()


def test_live_torchmetrics_rouge_score() -> None:
    """requires torch: the drop-in against torchmetrics.text.ROUGEScore itself."""
    require("torchmetrics", "torch")
    import torchmetrics.text as tmt

    from parbleu.integrations.torchmetrics import ROUGEScore

    preds = ["My name is John", "the cat sat on the mat", ""]
    target = [["Is your name John", "my name is john"], ["a cat sat on a mat"], ["x"]]
    for accumulate in ("best", "avg"):
        for stem in (False, True):
            ours = ROUGEScore(use_stemmer=stem, accumulate=accumulate, rouge_keys=KEYS)
            theirs = tmt.ROUGEScore(use_stemmer=stem, accumulate=accumulate, rouge_keys=KEYS)
            for m in (ours, theirs):
                m.update(preds[:2], target[:2])
                m.update(preds[2:], target[2:])
            got, want = ours.compute(), theirs.compute()
            assert list(got) == list(want)
            for key in want:
                assert got[key].dtype == want[key].dtype
                assert got[key].item() == want[key].item(), key
