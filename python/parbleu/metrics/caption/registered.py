"""COCO's caption metrics as registered metrics: ``cider``, ``rouge-l``, ``meteor``, ``bleu-coco``.

Registered in :mod:`parbleu.metrics.registry` by name
(``"parbleu.metrics.caption.registered:..."``), beside the engines they run
(:mod:`parbleu.metrics.caption`), which the ``parbleu.flavors.coco`` drop-in also wraps.

Each is pycocoevalcap 1.2's number, as ``COCOEvalCap`` prints it: the captions go through
COCO's PTB tokenization first (parbleu's native one, :mod:`parbleu.metrics.caption.ptb`;
``tokenize="none"`` for captions tokenized already), then the scorer of
:mod:`parbleu.metrics.caption` runs on the whole set, one image a segment. A statistics row is
``[image score, 1.0]`` (:class:`~parbleu.metrics.contract.SegmentMean`), so intervals and
paired tests resample images with the core's ``Scorer.mean``:

- **CIDEr-D**: its document frequencies come from all the references given in one call, as in
  pycocoevalcap (so rows of separate calls do not add: no streaming, no merge);
- **ROUGE-L**: COCO's (β = 1.2, LCS over space-split tokens), a mean of image scores;
- **METEOR 1.5**: :class:`parbleu.metrics.caption.meteor.Meteor` (the jar, or the native engine
  where it is installed). Its corpus score is the jar's aggregate (not the mean of the image
  scores), so it is not resampled;
- **BLEU-1..4** (``bleu-coco``): pycocoevalcap's ``Bleu(4)``, :class:`.bleu.Bleu`. Its corpus
  scores come from the summed n-gram counts of all images, not the mean of the image scores,
  so it is not resampled either. It reports four columns, ``Bleu_1`` to ``Bleu_4``
  (:meth:`COCOBleu.columns`); the object itself scores ``Bleu_4``.

Scores are on pycocoevalcap's 0-1 scale and print with at least its 3 decimals (``%0.3f``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...score import Score
from ..contract import SegmentMean

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ...signature import Signature

__all__ = ["CIDEr", "COCOBleu", "COCORougeL", "CaptionScore", "Meteor"]

#: COCOEvalCap prints ``%0.3f``
PRINTED_DECIMALS = 3


class CaptionScore(Score):
    """A caption metric's score: 0-1, printed with at least COCOEvalCap's 3 decimals."""

    def format(
        self,
        width: int = 2,
        score_only: bool = False,
        signature: str = "",
        is_json: bool = False,
    ) -> str:
        """Render as :meth:`Score.format`, with ``max(width, 3)`` decimals."""
        return super().format(max(width, PRINTED_DECIMALS), score_only, signature, is_json)


class _Caption(SegmentMean):
    """PTB-tokenize, then pycocoevalcap's scorer over every image of the call."""

    metric_name = "caption"

    def __init__(
        self, tokenize: str = "ptb", references: Sequence[Sequence[str | None]] | None = None
    ) -> None:
        from ..registry import get_metric

        opts = get_metric(self.metric_name).check_options({"tokenize": tokenize})
        self.tokenize = str(opts["tokenize"])
        super().__init__(references)

    def options(self) -> dict[str, Any]:
        """Return the option that changes the scores."""
        return {"tokenize": self.tokenize}

    def get_signature(self) -> Signature:
        """Return the signature, with the tokenization (``tok:ptb``) and pycocoevalcap's name."""
        sig = super().get_signature()
        sig.update("tok", self.tokenize, "tok")
        sig.update("impl", "pycocoevalcap-1.2", "impl")
        return sig

    def _text(self, texts: Sequence[str]) -> list[str]:
        if self.tokenize == "none":
            return list(texts)
        from .ptb import ptb_tokenize

        return [ptb_tokenize(t) for t in texts]

    def _dicts(
        self, prepared: Any, hyps: list[str]
    ) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
        gts = {i: self._text(refs) for i, refs in enumerate(prepared.per_segment)}
        res = {i: self._text([h]) for i, h in enumerate(hyps)}
        return gts, res

    def _scores(self, prepared: Any, hyps: list[str]) -> tuple[float, list[float]]:
        """Return the original's corpus score and its image scores."""
        raise NotImplementedError

    def segment_score(self, hypothesis: str, references: list[str]) -> float:
        """Return the score of one image scored on its own."""
        prepared = type("_One", (), {"per_segment": [references]})()
        return self._scores(prepared, [hypothesis])[1][0]

    def _extract_raw(self, prepared: Any, hyps: list[str], workers: int) -> bytes:
        import numpy as np

        rows = np.ones((len(hyps), 2), dtype="<f8")
        if hyps:
            rows[:, 0] = self._scores(prepared, hyps)[1]
        return rows.tobytes()

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        n_bootstrap: int = 1,
        *,
        workers: int | None = None,
    ) -> Score:
        """Return the original's corpus score (its own mean or aggregate, to the bit)."""
        if n_bootstrap > 1:
            return super().corpus_score(hypotheses, references, n_bootstrap, workers=workers)
        totals = self._per_segment(hypotheses, references, workers, self._corpus)
        return CaptionScore(self.title, float(totals[0]))

    def _corpus(self, prepared: Any, hyps: list[str], workers: int) -> list[Any]:
        return [self._scores(prepared, hyps)[0], float(len(hyps))]

    def _score_row(self, row: Sequence[Any]) -> Score:
        return CaptionScore(self.title, float(row[0]) / float(row[1]))

    def _score_rows(self, rows: npt.NDArray[Any], workers: int) -> npt.NDArray[np.float64]:
        import numpy as np

        arr = np.asarray(rows, dtype=np.float64)
        return arr[:, 0] / arr[:, 1]


class CIDEr(_Caption):
    """CIDEr-D as pycocoevalcap computes it (document frequencies from the whole call)."""

    metric_name = "cider"

    def _scores(self, prepared: Any, hyps: list[str]) -> tuple[float, list[float]]:
        from .cider import Cider

        gts, res = self._dicts(prepared, hyps)
        mean, per_image = Cider().compute_score(gts, res)
        return float(mean), [float(x) for x in per_image]


class COCORougeL(_Caption):
    """COCO's ROUGE-L (pycocoevalcap's ``Rouge``: β = 1.2, LCS over space-split tokens)."""

    metric_name = "rouge-l"

    def _scores(self, prepared: Any, hyps: list[str]) -> tuple[float, list[float]]:
        from .rouge import Rouge

        gts, res = self._dicts(prepared, hyps)
        mean, per_image = Rouge().compute_score(gts, res)
        return float(mean), [float(x) for x in per_image]


class Meteor(_Caption):
    """METEOR 1.5 as pycocoevalcap runs it (through :class:`.meteor.Meteor`)."""

    metric_name = "meteor"

    def _scores(self, prepared: Any, hyps: list[str]) -> tuple[float, list[float]]:
        from . import meteor

        gts, res = self._dicts(prepared, hyps)
        scorer = meteor.Meteor()
        try:
            corpus, per_image = scorer.compute_score(gts, res)
        finally:
            close = getattr(scorer, "close", None)
            if close is not None:
                close()
        return float(corpus), [float(x) for x in per_image]


class COCOBleu(_Caption):
    """pycocoevalcap's BLEU-1..4 (``Bleu(4)``: closest reference length, its tiny constants).

    Reports one column per order (:meth:`columns`: ``Bleu_1`` .. ``Bleu_4``), which the
    command line prints as four scores; the object itself scores its ``order`` (4).
    """

    metric_name = "bleu-coco"
    #: The command line prints each of :meth:`columns` as a score of its own.
    plain_columns = True
    #: The BLEU order this object scores (``Bleu_{order}``).
    order = 4
    #: Whether this object is one of :meth:`columns` (it then reports only itself).
    _is_column = False

    @property
    def title(self) -> str:
        """``Bleu_1`` .. ``Bleu_4``, pycocoevalcap's key of the order scored."""
        return f"Bleu_{self.order}"

    def columns(self) -> list[Any]:
        """Return one ``COCOBleu`` per order, 1 to 4 (itself once it is a column).

        Returns
        -------
        list of COCOBleu
            ``Bleu_1`` .. ``Bleu_4``.
        """
        if self._is_column:
            return [self]
        import copy

        out = []
        for k in range(1, 5):
            col = copy.copy(self)
            col.order = k
            col._is_column = True
            out.append(col)
        return out

    def _scores(self, prepared: Any, hyps: list[str]) -> tuple[float, list[float]]:
        from .bleu import Bleu

        gts, res = self._dicts(prepared, hyps)
        corpus, per_image = Bleu(4).compute_score(gts, res, verbose=0)
        k = self.order - 1
        return float(corpus[k]), [float(x) for x in per_image[k]]
