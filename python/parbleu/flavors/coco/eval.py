"""pycocoevalcap's ``COCOEvalCap`` and a one-call :func:`evaluate`.

``COCOEvalCap(coco, cocoRes).evaluate()`` fills ``eval`` (``Bleu_1`` .. ``Bleu_4``, ``METEOR``,
``ROUGE_L``, ``CIDEr``), ``imgToEval`` and ``evalImgs`` as the original, tokenizing with the
Stanford PTB tokenization first: parbleu's native one (no Java), or the original jar with
``java_tokenizer=True``. Differences, all opt-in or documented in docs/captioning.md:
``metrics=`` chooses the scorers (SPICE only when asked: it needs CoreNLP models downloaded at
run time), ``tokenize=False`` scores captions that are already tokenized, a caption holding a
line break stays with its image (the original shifts every later caption to the wrong image),
and an image id of ``coco`` missing from ``cocoRes`` is one clear error (the original:
``KeyError``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..._options import check_flag
from ...errors import InvalidOptionError
from ...metrics.caption.checks import FLAVOR
from ...metrics.caption.cider import Cider
from ...metrics.caption.rouge import Rouge
from .._common import flavor_error
from .bleu import Bleu
from .tokenizer import PTBTokenizer, native_tokenize

__all__ = ["METRICS", "COCOEvalCap", "evaluate"]

#: The scorers :func:`evaluate` runs by default, in the original's order.
METRICS = ("Bleu", "METEOR", "ROUGE_L", "CIDEr")
_KNOWN = (*METRICS, "SPICE")


def _metrics(metrics: Iterable[str] | None) -> tuple[str, ...]:
    if metrics is None:
        return METRICS
    if isinstance(metrics, str):
        metrics = [metrics]
    chosen = tuple(metrics)
    bad = [m for m in chosen if m not in _KNOWN]
    if bad or not chosen:
        raise InvalidOptionError(
            f"coco: metrics={list(chosen)!r}: choose among {', '.join(_KNOWN)}"
        )
    return tuple(m for m in _KNOWN if m in chosen)


def _scorer(name: str, java_meteor: bool = False) -> tuple[Any, str | list[str]]:
    if name == "Bleu":
        return Bleu(4), ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"]
    if name == "METEOR":
        from ...metrics.caption.meteor import Meteor

        return Meteor(backend="jar" if java_meteor else "native"), "METEOR"
    if name == "ROUGE_L":
        return Rouge(), "ROUGE_L"
    if name == "CIDEr":
        return Cider(), "CIDEr"
    from .spice import Spice

    return Spice(), "SPICE"


class COCOEvalCap:
    """pycocoevalcap's ``COCOEvalCap`` over pycocotools-style objects.

    Parameters
    ----------
    coco, cocoRes
        Objects with ``getImgIds()`` and ``imgToAnns`` (``{image_id: [{"caption": str}]}``),
        as pycocotools' ``COCO`` and ``COCO.loadRes``.
    metrics
        Scorers to run (default: ``Bleu``, ``METEOR``, ``ROUGE_L``, ``CIDEr``; ``SPICE`` on
        request).
    tokenize
        Run the PTB tokenizer first, as the original (``False``: captions are tokenized).
    verbose
        Print what the original prints.
    java_tokenizer
        Tokenize with pycocoevalcap's Stanford jar (Java) instead of parbleu's native PTB
        tokenizer.
    java_meteor
        Score METEOR with pycocoevalcap's jar (Java) instead of parbleu's native METEOR 1.5
        (the same statistics on every segment checked; docs/captioning.md).
    """

    def __init__(
        self,
        coco: Any,
        cocoRes: Any,
        metrics: Iterable[str] | None = None,
        tokenize: bool = True,
        verbose: bool = True,
        java_tokenizer: bool = False,
        java_meteor: bool = False,
    ) -> None:
        self.evalImgs: list[dict[str, Any]] = []
        self.eval: dict[str, Any] = {}
        self.imgToEval: dict[Any, dict[str, Any]] = {}
        self.coco = coco
        self.cocoRes = cocoRes
        self.params = {"image_id": coco.getImgIds()}
        self._metrics = _metrics(metrics)
        self._tokenize = check_flag("tokenize", tokenize)
        self._verbose = check_flag("verbose", verbose)
        self._java_tokenizer = check_flag("java_tokenizer", java_tokenizer)
        self._java_meteor = check_flag("java_meteor", java_meteor)

    def evaluate(self) -> None:
        """Tokenize, run each scorer, fill ``eval``, ``imgToEval`` and ``evalImgs``."""
        gts: dict[Any, Any] = {}
        res: dict[Any, Any] = {}
        for img in self.params["image_id"]:
            gts[img] = self.coco.imgToAnns[img]
            if img not in self.cocoRes.imgToAnns:
                raise flavor_error(
                    FLAVOR,
                    f"image id {img!r} of the ground truth has no caption in the results "
                    "(the original: KeyError)",
                    KeyError,
                )
            res[img] = self.cocoRes.imgToAnns[img]
        self._run(gts, res)

    def _run(self, gts: Mapping[Any, Any], res: Mapping[Any, Any]) -> None:
        say = print if self._verbose else _quiet
        # Every scorer made first: a missing jar fails before any work.
        scorers = [_scorer(m, self._java_meteor) for m in self._metrics]
        try:
            self._score(scorers, gts, res, say)
        finally:
            for scorer, _ in scorers:  # stop the METEOR jar now, not when collected
                close = getattr(scorer, "close", None)
                if close is not None:
                    close()

    def _score(
        self,
        scorers: list[tuple[Any, str | list[str]]],
        gts: Mapping[Any, Any],
        res: Mapping[Any, Any],
        say: Any,
    ) -> None:
        if self._tokenize:
            say("tokenization...")
            if self._java_tokenizer:
                tok = PTBTokenizer(java=True)
                gts, res = tok.tokenize(_as_anns(gts)), tok.tokenize(_as_anns(res))
            else:  # both sides in one call of the core
                gts, res = native_tokenize(_as_text(gts), _as_text(res))
        else:
            gts, res = _as_text(gts), _as_text(res)
        say("setting up scorers...")
        for scorer, method in scorers:
            say(f"computing {scorer.method()} score...")
            if isinstance(scorer, Bleu):
                score, scores = scorer.compute_score(gts, res, verbose=int(self._verbose))
            else:
                score, scores = scorer.compute_score(gts, res)
            if isinstance(method, list):
                for sc, scs, m in zip(score, scores, method):
                    self.setEval(sc, m)
                    self.setImgToEvalImgs(scs, gts.keys(), m)
                    say(f"{m}: {sc:0.3f}")
            else:
                self.setEval(score, method)
                self.setImgToEvalImgs(scores, gts.keys(), method)
                say(f"{method}: {score:0.3f}")
        self.setEvalImgs()

    def setEval(self, score: Any, method: str) -> None:
        """Record the corpus score of ``method``."""
        self.eval[method] = score

    def setImgToEvalImgs(self, scores: Iterable[Any], imgIds: Iterable[Any], method: str) -> None:
        """Record per-image scores of ``method`` (paired with ``imgIds`` in order)."""
        for img, score in zip(imgIds, scores):
            if img not in self.imgToEval:
                self.imgToEval[img] = {"image_id": img}
            self.imgToEval[img][method] = score

    def setEvalImgs(self) -> None:
        """List the per-image records."""
        self.evalImgs = list(self.imgToEval.values())


def evaluate(
    gts: Mapping[Any, Sequence[str | Mapping[str, str]]],
    res: Mapping[Any, Sequence[str | Mapping[str, str]]],
    metrics: Iterable[str] | None = None,
    tokenize: bool = True,
    verbose: bool = False,
    java_tokenizer: bool = False,
    java_meteor: bool = False,
) -> tuple[dict[str, Any], dict[Any, dict[str, Any]]]:
    """COCO caption evaluation in one call: ``(COCOEvalCap.eval, COCOEvalCap.imgToEval)``.

    Parameters
    ----------
    gts
        ``{image_id: [reference caption, ...]}`` (strings or ``{"caption": str}`` dicts).
    res
        ``{image_id: [hypothesis caption]}``, the same image ids.
    metrics
        Scorers (default ``Bleu``, ``METEOR``, ``ROUGE_L``, ``CIDEr``; add ``SPICE`` where its
        models are installed; it needs Java).
    tokenize
        Run the Stanford PTB tokenization first, as COCOEvalCap does (parbleu's native
        tokenizer, no Java); ``False`` for captions that are already tokenized (lower case,
        punctuation split off).
    verbose
        Print what COCOEvalCap prints.
    java_tokenizer
        Tokenize with pycocoevalcap's Stanford jar (Java) instead.
    java_meteor
        Score METEOR with pycocoevalcap's jar (Java) instead of parbleu's native METEOR.

    Returns
    -------
    tuple
        ``{"Bleu_1": ..., "METEOR": ..., "ROUGE_L": ..., "CIDEr": ...}`` and
        ``{image_id: {"image_id": ..., "Bleu_1": ..., ...}}``.
    """
    ev = COCOEvalCap(
        _Ids(gts),
        None,
        metrics=metrics,
        tokenize=tokenize,
        verbose=verbose,
        java_tokenizer=java_tokenizer,
        java_meteor=java_meteor,
    )
    ev._run(gts, res)
    return ev.eval, ev.imgToEval


class _Ids:
    """Just enough of a pycocotools ``COCO`` for :class:`COCOEvalCap`'s constructor."""

    def __init__(self, gts: Mapping[Any, Any]) -> None:
        self.imgToAnns = gts

    def getImgIds(self) -> list[Any]:
        return list(self.imgToAnns)


def _quiet(*_: object) -> None:
    pass


def _caption(c: Any, side: str, img: Any) -> str:
    if isinstance(c, str):
        return c
    if isinstance(c, Mapping) and isinstance(c.get("caption"), str):
        return str(c["caption"])
    raise flavor_error(
        FLAVOR,
        f"{side}[{img!r}] holds a {type(c).__name__}: give caption strings or "
        '{"caption": str} dicts',
        AssertionError,
    )


def _items(d: Mapping[Any, Any], side: str) -> dict[Any, list[str]]:
    if not isinstance(d, Mapping):
        raise flavor_error(
            FLAVOR, f"{side} must be a dict {{image_id: [caption, ...]}}", AssertionError
        )
    out = {}
    for img, caps in d.items():
        if not isinstance(caps, (list, tuple)):
            raise flavor_error(
                FLAVOR, f"{side}[{img!r}] must be a list of captions", AssertionError
            )
        out[img] = [_caption(c, side, img) for c in caps]
    return out


def _as_anns(d: Mapping[Any, Any]) -> dict[Any, list[dict[str, str]]]:
    """Return the PTB tokenizer's input (``{"caption": str}`` dicts)."""
    return {k: [{"caption": c} for c in v] for k, v in _items(d, "captions").items()}


def _as_text(d: Mapping[Any, Any]) -> dict[Any, list[str]]:
    return _items(d, "captions")
