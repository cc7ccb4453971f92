"""Score objects with SacreBLEU's attributes and text/JSON rendering."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Union

Number = Union[int, float]


class Score:
    """A metric's value with SacreBLEU's ``format()``.

    Parameters
    ----------
    name
        Metric name as printed (``BLEU``, ``chrF2``, ...).
    score
        The value, 0-100.
    """

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(
        self,
        width: int = 2,
        score_only: bool = False,
        signature: str = "",
        is_json: bool = False,
    ) -> str:
        """Render the score as SacreBLEU does.

        Parameters
        ----------
        width
            Decimal places.
        score_only
            Only the number (with the confidence interval, if any).
        signature
            A rendered signature to include.
        is_json
            Render as a JSON object (with the signature's fields as keys).

        Returns
        -------
        str
            The rendered score.
        """
        d: dict[str, Any] = {
            "name": self.name,
            "score": float(f"{self.score:.{width}f}"),
            "signature": signature,
        }
        sc = f"{self.score:.{width}f}"
        if self._shows_interval():
            confidence_mean = f"{self._mean:.{width}f}"
            confidence_var = f"{self._ci:.{width}f}"
            confidence_str = f"μ = {confidence_mean} ± {confidence_var}"
            sc += f" ({confidence_str})"
            if is_json:
                d["confidence_mean"] = float(confidence_mean)
                d["confidence_var"] = float(confidence_var)
                d["confidence"] = confidence_str
        full_score = f"{self.name}|{signature}" if signature else self.name
        full_score = f"{full_score} = {sc}"
        if self._verbose:
            full_score += f" {self._verbose}"
            d["verbose_score"] = self._verbose
        if score_only:
            return sc
        if is_json:
            import json

            for param in signature.split("|"):
                key, value = param.split(":")
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        return full_score

    def _shows_interval(self) -> bool:
        # SacreBLEU's test (a mean above 0: a score of 0 shows none); ImportedScore's differs.
        return self._mean > 0

    def estimate_ci(self, scores: Sequence[Score]) -> None:
        """Store the mean and half-width of the 95% interval of resampled scores."""
        import statistics

        raw = sorted(x.score for x in scores)
        n = len(raw)
        lower_idx = n // 40
        upper_idx = n - lower_idx - 1
        self._ci = 0.5 * (raw[upper_idx] - raw[lower_idx])
        self._mean = statistics.mean(raw)

    def __repr__(self) -> str:
        return self.format()


class BLEUScore(Score):
    """A BLEU score with its n-gram counts, as SacreBLEU's ``BLEUScore``.

    Parameters
    ----------
    score
        BLEU, 0-100.
    counts
        Matched n-grams per order (with add-k smoothing: +k for n >= 2, as SacreBLEU exposes).
    totals
        Hypothesis n-grams per order (likewise).
    precisions
        Per-order precisions, 0-100.
    bp
        Brevity penalty.
    sys_len
        Hypothesis length in tokens.
    ref_len
        Effective reference length in tokens.
    """

    def __init__(
        self,
        score: float,
        counts: list[Number],
        totals: list[Number],
        precisions: list[float],
        bp: float,
        sys_len: int,
        ref_len: int,
    ) -> None:
        # Score.__init__ inlined, without `_verbose`: the text attributes are made on first use
        # (see __getattr__), which is most of the cost of a sentence_score call otherwise.
        self.name = "BLEU"
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions

    prec_str: str
    ratio: float

    def __getattr__(self, name: str) -> Any:
        # Only called for attributes not set yet: SacreBLEU's eager text attributes.
        if name == "prec_str":
            value: Any = "/".join([f"{p:.1f}" for p in self.precisions])
        elif name == "ratio":
            value = self.sys_len / self.ref_len if self.ref_len else 0
        elif name == "_verbose":
            value = f"{self.prec_str} (BP = {self.bp:.3f} "
            value += f"ratio = {self.ratio:.3f} hyp_len = {self.sys_len:d} "
            value += f"ref_len = {self.ref_len:d})"
        else:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.__dict__[name] = value
        return value
