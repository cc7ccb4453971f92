"""parbleu.integrations.torchmetrics: SacreBLEU's numbers through torchmetrics' Metric API, on
one process and under torch.distributed (gloo, 2 and 3 processes on CPU)."""

from __future__ import annotations

import json
import os
import socket

import pytest
import sacrebleu

from helpers import read_lines, require, requires_shared

WMT = "data/wmt21"
N = 90


def _tm():
    require("torchmetrics", "torch")
    from parbleu.integrations import torchmetrics as ptm

    return ptm


def _data(n: int = N) -> tuple[list[str], list[list[str]]]:
    hyp = list(read_lines(f"{WMT}/system-outputs/newstest2021.en-de.hyp.VolcTrans-GLAT.de"))[:n]
    streams = [
        list(read_lines(f"{WMT}/references/newstest2021.en-de.ref.{x}.de"))[:n] for x in "AC"
    ]
    return hyp, [list(t) for t in zip(*streams)]


def _streams(target):
    return [list(s) for s in zip(*target)]


def _metrics(ptm):
    return {
        "sacrebleu": ptm.SacreBLEUScore(),
        "sacrebleu_smooth_intl": ptm.SacreBLEUScore(smooth=True, tokenize="intl", lowercase=True),
        "chrf": ptm.CHRFScore(return_sentence_level_score=True),
        "ter": ptm.TranslationEditRate(),
        "bleu": ptm.BLEUScore(smooth=True),
    }


def _oracles(hyp, target):
    s = _streams(target)
    return {
        "sacrebleu": sacrebleu.corpus_bleu(hyp, s, smooth_method="none").score / 100,
        "sacrebleu_smooth_intl": sacrebleu.corpus_bleu(
            hyp, s, smooth_method="add-k", smooth_value=1, tokenize="intl", lowercase=True
        ).score
        / 100,
        "chrf": sacrebleu.corpus_chrf(hyp, s, word_order=2).score / 100,
        "ter": sacrebleu.corpus_ter(hyp, s).score / 100,
    }


def _value(x):
    if isinstance(x, tuple):
        return [_value(x[0]), sorted(x[1].tolist())]
    return x.item()


@requires_shared
def test_batches_equal_sacrebleu_and_torchmetrics_bleu():
    ptm = _tm()
    import torch
    from torchmetrics.text import BLEUScore as TMBLEUScore

    hyp, target = _data()
    ms = _metrics(ptm)
    tm_bleu = TMBLEUScore(smooth=True)
    for lo in range(0, N, 16):
        for m in ms.values():
            m.update(hyp[lo : lo + 16], target[lo : lo + 16])
        tm_bleu.update(hyp[lo : lo + 16], target[lo : lo + 16])
    got = {k: m.compute() for k, m in ms.items()}
    for k, v in _oracles(hyp, target).items():
        score = got[k][0] if isinstance(got[k], tuple) else got[k]
        assert score.dtype == torch.float64
        assert score.item() == v, k
    # Sentence chrF: SacreBLEU's sentence_chrf of each segment.
    s = _streams(target)
    want = [sacrebleu.sentence_chrf(h, list(r), word_order=2).score / 100 for h, *r in zip(hyp, *s)]
    assert got["chrf"][1].tolist() == want
    # BLEUScore is torchmetrics' own (NLTK-style) BLEU, bit for bit.
    assert got["bleu"].dtype == torch.float32
    assert got["bleu"].item() == tm_bleu.compute().item()


@requires_shared
def test_forward_reset_and_merge_state():
    ptm = _tm()
    hyp, target = _data(40)
    m = ptm.SacreBLEUScore()
    first = m(hyp[:20], target[:20])  # forward: this batch's score, and accumulated
    assert (
        first.item()
        == sacrebleu.corpus_bleu(hyp[:20], _streams(target[:20]), smooth_method="none").score / 100
    )
    m(hyp[20:], target[20:])
    whole = sacrebleu.corpus_bleu(hyp, _streams(target), smooth_method="none").score / 100
    assert m.compute().item() == whole
    other = ptm.SacreBLEUScore()
    other.update(hyp[:20], target[:20])
    rest = ptm.SacreBLEUScore()
    rest.update(hyp[20:], target[20:])
    other.merge_state(rest)
    assert other.compute().item() == whole
    m.reset()
    assert int(m.stats.sum()) == 0
    # A bare string is one segment with one reference, as in torchmetrics.
    m.update(hyp[0], [target[0][0]])
    assert (
        m.compute().item()
        == sacrebleu.corpus_bleu([hyp[0]], [[target[0][0]]], smooth_method="none").score / 100
    )


def test_bad_input_is_one_clear_error():
    ptm = _tm()
    import parbleu

    with pytest.raises(parbleu.LengthMismatchError, match="2 segments but target has 1"):
        ptm.SacreBLEUScore().update(["a", "b"], [["a"]])
    with pytest.raises(parbleu.InvalidOptionError, match="uniform weights"):
        ptm.SacreBLEUScore(weights=[0.4, 0.3, 0.2, 0.1])
    with pytest.raises(parbleu.InvalidOptionError, match="3 weights for n_gram=4"):
        ptm.BLEUScore(weights=[0.5, 0.25, 0.25])
    with pytest.raises(parbleu.InvalidOptionError, match="lowercase"):
        ptm.TranslationEditRate(lowercase="yes")
    with pytest.raises(parbleu.InputTypeError, match=r"target\[0\]: no reference"):
        ptm.CHRFScore().update(["a"], [[]])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ddp_worker(rank, world, port, out_dir, hyp, target):
    import torch
    import torch.distributed as dist

    from parbleu.integrations import torchmetrics as ptm

    torch.set_num_threads(1)
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        ms = _metrics(ptm)
        mine = list(range(rank, len(hyp), world))  # DistributedSampler's interleaving
        for lo in range(0, len(mine), 7):
            idx = mine[lo : lo + 7]
            for m in ms.values():
                m.update([hyp[i] for i in idx], [target[i] for i in idx])
        got = {k: _value(m.compute()) for k, m in ms.items()}  # compute() syncs the ranks
        with open(os.path.join(out_dir, f"{rank}.json"), "w") as f:
            json.dump(got, f)
    finally:
        dist.destroy_process_group()


@requires_shared
@pytest.mark.parametrize("world", [2, 3])
def test_ddp_gloo_equals_one_process_and_sacrebleu(world, tmp_path):
    ptm = _tm()
    import torch.multiprocessing as mp

    hyp, target = _data()
    single = _metrics(ptm)
    for m in single.values():
        m.update(hyp, target)
    want = {k: _value(m.compute()) for k, m in single.items()}
    for k, v in _oracles(hyp, target).items():
        assert (want[k][0] if isinstance(want[k], list) else want[k]) == v, k
    mp.spawn(
        _ddp_worker, args=(world, _free_port(), str(tmp_path), hyp, target), nprocs=world, join=True
    )
    for rank in range(world):
        got = json.loads((tmp_path / f"{rank}.json").read_text())
        assert got == want, rank
