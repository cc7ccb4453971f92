"""The checks pycocoevalcap's scorers make with ``assert``, as one clear parbleu error each.

Shared by the caption engines here and the ``parbleu.flavors.coco`` drop-ins (its ``Bleu``).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

from ..._workers import SERIAL_BELOW, resolve_workers
from ...errors import EmptyInputError, InvalidOptionError, InvalidTextError, flavor_error

__all__ = ["FLAVOR", "captions", "check_sigma", "check_workers"]

FLAVOR = "coco"


def check_workers(workers: Any) -> int:
    """Check ``workers`` as everywhere in parbleu, at construction so a bad value fails at once.

    An integer; < 1 means all cores; more than the cores is capped.

    The core splits images into blocks itself, so the serial cut-off for small inputs does
    not apply: the count is resolved as for an input of ``SERIAL_BELOW`` items.
    """
    return resolve_workers(workers, SERIAL_BELOW)


def check_sigma(sigma: Any) -> float:
    """CIDEr-D's ``sigma``: a real number > 0 whose square is a finite float > 0.

    The original divides by ``2 * sigma**2``: ``ZeroDivisionError`` where the square is 0 (at
    0, and below about 1.5e-154, where it underflows), ``OverflowError`` where it overflows
    (above about 1.3e154). Those are refused here, naming ``sigma``, instead of a NaN or a
    score. A negative value would silently act as its absolute value: refused too. Any real
    number is taken (numpy's integers and floats included), as the original takes them.
    """
    if not isinstance(sigma, numbers.Real) or isinstance(sigma, bool):
        raise InvalidOptionError(f"sigma={sigma!r}: expected a number > 0")
    try:
        value = float(sigma)
    except OverflowError:
        raise InvalidOptionError(
            f"sigma={str(sigma)[:20]}...: too large for a float (the original: OverflowError)"
        ) from None
    if not math.isfinite(value) or value <= 0.0:
        raise InvalidOptionError(f"sigma={sigma!r}: expected a finite number > 0")
    square = value * value
    if square == 0.0:
        raise InvalidOptionError(
            f"sigma={sigma!r}: its square underflows to 0 (the original: ZeroDivisionError)"
        )
    if not math.isfinite(square):
        raise InvalidOptionError(
            f"sigma={sigma!r}: its square overflows (the original: OverflowError)"
        )
    return value


def captions(
    gts: Mapping[Any, Sequence[str]],
    res: Mapping[Any, Sequence[str]],
    metric: str,
    allow_empty: bool = False,
) -> tuple[list[Any], list[str], list[list[str]]]:
    """Return the image ids (in ``gts`` order), the hypotheses and the references.

    ``allow_empty``: no image is no error (BLEU's original scores an empty set 0).

    Raises
    ------
    EmptyInputError
        No image at all, unless ``allow_empty`` (the original: ``max()`` of an empty
        sequence, or a NaN mean).
    FlavorError
        Different image ids in ``gts`` and ``res``, an image without exactly one hypothesis
        or without any reference, or a caption that is not a string (the original's
        ``AssertionError``, also a base class of the error raised here).
    """
    if not isinstance(gts, Mapping) or not isinstance(res, Mapping):
        raise flavor_error(
            FLAVOR,
            f"{metric}: gts and res must be dicts {{image_id: [caption, ...]}}, got "
            f"{type(gts).__name__} and {type(res).__name__}",
            AssertionError,
        )
    if gts.keys() != res.keys():
        only_g = [k for k in gts if k not in res][:3]
        only_r = [k for k in res if k not in gts][:3]
        where = f"missing from res: {only_g!r}" if only_g else f"missing from gts: {only_r!r}"
        raise flavor_error(
            FLAVOR,
            f"{metric}: gts and res have different image ids ({where}; the original: "
            "AssertionError)",
            AssertionError,
        )
    if not gts and not allow_empty:
        raise EmptyInputError(f"coco: {metric}: no images to score (gts and res are empty)")
    ids = list(gts)
    hyps: list[str] = []
    refs: list[list[str]] = []
    for img in ids:
        hypo, ref = res[img], gts[img]
        if not isinstance(hypo, list) or len(hypo) != 1:
            raise flavor_error(
                FLAVOR,
                f"{metric}: res[{img!r}] must be a list holding one caption, got "
                f"{_shown(hypo)} (the original: AssertionError)",
                AssertionError,
            )
        if not isinstance(ref, list) or len(ref) < 1:
            raise flavor_error(
                FLAVOR,
                f"{metric}: gts[{img!r}] must be a non-empty list of captions, got "
                f"{_shown(ref)} (the original: AssertionError)",
                AssertionError,
            )
        hyps.append(hypo[0])
        refs.append(ref)
    # Each caption is a string of UTF-8 text: checked on all captions at once in C (join,
    # isascii, encode), which costs as much as the scoring otherwise; the per-caption search
    # runs only to name the image when something is wrong.
    flat = [*hyps, *(c for r in refs for c in r)]
    try:
        text = "".join(flat)
        if not text.isascii():
            text.encode("utf-8")
    except (TypeError, UnicodeEncodeError):
        _check_each(ids, gts, res, metric)
        raise  # pragma: no cover - _check_each finds what join or encode found
    return ids, hyps, refs


def _check_each(
    ids: list[Any], gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]], metric: str
) -> None:
    """Raise the error naming the first caption that is not a string of UTF-8 text."""
    for img in ids:
        for side, items in (("res", res[img]), ("gts", gts[img])):
            for c in items:
                if not isinstance(c, str):
                    raise flavor_error(
                        FLAVOR,
                        f"{metric}: {side}[{img!r}] holds a {type(c).__name__}, not a caption "
                        "string (tokenized captions are strings: run the PTB tokenizer first)",
                        AssertionError,
                    )
                if not c.isascii():
                    _check_utf8(c, metric, side, img)


def _check_utf8(c: str, metric: str, side: str, img: Any) -> None:
    """Refuse a lone surrogate, naming the image (the original: UnicodeEncodeError)."""
    try:
        c.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidTextError(
            f"coco: {metric}: {side}[{img!r}] (image {img!r}) holds a lone surrogate "
            f"U+{ord(c[e.start]):04X} at position {e.start}, not UTF-8 text"
        ) from None


def _shown(v: object) -> str:
    if isinstance(v, list):
        return f"a list of {len(v)}"
    return f"a {type(v).__name__}"
