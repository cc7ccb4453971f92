"""parbleu's stand-ins for the hub's sacrebleu/bleu/chrf/ter modules, against SacreBLEU and
the tfnmt flavor; evaluate.load on them offline; compute_metrics with a fake tokenizer."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

import parbleu
from helpers import read_lines, require, requires_shared
from parbleu.flavors import tfnmt
from parbleu.integrations import evaluate as pe

WMT = "data/wmt21"


def _wmt(n: int = 300) -> tuple[list[str], list[list[str]]]:
    hyp = list(read_lines(f"{WMT}/system-outputs/newstest2021.en-de.hyp.Online-W.de"))[:n]
    refs = [list(read_lines(f"{WMT}/references/newstest2021.en-de.ref.{x}.de"))[:n] for x in "AC"]
    # The hub modules take references per prediction.
    return hyp, [list(r) for r in zip(*refs)]


#: The hub sacrebleu module's output: these attributes of SacreBLEU's BLEUScore, by name.
HUB_SACREBLEU_KEYS = ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len")


def _hub_sacrebleu(predictions, references, **kw):
    """The hub module's _compute (huggingface/evaluate metrics/sacrebleu), on SacreBLEU."""
    if isinstance(references[0], str):
        references = [[r] for r in references]
    k = len(references[0])
    streams = [[refs[i] for refs in references] for i in range(k)]
    tokenize = kw.pop("tokenize", None)
    use_eff = kw.pop("use_effective_order", False)
    out = sacrebleu.corpus_bleu(
        predictions,
        streams,
        use_effective_order=use_eff,
        **kw,
        **({"tokenize": tokenize} if tokenize else {}),
    )
    return {k: getattr(out, k) for k in HUB_SACREBLEU_KEYS}


def _hub_chrf(predictions, references, **kw):
    k = len(references[0])
    streams = [[refs[i] for refs in references] for i in range(k)]
    out = sacrebleu.metrics.CHRF(**kw).corpus_score(predictions, streams)
    return {
        "score": out.score,
        "char_order": out.char_order,
        "word_order": out.word_order,
        "beta": out.beta,
    }


def _hub_ter(
    predictions,
    references,
    normalized=False,
    ignore_punct=False,
    support_zh_ja_chars=False,
    case_sensitive=False,
):
    k = len(references[0])
    streams = [[refs[i] for refs in references] for i in range(k)]
    out = sacrebleu.metrics.TER(
        normalized=normalized,
        no_punct=ignore_punct,
        asian_support=support_zh_ja_chars,
        case_sensitive=case_sensitive,
    ).corpus_score(predictions, streams)
    return {"score": out.score, "num_edits": out.num_edits, "ref_length": out.ref_length}


DOC_P = ["hello there general kenobi", "on our way to ankh morpork"]
DOC_R = [["hello there general kenobi", "hello there !"], ["goodbye ankh morpork", "ankh morpork"]]


def test_hub_docstring_examples():
    # The numbers printed in the hub modules' docstrings.
    assert (
        round(
            parbleu.evaluate_load("sacrebleu").compute(predictions=DOC_P, references=DOC_R)[
                "score"
            ],
            1,
        )
        == 39.8
    )
    p = [
        "The relationship between cats and dogs is not exactly friendly.",
        "a good bookshop is just a genteel black hole that knows how to read.",
    ]
    r = [
        ["The relationship between dogs and cats is not exactly friendly."],
        ["A good bookshop is just a genteel Black Hole that knows how to read."],
    ]
    chrf = parbleu.evaluate_load("chrf")
    assert chrf.compute(predictions=p, references=r) == {
        "score": 84.64214891738334,
        "char_order": 6,
        "word_order": 0,
        "beta": 2,
    }
    assert (
        chrf.compute(predictions=p, references=r, word_order=2, lowercase=True)["score"]
        == 92.12853119829202
    )
    tp = ["does this sentence match??", "what about this sentence?"]
    tr = [
        ["does this sentence match", "does this sentence match!?!"],
        ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"],
    ]
    ter = parbleu.evaluate_load("ter")
    assert ter.compute(predictions=tp, references=tr, case_sensitive=True) == {
        "score": 62.5,
        "num_edits": 5,
        "ref_length": 8.0,
    }
    assert ter.compute(predictions=tp, references=tr, normalized=True, case_sensitive=True) == {
        "score": 57.14285714285714,
        "num_edits": 6,
        "ref_length": 10.5,
    }
    bleu = parbleu.evaluate_load("bleu")
    res = bleu.compute(
        predictions=["hello there general kenobi", "foo bar foobar"],
        references=[["hello there general kenobi", "hello there!"], ["foo bar foobar"]],
    )
    assert res["bleu"] == 1.0


@requires_shared
@pytest.mark.parametrize(
    "opts",
    [
        {},
        {"tokenize": "intl", "lowercase": True},
        {"smooth_method": "floor", "smooth_value": 0.2},
        {"use_effective_order": True, "tokenize": "char"},
    ],
)
def test_sacrebleu_module_equals_sacrebleu(opts):
    hyp, refs = _wmt()
    got = pe.compute("sacrebleu", hyp, refs, **opts)
    assert got == _hub_sacrebleu(hyp, refs, **opts)
    assert list(got) == ["score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len"]


@requires_shared
@pytest.mark.parametrize("opts", [{}, {"word_order": 2}, {"lowercase": True, "beta": 3}])
def test_chrf_module_equals_sacrebleu(opts):
    hyp, refs = _wmt(200)
    assert pe.compute("chrf", hyp, refs, **opts) == _hub_chrf(hyp, refs, **opts)


@requires_shared
@pytest.mark.parametrize("opts", [{}, {"case_sensitive": True, "normalized": True}])
def test_ter_module_equals_sacrebleu(opts):
    hyp, refs = _wmt(100)
    got = pe.compute("ter", hyp, refs, **opts)
    assert got == _hub_ter(hyp, refs, **opts)
    assert type(got["num_edits"]) is type(_hub_ter(hyp, refs, **opts)["num_edits"])


@requires_shared
def test_bleu_module_is_the_tfnmt_flavor():
    hyp, refs = _wmt()
    assert pe.compute("bleu", hyp, refs) == tfnmt.hf_bleu(hyp, refs)
    assert pe.compute("bleu", hyp, refs, max_order=2, smooth=True) == tfnmt.hf_bleu(
        hyp, refs, max_order=2, smooth=True
    )


def test_add_batch_then_compute_equals_one_call():
    m = parbleu.evaluate_load("sacrebleu", tokenize="char")
    m.add_batch(predictions=DOC_P[:1], references=DOC_R[:1])
    m.add(prediction=DOC_P[1], reference=DOC_R[1])
    assert m.compute() == _hub_sacrebleu(DOC_P, DOC_R, tokenize="char")
    # The queue is emptied by compute.
    assert m.compute(predictions=DOC_P, references=DOC_R)["score"] == pytest.approx(
        _hub_sacrebleu(DOC_P, DOC_R, tokenize="char")["score"], abs=0
    )


def test_single_string_references():
    got = pe.compute("sacrebleu", DOC_P, [r[0] for r in DOC_R])
    assert got == _hub_sacrebleu(DOC_P, [r[0] for r in DOC_R])


@pytest.mark.parametrize(
    ("call", "err", "msg"),
    [
        (
            lambda: pe.compute("sacrebleu", DOC_P, [["a"], ["b", "c"]]),
            parbleu.LengthMismatchError,
            "same number of references",
        ),
        (
            lambda: pe.compute("sacrebleu", DOC_P, [["a"]]),
            parbleu.LengthMismatchError,
            "2 predictions but 1 references",
        ),
        (lambda: pe.compute("chrf", DOC_P, DOC_R, bogus=1), parbleu.InvalidOptionError, "bogus"),
        (lambda: pe.load("bertscore"), parbleu.InvalidOptionError, "'sacrebleu'"),
        (lambda: pe.compute("ter", "abc", DOC_R), parbleu.InputTypeError, "predictions"),
        (lambda: pe.compute("sacrebleu", DOC_P, []), parbleu.InputTypeError, "empty"),
    ],
)
def test_bad_input_is_one_clear_error(call, err, msg):
    with pytest.raises(err, match=msg):
        call()


def test_evaluate_load_offline_module_path():
    require("evaluate", "evaluate")
    import evaluate

    hyp, refs = DOC_P, DOC_R
    for name, hub in (("sacrebleu", _hub_sacrebleu), ("chrf", _hub_chrf), ("ter", _hub_ter)):
        module = evaluate.load(pe.module_path(name))
        assert module.compute(predictions=hyp, references=refs) == hub(hyp, refs)
        module.add_batch(predictions=hyp, references=refs)
        assert module.compute() == hub(hyp, refs)
    bleu = evaluate.load(pe.module_path("bleu"))
    assert bleu.compute(predictions=hyp, references=refs, max_order=2) == tfnmt.hf_bleu(
        hyp, refs, max_order=2
    )
    sb = evaluate.load(pe.module_path("sacrebleu"))
    assert sb.compute(predictions=hyp, references=refs, tokenize="char", lowercase=True) == (
        _hub_sacrebleu(hyp, refs, tokenize="char", lowercase=True)
    )


def test_evaluate_load_one_process_skips_the_arrow_cache(monkeypatch):
    """compute(predictions=..., references=...) on one process scores the inputs directly;
    with batches queued, evaluate's own compute (Arrow cache) still gathers them."""
    require("evaluate", "evaluate")
    import evaluate

    hyp, refs = _wmt(40)
    for name, hub in (("sacrebleu", _hub_sacrebleu), ("chrf", _hub_chrf), ("ter", _hub_ter)):
        module = evaluate.load(pe.module_path(name))
        with monkeypatch.context() as m:

            def no_arrow(*args, **kwargs):
                raise AssertionError("the direct path touched evaluate's Arrow cache")

            m.setattr(evaluate.EvaluationModule, "add_batch", no_arrow)
            m.setattr(evaluate.EvaluationModule, "_finalize", no_arrow)
            assert module.compute(predictions=hyp, references=refs) == hub(hyp, refs)
        # Queued first: the call's inputs are added to the queue, as evaluate does.
        module.add_batch(predictions=hyp[:15], references=refs[:15])
        assert module.compute(predictions=hyp[15:], references=refs[15:]) == hub(hyp, refs)
        assert module.compute(predictions=hyp[:9], references=refs[:9]) == hub(hyp[:9], refs[:9])
    sb = evaluate.load(pe.module_path("sacrebleu"))
    with pytest.raises(parbleu.LengthMismatchError, match="predictions"):
        sb.compute(predictions=hyp[:3], references=refs[:4])


class FakeTokenizer:
    """Word-level: id i is VOCAB[i]; 0 is padding, 1 end of sequence (special tokens)."""

    VOCAB = ("<pad>", "</s>", "the", "cat", "sat", "on", "mat", "a", "dog", ".")
    pad_token_id = 0

    def __init__(self):
        self.calls = 0

    def batch_decode(self, ids, skip_special_tokens=False):
        self.calls += 1
        out = []
        for row in np.asarray(ids).tolist():
            words = [self.VOCAB[i] for i in row if not (skip_special_tokens and i < 2)]
            out.append(" ".join(words))
        return out


def test_compute_metrics_decodes_once_and_scores_like_sacrebleu():
    rng = np.random.default_rng(3)
    preds = rng.integers(2, 10, size=(16, 12))
    preds[:, 9:] = 0  # padding after the generated tokens
    labels = rng.integers(2, 10, size=(16, 12))
    labels[:, 8:] = -100  # the Trainer's label padding
    labels[::2] = preds[::2]  # some exact matches
    labels[::2, 9:] = -100
    tok = FakeTokenizer()
    fn = pe.compute_metrics(tok, ("sacrebleu", "chrf", "ter"))
    got = fn((preds, labels))
    assert tok.calls == 2  # one decode of the predictions, one of the labels
    hyps = [" ".join(FakeTokenizer.VOCAB[i] for i in r if i >= 2) for r in preds.tolist()]
    refs = [" ".join(FakeTokenizer.VOCAB[i] for i in r if i >= 2) for r in labels.tolist()]
    assert got == {
        "bleu": sacrebleu.corpus_bleu(hyps, [refs]).score,
        "chrf": sacrebleu.corpus_chrf(hyps, [refs]).score,
        "ter": sacrebleu.corpus_ter(hyps, [refs]).score,
    }

    class EvalPrediction:
        def __init__(self, predictions, label_ids):
            self.predictions, self.label_ids = predictions, label_ids

    # Logits (batch, length, vocab) in a tuple, as a Trainer without generation passes them.
    logits = np.eye(10)[preds]
    assert fn(EvalPrediction((logits, None), labels)) == got


def test_compute_metrics_rejects_unknown_metric():
    # The message lists the registry's names.
    with pytest.raises(
        parbleu.InvalidOptionError, match=r"^compute_metrics: unknown metric 'x'.*rouge"
    ):
        pe.compute_metrics(FakeTokenizer(), ("x",))


def test_compute_metrics_takes_every_registered_metric():
    rng = np.random.default_rng(5)
    preds = rng.integers(2, 10, size=(8, 10))
    labels = rng.integers(2, 10, size=(8, 10))
    got = pe.compute_metrics(FakeTokenizer(), ("rouge", "chrf++"))((preds, labels))
    hyps = [" ".join(FakeTokenizer.VOCAB[i] for i in r if i >= 2) for r in preds.tolist()]
    refs = [" ".join(FakeTokenizer.VOCAB[i] for i in r if i >= 2) for r in labels.tolist()]
    rouge = parbleu.ROUGE().corpus_score(hyps, [refs])
    assert got == {
        **{t: 100 * rouge.mean[t].fmeasure for t in ("rouge1", "rouge2", "rougeL", "rougeLsum")},
        "chrf": parbleu.CHRF(word_order=2).corpus_score(hyps, [refs]).score,
    }
