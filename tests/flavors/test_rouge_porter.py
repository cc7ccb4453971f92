"""The core's Porter stemmer against live NLTK 3.10.4 ``PorterStemmer()`` (rouge-score's).

Every word type of the English sides of the WMT21 data (as rouge-score's tokenizer cuts them,
plus the raw whitespace words in ASCII), and hypothesis-generated ASCII words built to hit the
suffix rules: all must stem exactly as NLTK does.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import SHARED, require, require_reproduced_nltk
from parbleu import _core

require("nltk")
require_reproduced_nltk()
from nltk.stem.porter import PorterStemmer  # noqa: E402

NLTK = PorterStemmer()
WMT21 = SHARED / "data" / "wmt21"


def _english_vocabulary() -> set[str]:
    files = sorted(WMT21.glob("references/*.en")) + sorted(WMT21.glob("system-outputs/*.en"))
    assert len(files) > 20, files
    words: set[str] = set()
    for f in files:
        text = f.read_text(encoding="utf-8")
        words.update(re.split(r"[^a-z0-9]+", text.lower()))
        words.update(w for w in text.split() if w.isascii())
    words.discard("")
    return words


def test_wmt21_english_vocabulary_stems_as_nltk() -> None:
    words = sorted(_english_vocabulary())
    assert len(words) > 50_000
    ours = _core.rouge_porter_stem(words)
    assert len(ours) == len(words)  # (zip's strict= needs Python 3.10)
    bad = [(w, s, NLTK.stem(w)) for w, s in zip(words, ours) if s != NLTK.stem(w)]
    assert not bad, bad[:20]


SUFFIXES = [
    "s", "es", "ies", "sses", "ss", "ed", "eed", "ied", "ing", "y", "ational", "tional", "enci",
    "anci", "izer", "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism",
    "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "fulli", "logi", "icate",
    "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able",
    "ible", "ant", "ement", "ment", "ent", "sion", "tion", "ou", "ism", "ate", "iti", "ous",
    "ive", "ize", "e", "ll", "at", "bl", "iz", "yy", "bb", "",
]  # fmt: skip

stems = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0y", min_size=0, max_size=8)
words = st.builds(
    lambda a, s1, s2, up: (a + s1 + s2).upper() if up else a + s1 + s2,
    stems,
    st.sampled_from(SUFFIXES),
    st.sampled_from(SUFFIXES),
    st.booleans(),
)


@settings(max_examples=3000, deadline=None)
@given(st.lists(words, min_size=1, max_size=20))
def test_generated_words_stem_as_nltk(ws: list[str]) -> None:
    assert _core.rouge_porter_stem(ws) == [NLTK.stem(w) for w in ws]


@pytest.mark.parametrize("word", ["", "a", "ab", "yyyy", "y", "sky", "skies", "DYING", "1234s"])
def test_short_and_irregular_words(word: str) -> None:
    assert _core.rouge_porter_stem([word]) == [NLTK.stem(word)]
