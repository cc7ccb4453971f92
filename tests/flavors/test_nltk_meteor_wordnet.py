"""parbleu's WordNet table and reader against NLTK's reader: same synonyms for every word.

Every lemma of every index file, each with the inflections ``_morphy``'s rules undo and every
form of the exception lists, asked of NLTK (``wordnet.synsets(w)``'s lemma names without
``_``) and of parbleu, from the shipped table and from NLTK's own files. Needs NLTK's WordNet
(CI: ``tools/build_nltk_wordnet.py``).
"""

from __future__ import annotations

import warnings

import pytest

from nltk_meteor_support import nltk_wordnet
from parbleu.flavors.nltk.meteor_score import load_wordnet

wn = nltk_wordnet()


def _words() -> list[str]:
    idx = wn._lemma_pos_offset_map  # type: ignore[attr-defined]
    exc = wn._exception_map  # type: ignore[attr-defined]
    words = set(idx)
    for w in list(idx):
        words.update({w + "s", w + "es", w + "ed", w + "ing", w + "er", w + "est", w + "ies"})
        if w.endswith("y"):
            words.update({w[:-1] + "ies", w[:-1] + "ier"})
        if w.endswith("man"):
            words.add(w[:-3] + "men")
        if w.endswith("f"):
            words.add(w[:-1] + "ves")
    for forms in exc.values():
        words.update(forms)
        for bases in forms.values():
            words.update(bases)
    words.update(["", "s", "es", "ies", "men", "_", "dog_", "naïve", "Dogs", "DOG"])
    return sorted(words)


def _nltk(word: str) -> list[str]:
    names = {
        n
        for s in wn.synsets(word)
        for n in s.lemma_names()
        if n.find("_") < 0  # type: ignore[attr-defined]
    }
    return sorted(names)


@pytest.mark.slow
@pytest.mark.parametrize("source", ["parbleu", "nltk"])
def test_every_word_same_synonyms(source: str) -> None:
    ours = load_wordnet("parbleu" if source == "parbleu" else wn.root.path)  # type: ignore[attr-defined]
    words = _words()
    assert len(words) > 500_000
    bad = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for w in words:
            want = _nltk(w)
            got = ours.synonyms(w.lower())
            if got != want:
                bad.append((w, want, got))
    assert not bad, bad[:5]
