"""Token ids from arrays and tensors: lengths, zero-copy CPU tensors, and the torch counting
path (TensorBLEU-style) against the CPU core and SacreBLEU."""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st

import parbleu
from helpers import require
from parbleu import ids


def _as_text(rows):
    return [" ".join(str(t) for t in r) for r in rows]


def test_lengths_keep_a_prefix_of_each_row():
    h = np.array([[5, 6, 7, 8, 0, 0], [5, 6, 0, 8, 9, 9]])
    r = np.array([[5, 6, 7, 9, 9, 9], [5, 6, 0, 8, 9, 1]])
    b = parbleu.BLEU(tokenize="none", effective_order=True)
    got = b.sentence_scores_ids(h, [r], lengths=[4, 5], ref_lengths=[[3, 6]])
    hyps = ["5 6 7 8", "5 6 0 8 9"]
    refs = ["5 6 7", "5 6 0 8 9 1"]
    want = [sacrebleu.sentence_bleu(x, [y], tokenize="none").score for x, y in zip(hyps, refs)]
    assert got.tolist() == want
    corpus = b.corpus_score_ids(h, [r], lengths=np.array([4, 5]), ref_lengths=[[3, 6]])
    assert corpus.score == sacrebleu.corpus_bleu(hyps, [refs], tokenize="none").score


@pytest.mark.parametrize(
    ("kwargs", "err", "msg"),
    [
        ({"lengths": [1]}, parbleu.LengthMismatchError, "expected 2 lengths"),
        ({"lengths": [1, 7]}, parbleu.InputTypeError, r"lengths\[1\] = 7"),
        ({"lengths": [-1, 2]}, parbleu.InputTypeError, r"lengths\[0\] = -1"),
        ({"lengths": [1.5, 2.0]}, parbleu.InputTypeError, "expected integers"),
        ({"ref_lengths": [[1, 2], [1, 2]]}, parbleu.LengthMismatchError, "2 entries for 1"),
    ],
)
def test_bad_lengths_are_one_clear_error(kwargs, err, msg):
    h = np.ones((2, 6), dtype=np.int64)
    with pytest.raises(err, match=msg):
        parbleu.BLEU().sentence_scores_ids(h, [h], **kwargs)


def test_lengths_need_a_2d_array():
    with pytest.raises(parbleu.InputTypeError, match="only for a 2-D array"):
        parbleu.BLEU().sentence_scores_ids([[1, 2]], [[[1, 2]]], lengths=[2])


def test_cpu_tensor_is_read_without_a_copy():
    require("torch", "torch")
    import torch

    t = torch.randint(3, 50, (8, 16), dtype=torch.int64)
    flat, offsets, _ = ids._batch(t, "hypotheses", allow_none=False, signs=ids._Signs())
    assert np.shares_memory(flat, t.numpy())
    assert offsets.tolist() == list(range(0, 8 * 16 + 1, 16))
    b = parbleu.BLEU()
    ref = torch.randint(3, 50, (8, 16))
    assert (
        b.sentence_scores_ids(t, [ref]).tolist()
        == b.sentence_scores_ids(t.numpy(), [ref.numpy()]).tolist()
    )


def _torch_path():
    require("torch", "torch")
    from parbleu.integrations import torch_ids

    return torch_ids


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    batch=st.integers(1, 12),
    width=st.integers(0, 14),
    vocab=st.integers(2, 6),
    n_refs=st.integers(1, 3),
    use_lengths=st.booleans(),
    smooth=st.sampled_from(["exp", "floor", "add-k", "none"]),
    order=st.integers(1, 5),
)
def test_torch_counting_equals_the_cpu_core(
    seed, batch, width, vocab, n_refs, use_lengths, smooth, order
):
    torch_ids = _torch_path()
    import torch

    rng = np.random.default_rng(seed)
    # Id 0 is the padding; it also appears in the middle of rows (label padding).
    hyp = rng.integers(0, vocab, size=(batch, width))
    refs = [rng.integers(0, vocab, size=(batch, int(rng.integers(0, 15)))) for _ in range(n_refs)]
    lengths = rng.integers(0, width + 1, size=batch) if use_lengths else None
    b = parbleu.BLEU(smooth_method=smooth, max_ngram_order=order, effective_order=True)
    want_stats = ids.extract_stats_ids(hyp, refs, pad_id=0, lengths=lengths, max_ngram_order=order)
    t_refs = [torch.from_numpy(r) for r in refs]
    got_stats = torch_ids.extract_stats_ids_torch(
        torch.from_numpy(hyp), t_refs, pad_id=0, lengths=lengths, max_ngram_order=order
    )
    assert got_stats.numpy().tolist() == want_stats.tolist()
    want = b.sentence_scores_ids(hyp, refs, pad_id=0, lengths=lengths)
    got = torch_ids.sentence_scores_ids_torch(
        b, torch.from_numpy(hyp), t_refs, pad_id=0, lengths=lengths
    )
    assert got.dtype == torch.float64
    assert got.tolist() == want.tolist()


def test_torch_counting_equals_sacrebleu_on_ids_as_text():
    torch_ids = _torch_path()
    import torch

    g = torch.Generator().manual_seed(0)
    hyp = torch.randint(1, 30, (64, 40), generator=g)
    ref = torch.randint(1, 30, (64, 40), generator=g)
    ref[:, 20:] = hyp[:, 20:]  # long shared n-grams
    hyp[:, 35:] = 0
    b = parbleu.BLEU(effective_order=True)
    got = torch_ids.sentence_scores_ids_torch(b, hyp, [ref], pad_id=0).tolist()
    hyps = _as_text([[t for t in r if t != 0] for r in hyp.tolist()])
    refs = _as_text(ref.tolist())
    want = [sacrebleu.sentence_bleu(x, [y], tokenize="none").score for x, y in zip(hyps, refs)]
    assert got == want


def test_torch_path_bad_input():
    torch_ids = _torch_path()
    import torch

    b = parbleu.BLEU()
    h = torch.ones((2, 3), dtype=torch.int64)
    with pytest.raises(parbleu.InputTypeError, match="list of reference streams"):
        torch_ids.sentence_scores_ids_torch(b, h, h)
    with pytest.raises(parbleu.InputTypeError, match="must be integers"):
        torch_ids.sentence_scores_ids_torch(b, h.float(), [h])
    with pytest.raises(parbleu.LengthMismatchError, match="3 rows but there are 2"):
        torch_ids.sentence_scores_ids_torch(b, h, [torch.ones((3, 3), dtype=torch.int64)])
    with pytest.raises(parbleu.InputTypeError, match="2-D"):
        torch_ids.sentence_scores_ids_torch(b, h[0], [h])
