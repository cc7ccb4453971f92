"""Shared by the NLTK ``meteor_score`` tests: NLTK with WordNet, found without a download."""

from __future__ import annotations

import os

import pytest

from helpers import is_required, require


def nltk_wordnet() -> object:
    """NLTK's ``nltk.corpus.wordnet``, loaded; skip (fail with PARBLEU_REQUIRE=nltk-wordnet)
    where NLTK or its WordNet is absent (CI builds it with tools/build_nltk_wordnet.py)."""
    require("nltk", extra="test")
    import nltk
    from nltk.corpus import wordnet

    try:
        wordnet.ensure_loaded()
    except (LookupError, OSError, ValueError) as e:
        # LookupError: not found. OSError/ValueError: a partial or damaged copy (a wordnet
        # folder without index.sense, a truncated zip): a reason, never a collection error.
        why = (
            f"NLTK's WordNet is not installed or not readable ({type(e).__name__}; "
            "python tools/build_nltk_wordnet.py DIR, then "
            f"NLTK_DATA=DIR; NLTK_DATA={os.environ.get('NLTK_DATA')!r}, path {nltk.data.path})"
        )
        if is_required("nltk-wordnet"):
            pytest.fail(why)
        pytest.skip(why, allow_module_level=True)
    return wordnet
