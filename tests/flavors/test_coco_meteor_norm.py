"""The native METEOR ``-norm`` words against the live jar's (the coco CI step, with Java).

The jar prints each line's normalised words with ``-writeAlignments`` (``-m exact``, so it
starts in a second); its ``-stdio`` mode, which pycocoevalcap drives, gives the word counts.
Lines are built from tricky pieces (tools/meteor_norm_fuzz.py: abbreviations, hyphens,
apostrophes, quotes, dashes, numbers, URLs, CJK, Latin-extended and Cyrillic letters, symbols,
non-BMP characters, combining marks, odd spaces and control characters).
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import is_required, require

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import meteor_norm_fuzz  # stdlib only at import; the jar drivers need Java


def _fuzz() -> ModuleType:
    """tools/meteor_norm_fuzz.py, which holds the pieces and the jar drivers."""
    require("pycocoevalcap", extra="coco")
    if not shutil.which("java"):
        if is_required("java"):
            pytest.fail("PARBLEU_REQUIRE names java, but there is no `java` on PATH")
        pytest.skip("no `java` on PATH (the live METEOR oracle is the jar)")
    return meteor_norm_fuzz


def _check(fuzz: Any, lines: list[str]) -> None:
    from parbleu.metrics.caption._meteor_native import load_scorer

    scorer = load_scorer(paraphrase=False)
    mine = [scorer.alignment(x, "zzz")[0] for x in lines]
    jar = fuzz.jar_words(lines)
    assert len(jar) == len(lines)
    bad = [(x, w, m) for x, w, m in zip(lines, jar, mine) if w != m]
    assert not bad, bad[:5]
    # pycocoevalcap removes `|||` from a hypothesis; such lines are left out of -stdio.
    keep = [k for k, x in enumerate(lines) if "|||" not in x]
    counts = fuzz.jar_lengths([lines[k] for k in keep])
    assert counts == [len(mine[k]) for k in keep]


def test_seeded_random_lines_match_the_live_jar() -> None:
    fuzz = _fuzz()
    rng = random.Random(36)
    _check(fuzz, [fuzz.random_line(rng, cased=False) for _ in range(3000)])


# Random characters but capitals and code points this Python does not know: their lower case
# depends on the Unicode version of the user's Java (17 knows Unicode 13; docs/captioning.md);
# the pieces hold old capitals.
_char = st.characters(exclude_categories=("Cs", "Lu", "Lt", "Cn"), exclude_characters="\n\r")


@st.composite
def _line(draw: st.DrawFn) -> str:
    pieces = meteor_norm_fuzz.PIECES
    parts = draw(st.lists(st.one_of(st.sampled_from(pieces), _char), max_size=15))
    seps = draw(
        st.lists(st.sampled_from([" ", "", "  "]), min_size=len(parts), max_size=len(parts))
    )
    return "".join(p + s for p, s in zip(parts, seps))


@settings(max_examples=8, deadline=None)
@given(st.lists(_line(), min_size=1, max_size=200))
def test_hypothesis_lines_match_the_live_jar(lines: list[str]) -> None:
    _check(_fuzz(), lines)
