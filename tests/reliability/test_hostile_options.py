"""Absurd but type-correct options: one clear error, at once, never an abort or a hang.

Every size-like option (n-gram orders, resample counts, workers, block sizes, widths) is
checked where it is given; orders up to ``MAX_ORDER`` are legal even far above the longest
segment, and cost what the input costs (docs/reliability.md, "Option bounds").
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from typing import Any, Callable

import numpy as np
import pytest
import sacrebleu

import parbleu
from parbleu import _core
from parbleu._options import MAX_ORDER, MAX_RESAMPLES
from parbleu.errors import InputTypeError, InvalidOptionError, ParbleuError
from parbleu.ids import extract_stats_ids
from parbleu.pairwise import pairwise
from parbleu.significance import compare_all, confidence_interval, paired_ar, paired_bootstrap

HYPS = ["the cat sat on the mat .", "a dog barked at the moon"]
REFS = [["the cat is on the mat .", "the dog barked at the moon"]]
ABSURD = [2**31, 2**63, 2**64, 10**30, MAX_ORDER + 1]
NOT_INTS = [1.5, float("nan"), "4", None, True]


def _fast(call: Callable[[], Any], error: type[BaseException]) -> str:
    t0 = time.monotonic()
    with pytest.raises(error) as e:
        call()
    assert time.monotonic() - t0 < 2.0, "refusing an option must not compute anything"
    msg = str(e.value)
    assert msg and "\n" not in msg
    return msg


@pytest.mark.parametrize("value", [*ABSURD, 0, -1, -(2**63), *NOT_INTS])
@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("max_ngram_order", lambda v: parbleu.BLEU(max_ngram_order=v)),
        ("char_order", lambda v: parbleu.CHRF(char_order=v)),
        ("word_order", lambda v: parbleu.CHRF(word_order=v)),
        ("max_ngram_order", lambda v: extract_stats_ids([[1, 2]], [[[1, 2]]], max_ngram_order=v)),
        ("n-gram order", lambda v: _core.BleuOptions("13a", False, v, "exp", None, False)),
    ],
)
def test_orders_out_of_bounds_are_refused_by_name(
    name: str, make: Callable[[Any], Any], value: Any
) -> None:
    if name == "word_order" and value == 0:
        pytest.skip("word order 0 is chrF's default")
    if name == "n-gram order" and (value in (0, True) or not isinstance(value, int)):
        pytest.skip("the binding takes integers and leaves minimums to the Python layer")
    msg = _fast(lambda: make(value), (InvalidOptionError, InputTypeError))
    assert name in msg


def test_core_refuses_absurd_orders_before_allocating() -> None:
    # The binding checks too (no Python-side check can be bypassed into a huge allocation).
    for v in (MAX_ORDER + 1, 2**40, 2**64):
        _fast(
            lambda v=v: _core.BleuOptions("13a", False, v, "exp", None, False),
            InvalidOptionError,
        )
        _fast(
            lambda v=v: _core.ChrfOptions(v, 0, 4.0, 5.0, False, False, False),
            InvalidOptionError,
        )
        _fast(
            lambda v=v: _core.ChrfOptions(1, v, 4.0, 5.0, False, False, False),
            InvalidOptionError,
        )


@pytest.mark.parametrize("order", [5, 30, MAX_ORDER])
def test_orders_above_the_longest_segment_match_sacrebleu(order: int) -> None:
    ours = parbleu.BLEU(max_ngram_order=order).corpus_score(HYPS, REFS)
    theirs = sacrebleu.BLEU(max_ngram_order=order).corpus_score(HYPS, REFS)
    assert ours.score == theirs.score
    assert ours.counts == theirs.counts and ours.totals == theirs.totals
    ours_c = parbleu.CHRF(char_order=order, word_order=min(order, 3)).corpus_score(HYPS, REFS)
    theirs_c = sacrebleu.CHRF(char_order=order, word_order=min(order, 3)).corpus_score(HYPS, REFS)
    assert ours_c.score == theirs_c.score


def test_the_highest_order_costs_what_the_input_costs() -> None:
    # 20,000 short segments at order 100: the rows are wider, the n-gram work is not.
    hyps = ["the cat sat on the mat"] * 20_000
    refs = [["the cat is on the mat"] * 20_000]
    t0 = time.monotonic()
    parbleu.BLEU(max_ngram_order=MAX_ORDER).corpus_score(hyps, refs)
    parbleu.CHRF(char_order=MAX_ORDER).corpus_score(hyps, refs)
    assert time.monotonic() - t0 < 30  # generous: a shared 2-core machine; O(order) was hours


@pytest.mark.parametrize("value", [1.5, "2", 10**7, MAX_RESAMPLES + 1, -1, True])
def test_n_bootstrap_is_checked(value: Any) -> None:
    msg = _fast(
        lambda: parbleu.BLEU().corpus_score(HYPS, REFS, n_bootstrap=value), InvalidOptionError
    )
    assert "n_bootstrap" in msg


@pytest.mark.parametrize("value", [0, 1.5, 10**7, 2**64])
def test_resample_counts_of_significance_tests_are_checked(value: Any) -> None:
    systems = {"a": HYPS, "b": HYPS[::-1]}
    m = parbleu.BLEU()
    calls: list[Callable[[], Any]] = [
        lambda: confidence_interval(m, HYPS, REFS, n=value),
        lambda: paired_bootstrap(m, systems, REFS, n=value),
        lambda: paired_ar(m, systems, REFS, n=value),
        lambda: compare_all([m], systems, REFS, n=value),
    ]
    for call in calls:
        _fast(call, InvalidOptionError)


def test_sacrebleu_paired_test_counts_are_checked() -> None:
    from parbleu.significance import PairedTest

    for kw in ({"n_samples": 10**9}, {"n_ar_confidence": 10**9}, {"n_samples": 1.5}):
        _fast(
            lambda kw=kw: PairedTest(
                [("a", HYPS), ("b", HYPS)], {"BLEU": parbleu.BLEU()}, REFS, **kw
            ),
            InvalidOptionError,
        )


def test_workers_above_the_cores_are_capped() -> None:
    hyps = HYPS * 200  # above the serial threshold
    refs = [r * 200 for r in REFS]
    want = parbleu.BLEU().corpus_score(hyps, refs, workers=1).score
    for w in (10**6, 2**62, 2**64, 10**30):
        assert parbleu.BLEU().corpus_score(hyps, refs, workers=w).score == want
        assert pairwise(HYPS, None, "chrf", workers=w).shape == (2, 2)


def test_pools_are_reused_and_no_thread_leaks() -> None:
    # In a fresh process: OS threads after many distinct worker counts and an absurd one.
    child = textwrap.dedent(
        """
        import os, parbleu
        from parbleu import _core
        hyps = ["the cat sat on the mat ."] * 2000
        refs = [["the cat is on the mat ."] * 2000]
        m = parbleu.CHRF()
        for w in list(range(2, 80)) + [10**6]:
            m.corpus_score(hyps, refs, workers=w)
        print(len(os.listdir("/proc/self/task")), _core.available_workers())
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=300, check=True
    ).stdout.split()
    threads, cores = int(out[0]), int(out[1])
    # The interpreter's own thread plus one shared pool of at most cores - 1 helpers
    # (a few spare for the runtime's own helpers, e.g. OpenBLAS's when numpy loads).
    assert threads <= cores + 4 + (os.cpu_count() or 1), (threads, cores)


@pytest.mark.parametrize("width", ["101", "10000000000000000000000", "-1"])
def test_cli_widths_are_bounded(width: str) -> None:
    from parbleu.cli import main

    assert main(["-w", width, "ref", "-i", "hyp"]) == 2
    assert main(["compare", "-w", width, "ref", "-i", "a", "b"]) == 2


def test_ids_layouts_near_two_to_the_64_agree() -> None:
    # uint64 ids from 2**63 up: the same statistics from arrays and lists, and the text oracle's.
    big = 2**64 - 1
    as_u64 = np.array([[big, 7, 8, 3]], dtype=np.uint64)
    refs_u = [np.array([[big, 7, 9, 3]], dtype=np.uint64)]
    refs_list = [[[big, 7, 9, 3]]]
    rows = [
        extract_stats_ids(h, r) for h in (as_u64, [[big, 7, 8, 3]]) for r in (refs_u, refs_list)
    ]
    for r in rows[1:]:
        assert (r == rows[0]).all()
    text = parbleu.BLEU(tokenize="none").extract_stats([f"{big} 7 8 3"], [[f"{big} 7 9 3"]])
    assert (rows[0] == text).all()
    padded = extract_stats_ids(as_u64, refs_u, pad_id=big)
    assert (padded == parbleu.BLEU(tokenize="none").extract_stats(["7 8 3"], [["7 9 3"]])).all()
    # Negative ids alone are ids too.
    as_i64 = np.array([[-1, 7, 8, 3]], dtype=np.int64)
    neg = extract_stats_ids(as_i64, [[[-1, 7, 9, 3]]])
    assert (neg == parbleu.BLEU(tokenize="none").extract_stats(["-1 7 8 3"], [["-1 7 9 3"]])).all()


@pytest.mark.parametrize(
    ("hyps", "refs", "pad_id", "where"),
    [
        # 2**64 - 1 and -1 have the same 64 bits; the text oracle scores them as two tokens.
        ("u64", "i64", None, r"hypotheses .*references\[0\]"),
        ("i64", "u64", None, r"references\[0\] .*hypotheses"),
        ("list_big", "list_neg", None, r"hypotheses .*references\[0\]"),
        ("u64", "u64", -1, r"hypotheses .*pad_id"),
        ("i64", "i64", 2**64 - 1, r"pad_id .*hypotheses"),
    ],
)
def test_ids_mixing_uint64_high_and_negative_ids_is_refused(
    hyps: str, refs: str, pad_id: int | None, where: str
) -> None:
    big = 2**64 - 1
    batches: dict[str, Any] = {
        "u64": np.array([[big, 7, 8, 3]], dtype=np.uint64),
        "i64": np.array([[-1, 7, 8, 3]], dtype=np.int64),
        "list_big": [[big, 7, 8, 3]],
        "list_neg": [[-1, 7, 8, 3]],
    }
    with pytest.raises(InputTypeError, match=where) as err:
        extract_stats_ids(batches[hyps], [batches[refs]], pad_id=pad_id)
    assert "2**64 - 1 and -1 are the same id" in str(err.value)
    # Masked-out padding does not count: only the ids a call scores.
    masked = np.array([[5, 7, -100]], dtype=np.int64)
    refs_u64 = [np.array([[big, 5, 7]], dtype=np.uint64)]
    assert extract_stats_ids(masked, refs_u64, lengths=[2])[0, 0] == 2
    with pytest.raises(InputTypeError):
        extract_stats_ids(masked, refs_u64)


@pytest.mark.parametrize("pad_id", [1.5, "1", 2**64, -(2**63) - 1, True])
def test_bad_pad_ids_are_refused(pad_id: Any) -> None:
    assert "pad_id" in _fast(
        lambda: extract_stats_ids([[1, 2]], [[[1, 2]]], pad_id=pad_id), InvalidOptionError
    )


@pytest.mark.parametrize("value", [0, 2**40, 2**64, 1.5])
def test_flavor_orders_are_bounded(value: Any) -> None:
    from parbleu.flavors import coco, nltk, tfnmt, torchmetrics

    calls: list[Callable[[], Any]] = [
        lambda: torchmetrics.bleu_score(["a b"], [["a b"]], n_gram=value),
        lambda: coco.BleuScorer(n=value),
        lambda: coco.Bleu(n=value),
        lambda: tfnmt.compute_bleu([[["a"]]], [["a"]], max_order=value),
    ]
    if value:
        calls.append(lambda: nltk.corpus_bleu([[["a"]]], [["a"]], weights=[1.0] * 101))
    for call in calls:
        # InvalidOptionError, or FlavorError where the original itself fails (order 0)
        _fast(call, ParbleuError)


def test_numpy_integers_are_integers() -> None:
    hyps = HYPS * 200
    refs = [r * 200 for r in REFS]
    want = parbleu.BLEU().corpus_score(hyps, refs, workers=2).score
    assert parbleu.BLEU().corpus_score(hyps, refs, workers=np.int32(2)).score == want
    assert parbleu.BLEU(max_ngram_order=np.int64(4)).corpus_score(HYPS, REFS).score == (
        sacrebleu.BLEU().corpus_score(HYPS, REFS).score
    )
