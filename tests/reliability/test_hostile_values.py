"""Hostile values: stale cache hits, paths, bool-like ints, garbage statistics, text MeCab
cannot take. Each is SacreBLEU's result where SacreBLEU has a sane one, else one clear
``ParbleuError`` naming the argument (docs/reliability.md)."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu

import parbleu
from helpers import require
from parbleu import _refcache
from parbleu.errors import (
    InputTypeError,
    InvalidOptionError,
    InvalidTextError,
    StatisticsError,
)
from parbleu.pairwise import mbr, pairwise
from parbleu.significance import holm_bonferroni
from parbleu.streaming import score_files

HYPS = ["the cat sat on the mat .", "a dog barked at the moon"]
REFS_A = [["the cat is on the mat .", "the dog barked at the moon"]]
REFS_B = [["a cat sat on a mat .", "one dog barked at a moon"]]


# --- the reference cache -------------------------------------------------------------------
class AlwaysEqual(str):
    """A str subclass whose equality says yes to anything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = str.__hash__


@pytest.mark.parametrize("metric", ["BLEU", "CHRF", "TER"])
def test_cache_never_trusts_user_equality(metric: str) -> None:
    ours, theirs = getattr(parbleu, metric), getattr(sacrebleu, metric)
    _refcache.clear()
    ours().corpus_score(HYPS, REFS_A)  # cached
    tricky = [[AlwaysEqual(r) for r in REFS_B[0]]]
    got = ours().corpus_score(HYPS, tricky).score
    assert got == theirs().corpus_score(HYPS, REFS_B).score
    assert got != theirs().corpus_score(HYPS, REFS_A).score
    # ... and a later call with the first references is not served the subclass' entry.
    assert ours().corpus_score(HYPS, REFS_A).score == theirs().corpus_score(HYPS, REFS_A).score


def test_cache_still_hits_for_equal_plain_strings() -> None:
    _refcache.clear()
    m = parbleu.CHRF()
    m.corpus_score(HYPS, REFS_A)
    entry = _refcache._last
    copy = [["".join(list(r)) for r in REFS_A[0]]]  # equal, different objects
    m.corpus_score(HYPS, copy)
    assert _refcache._last is entry


# --- bool-like ints and None where a sequence belongs ---------------------------------------
@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (lambda: parbleu.BLEU(lowercase=1), lambda: sacrebleu.BLEU(lowercase=1)),
        (lambda: parbleu.BLEU(effective_order=1), lambda: sacrebleu.BLEU(effective_order=1)),
        (lambda: parbleu.BLEU(force=1), lambda: sacrebleu.BLEU(force=1)),
        (lambda: parbleu.BLEU(lowercase=0), lambda: sacrebleu.BLEU(lowercase=0)),
        (lambda: parbleu.CHRF(lowercase=1), lambda: sacrebleu.CHRF(lowercase=1)),
        (lambda: parbleu.CHRF(whitespace=1), lambda: sacrebleu.CHRF(whitespace=1)),
        (lambda: parbleu.CHRF(eps_smoothing=1), lambda: sacrebleu.CHRF(eps_smoothing=1)),
        (lambda: parbleu.TER(case_sensitive=1), lambda: sacrebleu.TER(case_sensitive=1)),
        (lambda: parbleu.BLEU(lowercase=np.int64(1)), lambda: sacrebleu.BLEU(lowercase=1)),
        (lambda: parbleu.BLEU(lowercase=np.bool_(True)), lambda: sacrebleu.BLEU(lowercase=True)),
    ],
)
def test_bool_like_ints_as_sacrebleu(ours: Any, theirs: Any) -> None:
    hyps = ["The Cat sat on the mat .", "A dog barked"]
    m = ours()
    a = m.corpus_score(hyps, REFS_A)
    b = theirs().corpus_score(hyps, REFS_A)
    assert a.score == b.score
    assert "True" not in str(m.get_signature())  # flags stay flags in the signature


@pytest.mark.parametrize("value", [2, -1, "yes", None, 0.5])
@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("lowercase", lambda v: parbleu.BLEU(lowercase=v)),
        ("effective_order", lambda v: parbleu.BLEU(effective_order=v)),
        ("whitespace", lambda v: parbleu.CHRF(whitespace=v)),
    ],
)
def test_other_flag_values_are_refused_by_name(name: str, make: Any, value: Any) -> None:
    with pytest.raises(InvalidOptionError, match=name):
        make(value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: parbleu.BLEU().sentence_score("a b", None),
        lambda: parbleu.CHRF().sentence_score("a b", None),
        lambda: parbleu.TER().sentence_score("a b", None),
        lambda: parbleu.BLEU().sentence_score("a b", 3),
        lambda: parbleu.sentence_bleu("a b", None),
        lambda: parbleu.sentence_chrf("a b", None),
        lambda: parbleu.sentence_ter("a b", None),
    ],
)
def test_none_references_in_sentence_calls(call: Any) -> None:
    with pytest.raises(InputTypeError, match="references"):
        call()


def test_pairwise_none_reference_names_the_references() -> None:
    with pytest.raises(InputTypeError) as e:
        pairwise(["a b"], ["a", None])
    assert "references[1] is None" in str(e.value) and "hypothes" not in str(e.value)


# --- statistics and ids ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("metric", "row"),
    [
        ("BLEU", [-5, -5, -1, -1, -1, -1, -1, -1, -1, -1]),
        ("BLEU", [5, 5, 5, 4, 3, 2, 5, 4, 3, -2]),
        ("BLEU", [5.0, 5.0, 5.0, 4.0, 3.0, 2.0, 5.0, 4.0, 3.0, math.nan]),
        ("CHRF", [-1] * 18),
        ("TER", [math.nan, 3.0]),
        ("TER", [-1.0, 3.0]),
        ("TER", [1.0, math.inf]),
    ],
)
def test_garbage_statistics_are_refused(metric: str, row: list[Any]) -> None:
    m = getattr(parbleu, metric)()
    for stats in (row, [row, row]):
        with pytest.raises(StatisticsError):
            m.score_from_stats(stats)
    with pytest.raises(StatisticsError):
        m.accumulator().add_stats(row)


def test_accumulator_merge_dict_checks_what_it_adds() -> None:
    acc = parbleu.BLEU().accumulator()
    key = list(acc.key)
    for bad in (
        {"key": key, "total": [1, 2], "n_segments": 1},
        {"key": key, "total": [-1] * 10, "n_segments": 1},
        {"key": key, "total": [1] * 10, "n_segments": -3},
        {"key": key, "total": [1] * 10, "n_segments": "2"},
    ):
        with pytest.raises(StatisticsError):
            acc.merge_dict(bad)


@pytest.mark.parametrize("p", [1.5, -0.1, math.nan, math.inf, "0.5", None])
def test_holm_bonferroni_refuses_non_probabilities(p: Any) -> None:
    with pytest.raises(InvalidOptionError, match=r"p_values\[1\]"):
        holm_bonferroni([0.01, p])


def test_holm_bonferroni_still_adjusts() -> None:
    assert holm_bonferroni([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06]


# --- text the tokenizers cannot take ---------------------------------------------------------
@pytest.mark.parametrize("tok", ["ja-mecab", "ko-mecab"])
def test_mecab_lone_surrogates(tok: str) -> None:
    require("MeCab" if tok == "ja-mecab" else "mecab_ko")
    m = parbleu.BLEU(tokenize=tok)
    with pytest.raises(InvalidTextError, match=r"hypotheses\[1\]: lone surrogate U\+D800"):
        m.corpus_score(["a", "b\ud800"], [["a", "b"]])
    with pytest.raises(InvalidTextError, match=r"references\[0\]\[0\]"):
        m.corpus_score(["a"], [["\udcff"]])
    with pytest.raises(InvalidTextError):
        m.sentence_score("\ud800", ["a"])


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter", "rouge"])
def test_pairwise_and_mbr_lone_surrogates(metric: str) -> None:
    with pytest.raises(InvalidTextError, match=r"hypotheses\[0\]\[1\]|hypotheses\[1\]"):
        pairwise(["a", "b\ud800"], None, metric)
    with pytest.raises(InvalidTextError, match="references"):
        pairwise(["a", "b"], ["c", "\ud800"], metric)
    with pytest.raises(InvalidTextError):
        mbr(["a", "\ud800"], metric)
    with pytest.raises(InvalidTextError):
        mbr(["a", "\ud800"], metric if metric in ("bleu", "chrf") else "bleu", aggregate=True)


# --- score_files paths -------------------------------------------------------------------------
def test_score_files_takes_paths_as_open_does(tmp_path: Path) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REFS_A[0]) + "\n", encoding="utf-8")
    want = sacrebleu.BLEU().corpus_score(HYPS, REFS_A).score
    for h, r in [
        (str(hyp), str(ref)),
        (hyp, ref),
        (os.fsencode(hyp), os.fsencode(ref)),
        (hyp, [ref]),
        (hyp, (os.fsencode(ref),)),
    ]:
        assert score_files(h, r)["bleu"].score == want  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [3, 3.0, None, object(), [3], [None]])
def test_score_files_refuses_other_paths(tmp_path: Path, bad: Any) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a\n", encoding="utf-8")
    with pytest.raises(InputTypeError):
        score_files(ref, bad)
    if not isinstance(bad, list):
        with pytest.raises(InputTypeError):
            score_files(bad, ref)


def test_score_files_never_opens_a_descriptor(tmp_path: Path) -> None:
    # An int is refused before anything is opened, even when it is a valid descriptor.
    ref = tmp_path / "ref.txt"
    ref.write_text("a\n", encoding="utf-8")
    fd = os.open(ref, os.O_RDONLY)
    try:
        with pytest.raises(InputTypeError):
            score_files(fd, ref)  # type: ignore[arg-type]
        assert os.fstat(fd)  # still open: not taken over and closed
    finally:
        os.close(fd)


@pytest.mark.parametrize(
    ("kw", "name"),
    [
        ({"num_refs": 1.5}, "num_refs"),
        ({"block_lines": 0}, "block_lines"),
        ({"encoding": "hex"}, "encoding"),
    ],
)
def test_score_files_options(tmp_path: Path, kw: dict[str, Any], name: str) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("a\n", encoding="utf-8")
    with pytest.raises(InvalidOptionError, match=name):
        score_files(ref, ref, **kw)
