"""One reference set for BLEU, chrF and TER (the core's RefSet, through the binding).

The three ``_core.*Refs`` classes are built by one conversion: they group streams by segment,
drop ``None``, count references and find each distinct text once (by object, then by text).
Scores are checked against SacreBLEU: sharing a preparation must never change one.
"""

from __future__ import annotations

import pytest
import sacrebleu

import parbleu
from parbleu import _refcache
from parbleu.errors import InputTypeError

METRICS = [
    (parbleu.BLEU, sacrebleu.BLEU),
    (parbleu.CHRF, sacrebleu.CHRF),
    (parbleu.TER, sacrebleu.TER),
]


def streams_with_sharing() -> tuple[list[str], list[list[str | None]]]:
    """Segments whose references repeat as the same objects, as equal copies, and with None."""
    base = ["the cat sat on the mat", "a dog", "", "the cat sat on the mat .", "x y z"]
    hyps = ["the cat sat on a mat", "dogs", "nothing", "the cat sat", "x z y"] * 3
    s1: list[str | None] = base * 3  # the same objects, three times
    s2: list[str | None] = [None if i % 4 == 1 else "".join(list(r)) for i, r in enumerate(s1)]
    return hyps, [s1, s2]


@pytest.mark.parametrize(("ours", "theirs"), METRICS, ids=["bleu", "chrf", "ter"])
def test_queries_and_scores_with_shared_references(ours: type, theirs: type) -> None:
    hyps, streams = streams_with_sharing()
    _refcache.clear()
    m = ours()
    prepared = m.prepare(streams)
    assert len(prepared) == 15
    assert prepared.ref_counts() == [1, 2]
    assert prepared.first_segment_without_refs() is None
    # Segments 0..4 repeat as 5..9 and 10..14 except where the second stream has None.
    want = len({(streams[0][i], streams[1][i]) for i in range(15)})
    assert prepared.distinct_segments() == want
    got = m.corpus_score(hyps, streams)
    assert got.score == theirs().corpus_score(hyps, streams).score
    alone = [
        m.sentence_score(h, [s[i] for s in streams if s[i] is not None]) for i, h in enumerate(hyps)
    ]
    batch = m.sentence_scores(hyps, streams).tolist()
    assert batch == [s.score for s in alone]


@pytest.mark.parametrize(("ours", "theirs"), METRICS, ids=["bleu", "chrf", "ter"])
def test_segment_without_references_is_found(ours: type, theirs: type) -> None:
    streams: list[list[str | None]] = [["a", None, "b"], ["a", None, None]]
    prepared = ours()._prepare_refs(streams, 1)
    assert prepared.first_segment_without_refs() == 1
    assert prepared.ref_counts() == [0, 1, 2]
    _refcache.clear()
    with pytest.raises(InputTypeError, match="segment 1 has no reference"):
        ours().prepare(streams)
