r"""COCO's Stanford PTB tokenization: native by default, the original jar on request.

:class:`PTBTokenizer` returns what pycocoevalcap's does (Stanford CoreNLP 3.4.1's
``PTBTokenizer -preserveLines -lowerCase``, then its punctuation removal). By default it runs
parbleu's own tokenizer (:mod:`.ptb`, no Java); ``PTBTokenizer(java=True)`` runs pycocoevalcap's
jar (an optional extra, ``pip install 'parbleu[coco]'``, and Java).

Either way, a caption is one caption: line breaks inside it (``\\n``, ``\\r``, U+2028, U+2029,
``\\f``, ``\\x0b``, U+0085) separate words as a space does. The original ends a line there and
attaches every later caption to the wrong image.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from itertools import chain, islice
from typing import Any

from ... import _core
from ..._options import check_flag
from ...errors import InvalidTextError, MissingDependencyError, TokenizerNotAvailableError
from ...metrics.caption.checks import FLAVOR
from ...metrics.caption.java import java
from .._common import flavor_error

__all__ = ["PTBTokenizer", "native_tokenize"]

_BREAKS = str.maketrans({c: " " for c in "\n\r\u2028\u2029\x0b\x0c\x85"})


class PTBTokenizer:
    """COCO's Stanford PTB tokenization, as pycocoevalcap's ``PTBTokenizer``.

    Parameters
    ----------
    java
        Run pycocoevalcap's Stanford jar (extra ``coco`` and Java) instead of parbleu's native
        tokenizer. The native one is equal to the jar on every COCO caption tested; the rare
        differences are listed in docs/captioning.md.
    """

    def __init__(self, java: bool = False) -> None:
        self.java = check_flag("java", java)

    def tokenize(
        self, captions_for_image: Mapping[Any, Sequence[Mapping[str, str]]]
    ) -> dict[Any, list[str]]:
        """``{image_id: [{"caption": str}, ...]}`` -> ``{image_id: [tokenized caption, ...]}``.

        Raises
        ------
        FlavorError
            Not such a dict, or a caption that is not a string.
        InvalidTextError
            A caption holding a lone surrogate (not UTF-8), naming the image.
        TokenizerNotAvailableError
            ``java=True`` without pycocoevalcap or Java.
        """
        captions = _captions(captions_for_image, self.java)
        if not self.java:
            return native_tokenize(captions)[0]
        return _jar(captions)


def native_tokenize(*sides: Mapping[Any, list[str]]) -> list[dict[Any, list[str]]]:
    """Tokenize ``{image_id: [caption str, ...]}`` dicts by the core's PTB tokenizer, in one call.

    Raises
    ------
    InvalidTextError
        A caption holding a lone surrogate (not UTF-8), naming the image.
    """
    flat = list(chain.from_iterable(caps for side in sides for caps in side.values()))
    try:
        tokens = iter(_core.ptb_tokenize(flat, -1))
    except UnicodeEncodeError:
        for side in sides:
            for img, caps in side.items():
                for j, c in enumerate(caps):
                    _check_utf8(c, j, img)
        raise
    return [{img: list(islice(tokens, len(caps))) for img, caps in side.items()} for side in sides]


def _check_utf8(text: str, j: int, img: Any) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidTextError(
            f"coco: PTBTokenizer: the caption {j} of image {img!r} holds a lone "
            f"surrogate U+{ord(text[e.start]):04X} at position {e.start} (not UTF-8 "
            "text)"
        ) from None


def _captions(captions_for_image: Any, java: bool) -> dict[Any, list[str]]:
    """Return the captions as strings.

    For the jar, line breaks made spaces and each checked to be UTF-8 text (the native
    tokenizer does both itself).
    """
    if not isinstance(captions_for_image, Mapping):
        raise flavor_error(
            FLAVOR,
            "PTBTokenizer.tokenize: expected a dict {image_id: [{'caption': str}, ...]}, got "
            f"{type(captions_for_image).__name__}",
            AssertionError,
        )
    out: dict[Any, list[str]] = {}
    for img, caps in captions_for_image.items():
        if not isinstance(caps, (list, tuple)):
            raise flavor_error(
                FLAVOR, f"PTBTokenizer: captions[{img!r}] must be a list", AssertionError
            )
        texts = []
        for j, c in enumerate(caps):
            text = c.get("caption") if isinstance(c, Mapping) else None
            if not isinstance(text, str):
                raise flavor_error(
                    FLAVOR,
                    f'PTBTokenizer: captions[{img!r}][{j}] must be a dict {{"caption": str}}',
                    AssertionError,
                )
            if java:
                _check_utf8(text, j, img)
                text = text.translate(_BREAKS)
            texts.append(text)
        out[img] = texts
    return out


def _jar(captions: dict[Any, list[str]]) -> dict[Any, list[str]]:
    try:
        ptb: Any = importlib.import_module("pycocoevalcap.tokenizer.ptbtokenizer")
    except ImportError as e:
        raise TokenizerNotAvailableError(
            "coco: PTBTokenizer(java=True) runs pycocoevalcap's Stanford CoreNLP jar; install "
            "it with `pip install parbleu[coco]` (and Java), or use the native tokenizer "
            "(java=False, the default)"
        ) from e
    try:
        java("the PTB tokenizer")
    except MissingDependencyError as e:
        raise TokenizerNotAvailableError(str(e)) from None
    anns = {img: [{"caption": c} for c in caps] for img, caps in captions.items()}
    out: dict[Any, list[str]] = ptb.PTBTokenizer().tokenize(anns)
    return out
