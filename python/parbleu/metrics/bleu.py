"""BLEU (Papineni et al., 2002) exactly as SacreBLEU 2.6 computes it."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .. import _core
from .._lazylog import get_logger
from .._options import (
    SMOOTH_DEFAULTS,
    check_smooth,
    check_smooth_method,
)
from ..errors import StatisticsError
from ..score import BLEUScore, Number
from ..signature import Signature
from ..tokenizers import PythonTokenizer, TokenizerNames, get_tokenizer, is_rust_tokenizer
from .base import Metric
from .options import BLEU_OPTIONS
from .schema import abbreviations, check_option

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from typing_extensions import Unpack

    from ..ids import IdOptions

logger = get_logger("parbleu")

MAX_NGRAM_ORDER = 4


def warn_tokenized_period() -> None:
    """Log SacreBLEU's warning about 100+ hypotheses that end in a tokenized period (``" ."``).

    BLEU logs it once per scoring call; streaming once for a whole file.
    """
    logger.warning("That's 100 lines that end in a tokenized period ('.')")
    logger.warning(
        "It looks like you forgot to detokenize your test data, which may hurt your score."
    )
    logger.warning(
        "If you insist your data is detokenized, or don't care, you can suppress this "
        "message with the `force` parameter."
    )


#: The option schema by name (the constructor's checks).
_OPTS = {o.name: o for o in BLEU_OPTIONS}


class BLEUSignature(Signature):
    """BLEU's signature: ``nrefs|case|eff|tok|smooth`` (+ ``ngram`` when not 4) ``|version``."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self.abbreviate(abbreviations(BLEU_OPTIONS))
        smooth_str = args["smooth_method"]
        smooth_def = BLEU.SMOOTH_DEFAULTS[smooth_str]
        if smooth_def is not None:
            smooth_val = args["smooth_value"]
            if smooth_val is None:
                smooth_val = smooth_def
            smooth_str += f"[{smooth_val:.2f}]"
        self.info.update(
            {
                "case": "lc" if args["lowercase"] else "mixed",
                "eff": "yes" if args["effective_order"] else "no",
                "tok": args["tokenizer_signature"],
                "smooth": smooth_str,
            }
        )
        # SacreBLEU omits a non-default order from its signature (its issue #251).
        if args["max_ngram_order"] != MAX_NGRAM_ORDER:
            self.info["ngram"] = args["max_ngram_order"]


class BLEU(Metric[BLEUScore]):
    """BLEU with SacreBLEU's constructor arguments and results.

    Parameters
    ----------
    lowercase
        Lowercase hypotheses and references (Python's full Unicode ``str.lower``).
    force
        Do not warn about hypotheses that look tokenized.
    tokenize
        ``none``, ``13a``, ``intl``, ``char``, ``zh``, ``ja-mecab``, ``ko-mecab``; ``None``
        picks by ``trg_lang`` (zh, ja, ko) and falls back to ``13a``.
    smooth_method
        ``none``, ``floor``, ``add-k`` or ``exp``.
    smooth_value
        The value for ``floor`` (default 0.1) and ``add-k`` (default 1).
    max_ngram_order
        Highest n-gram order (default 4).
    effective_order
        Stop at the highest order with any n-gram (recommended for sentence-level BLEU).
    trg_lang
        Target language code, used to pick the default tokenizer.
    references
        Reference streams to preprocess once and reuse in every ``corpus_score`` call.
    """

    SMOOTH_DEFAULTS: ClassVar[dict[str, float | None]] = SMOOTH_DEFAULTS
    TOKENIZERS = TokenizerNames()  # the registry's names, read at each access
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP: ClassVar[dict[str, str]] = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
    _SIGNATURE_TYPE = BLEUSignature
    metric_name = "bleu"

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        super().__init__()
        # The checks of the option schema (metrics/options.py), as the CLI group.
        self._force: bool = check_option(_OPTS["force"], force)
        self.trg_lang = trg_lang
        self.lowercase: bool = check_option(_OPTS["lowercase"], lowercase)
        self.max_ngram_order: int = check_option(_OPTS["max_ngram_order"], max_ngram_order)
        self.effective_order: bool = check_option(_OPTS["effective_order"], effective_order)
        self.smooth_method = check_smooth_method(smooth_method)
        self.smooth_value = check_smooth(self.smooth_method, smooth_value)
        self._warned_sentence = False

        if tokenize is None:
            best = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        else:
            best = tokenize
            for lang, hint in (
                ("zh", "'zh' or 'spm'"),
                ("ja", "'ja-mecab' or 'spm'"),
                ("ko", "'ko-mecab' or 'spm'"),
            ):
                if trg_lang == lang and best != self._TOKENIZER_MAP[lang]:
                    name = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}[lang]
                    logger.warning("Consider using the %s tokenizer for %s.", hint, name)
        self.tokenizer = get_tokenizer(best)
        self.tokenizer_signature = self.tokenizer.signature()
        if references is not None:
            self._ref_cache = self._cache_references(references)

    # --- statistics ---------------------------------------------------------------------
    @property
    def stats_width(self) -> int:
        """``2 + 2 * max_ngram_order``: hyp_len, ref_len, matches 1..N, totals 1..N."""
        return 2 + 2 * self.max_ngram_order

    def stats_key(self) -> tuple[Any, ...]:
        """Tokenizer, case and order: what the rows depend on."""
        return ("bleu", self.tokenizer_signature, self.lowercase, self.max_ngram_order)

    # --- the core objects and capabilities ----------------------------------------------
    word_ngram_stats: ClassVar[bool] = True

    def core_options(self) -> Any:
        """Return this object's options as one ``_core.BleuOptions``, built once.

        Tokenizer (``none`` for a Python-side tokenizer, whose output the core only splits),
        case, order and smoothing, validated by :mod:`parbleu._options`; cached on their
        values (see :meth:`Metric.core_options`).

        Returns
        -------
        parbleu._core.BleuOptions
            The options every ``_core`` call of this metric takes.
        """
        name, lc = self._core_tok()
        value = self.smooth_value
        args = (
            name,
            bool(lc),
            self.max_ngram_order,
            self.smooth_method,
            None if value is None else float(value),
            bool(self.effective_order),
        )
        return self._cached_core_options(_core.BleuOptions, args)

    def core_scorer(self) -> Any:
        """Return the core's BLEU finalize step (see :meth:`Metric.core_scorer`)."""
        return _core.Scorer(self.core_options())

    def pair_table(self, strings: list[str], workers: int) -> Any:
        """Return the core's BLEU pair table of ``strings`` (see :meth:`Metric.pair_table`)."""
        if not is_rust_tokenizer(self.tokenizer):
            strings = self._preprocess_py(strings)
        return _core.PairTable(strings, self.core_options(), workers)

    def sentence_metric(self) -> BLEU:
        """Return this metric with effective order (a copy if needed), as ``sentence_bleu``.

        Returns
        -------
        BLEU
            The metric of sentence scores.
        """
        if self.effective_order:
            return self
        m = copy.copy(self)
        m.effective_order = True
        return m

    def word_tokenization(self) -> tuple[Callable[[str], str], bool]:
        """Return BLEU's tokenizer and lowercasing (see :meth:`Metric.word_tokenization`).

        Returns
        -------
        tuple
            ``(tokenizer, lowercase)``.
        """
        return self.tokenizer, bool(self.lowercase)

    def _preprocess_py(self, lines: list[Any]) -> list[Any]:
        # Python-side tokenizers (MeCab) run here; the core then only splits on whitespace.
        tok = self.tokenizer
        assert isinstance(tok, PythonTokenizer)
        out: list[Any] = list(lines)
        # Strings go to the tokenizer in one batch (SentencePiece encodes batches natively);
        # None and non-strings stay in place for the caller's diagnosis.
        where = [i for i, x in enumerate(lines) if isinstance(x, str)]
        texts = [(lines[i].lower() if self.lowercase else lines[i]).rstrip() for i in where]
        for i, t in zip(where, tok.batch(texts)):
            out[i] = t
        return out

    def _core_tok(self) -> tuple[str, bool]:
        if is_rust_tokenizer(self.tokenizer):
            return self.tokenizer.signature(), self.lowercase
        return "none", False

    def _prepare_refs(self, streams: list[list[Any]], workers: int) -> Any:
        if not is_rust_tokenizer(self.tokenizer):
            streams = [self._preprocess_py(s) for s in streams]
        return _core.Refs(streams, self.core_options(), workers)

    def _extract_raw(self, prepared: Any, hyps: list[str], workers: int) -> bytes:
        if is_rust_tokenizer(self.tokenizer):
            data, tok_count = prepared.extract(hyps, workers)
        else:
            # The "tokenized period" check looks at the hypotheses as given, before MeCab.
            tok_count = sum(1 for h in hyps if isinstance(h, str) and h.endswith(" ."))
            data, _ = prepared.extract(self._preprocess_py(hyps), workers)
        self._warn_tokenized(tok_count)
        raw: bytes = data
        return raw

    def _sentence_scores(
        self, prepared: Any, hyps: list[str], workers: int
    ) -> npt.NDArray[np.float64]:
        if not is_rust_tokenizer(self.tokenizer):
            return super()._sentence_scores(prepared, hyps, workers)
        import numpy as np

        # Rows are scored where they are made: no statistics matrix goes through Python.
        data, tok_count = prepared.sentence_scores(hyps, self.core_options(), workers)
        self._warn_tokenized(tok_count)
        return np.frombuffer(data, dtype="<f8").copy()

    def _warn_tokenized(self, tok_count: int) -> None:
        if not self._force and tok_count >= 100:
            warn_tokenized_period()

    def _score_row(self, row: Sequence[Any]) -> BLEUScore:
        n = self.max_ngram_order
        return self.compute_bleu(
            correct=[int(x) for x in row[2 : 2 + n]],
            total=[int(x) for x in row[2 + n : 2 + 2 * n]],
            sys_len=int(row[0]),
            ref_len=int(row[1]),
            smooth_method=self.smooth_method,
            smooth_value=self.smooth_value,
            effective_order=self.effective_order,
            max_ngram_order=n,
        )

    def _score_rows(self, rows: npt.NDArray[Any], workers: int) -> npt.NDArray[np.float64]:
        import numpy as np

        arr = np.ascontiguousarray(rows, dtype=np.int64)
        data = _core.bleu_scores(arr, self.stats_width, self.core_options(), workers)
        return np.frombuffer(data, dtype="<f8").copy()

    # --- SacreBLEU's static scorer --------------------------------------------------------
    @staticmethod
    def compute_bleu(
        correct: list[Number],
        total: list[Number],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
    ) -> BLEUScore:
        """BLEU from sufficient statistics, as SacreBLEU's ``BLEU.compute_bleu``.

        Unlike SacreBLEU, the ``correct`` and ``total`` lists passed in are not modified.
        Integer counts (the statistics every path makes) are scored by the Rust core's one
        BLEU finalize; other forms SacreBLEU accepts (floats, counts of 2**52 or more, numpy
        scalars, lists longer or shorter than ``max_ngram_order``, negative values) by the
        same arithmetic in Python (:func:`_compute_bleu_python`), where Python's own number
        semantics (exact integers, its errors) decide.

        Parameters
        ----------
        correct, total
            Matched and total hypothesis n-grams per order.
        sys_len, ref_len
            Hypothesis and effective reference lengths.
        smooth_method, smooth_value
            Smoothing (``none``, ``floor``, ``add-k``, ``exp``) and its value.
        effective_order
            Stop at the highest order with any n-gram.
        max_ngram_order
            Number of orders.

        Returns
        -------
        BLEUScore
            The score with its statistics.
        """
        check_smooth_method(smooth_method)
        correct = list(correct)
        total = list(total)
        if smooth_value is None:
            smooth_value = BLEU.SMOOTH_DEFAULTS[smooth_method]
        if not _exact_in_core(correct, total, sys_len, ref_len, smooth_value, max_ngram_order):
            return _compute_bleu_python(
                correct,
                total,
                sys_len,
                ref_len,
                smooth_method,
                smooth_value,
                effective_order,
                max_ngram_order,
            )
        k = None if smooth_value is None else float(smooth_value)
        score, precisions, bp, visited = _core.bleu_finalize(
            correct, total, sys_len, ref_len, smooth_method, k, bool(effective_order)
        )
        if smooth_method == "add-k":
            # SacreBLEU returns its lists with k added (in Python's number types).
            assert smooth_value is not None
            for i in range(1, visited):
                correct[i] += smooth_value
                total[i] += smooth_value
        return BLEUScore(score, correct, total, precisions, bp, sys_len, ref_len)

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> BLEUScore:
        """Score one segment, as SacreBLEU's ``sentence_score`` (see :meth:`Metric.sentence_score`).

        SacreBLEU warns on every call without ``effective_order``; parbleu warns once per
        ``BLEU`` object.
        """
        if not self.effective_order and not self._warned_sentence:
            self._warned_sentence = True
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        return super().sentence_score(hypothesis, references)

    def _sentence_one(self, hypothesis: str, refs: list[Any]) -> BLEUScore:
        # The common case in one call into the core: plain strings, a Rust tokenizer. Anything
        # else (None entries, other types, MeCab) takes the general path and its diagnostics.
        if not all(type(r) is str for r in refs) or not is_rust_tokenizer(self.tokenizer):
            return super()._sentence_one(hypothesis, refs)
        try:
            row, scored = _core.bleu_sentence(hypothesis, refs, self.core_options())
        except UnicodeEncodeError:
            return super()._sentence_one(hypothesis, refs)
        self.num_refs = len(refs)
        if scored is None:  # add-k: SacreBLEU's counts carry the added k, its arithmetic does it
            return self._score_row(row)
        score, precisions, bp = scored
        n = self.max_ngram_order
        counts: list[Number] = list(row[2 : 2 + n])
        totals: list[Number] = list(row[2 + n : 2 + 2 * n])
        return BLEUScore(score, counts, totals, precisions, bp, row[0], row[1])

    # --- token ids (parbleu.ids) ------------------------------------------------------------
    def extract_stats_ids(
        self, hyp_ids: Any, ref_ids: Sequence[Any], **options: Unpack[IdOptions]
    ) -> npt.NDArray[np.int64]:
        """Statistics of token-id sequences (see :mod:`parbleu.ids`; tokenizer not used).

        Parameters
        ----------
        hyp_ids
            A batch of id sequences: a 2-D array/tensor or a sequence of 1-D sequences.
        ref_ids
            A list of reference streams, each a batch of the same size.
        **options
            ``pad_id``, ``workers``, ``lengths``, ``ref_lengths`` (keywords; see
            :class:`parbleu.ids.IdOptions`), as :func:`parbleu.ids.extract_stats_ids` takes.

        Returns
        -------
        numpy.ndarray
            int64 rows, as :meth:`extract_stats` with ``tokenize="none"`` on the ids as text.
        """
        # parbleu.ids parses the batches and counts in the core; it knows nothing of BLEU.
        from ..ids import extract_stats_ids, ref_stream_count

        rows = extract_stats_ids(hyp_ids, ref_ids, max_ngram_order=self.max_ngram_order, **options)
        self.num_refs = ref_stream_count(ref_ids)
        return rows

    def corpus_score_ids(
        self, hyp_ids: Any, ref_ids: Sequence[Any], **options: Unpack[IdOptions]
    ) -> BLEUScore:
        """Corpus BLEU of token-id sequences; the arguments are :meth:`extract_stats_ids`'s.

        Returns
        -------
        BLEUScore
            Equal to :meth:`corpus_score` with ``tokenize="none"`` on the ids as text.
        """
        rows = self.extract_stats_ids(hyp_ids, ref_ids, **options)
        return self.score_row(rows.sum(axis=0).tolist())

    def sentence_scores_ids(
        self, hyp_ids: Any, ref_ids: Sequence[Any], **options: Unpack[IdOptions]
    ) -> npt.NDArray[np.float64]:
        """Sentence BLEU of every id sequence; the arguments are :meth:`extract_stats_ids`'s.

        Returns
        -------
        numpy.ndarray
            float64, one score per segment.
        """
        rows = self.extract_stats_ids(hyp_ids, ref_ids, **options)
        return self.score_rows(rows, options.get("workers"))


#: Integers below this are exact in a float, and so are their sums with a smoothing value
#: below it: there the core's float arithmetic is SacreBLEU's, operation for operation.
_EXACT_BELOW = 2**52


def _exact_in_core(
    correct: list[Any],
    total: list[Any],
    sys_len: Any,
    ref_len: Any,
    smooth_value: Any,
    max_ngram_order: Any,
) -> bool:
    """Whether :meth:`BLEU.compute_bleu` of these values can go through the core exactly."""
    if type(max_ngram_order) is not int or not 0 <= max_ngram_order <= 100:
        return False
    if len(correct) != max_ngram_order or len(total) != max_ngram_order:
        return False
    if smooth_value is not None and (
        type(smooth_value) not in (int, float) or not 0 <= smooth_value < _EXACT_BELOW
    ):
        return False
    values = [*correct, *total, sys_len, ref_len]
    # C-level loops (this runs once per sentence score): exact ints only, within range.
    return set(map(type, values)) == {int} and min(values) >= 0 and max(values) < _EXACT_BELOW


def _compute_bleu_python(
    correct: list[Any],
    total: list[Any],
    sys_len: Any,
    ref_len: Any,
    smooth_method: str,
    smooth_value: Any,
    effective_order: Any,
    max_ngram_order: Any,
) -> BLEUScore:
    """SacreBLEU's ``compute_bleu`` in Python, for the inputs the core does not take exactly.

    Floats, integers of 2**52 or more (Python divides them exactly; a float cannot hold them),
    numpy scalars, lists of another length than ``max_ngram_order`` and negative values keep
    SacreBLEU's Python semantics, errors included. ``correct`` and ``total`` are the caller's
    copies (add-k modifies them, as SacreBLEU does).
    """
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * max_ngram_order
    if not any(correct):
        return BLEUScore(0.0, correct, total, precisions, bp, sys_len, ref_len)
    smooth_mteval = 1.0
    eff_order = max_ngram_order
    for n in range(1, len(precisions) + 1):
        if smooth_method == "add-k" and n > 1:
            correct[n - 1] += smooth_value
            total[n - 1] += smooth_value
        if total[n - 1] == 0:
            break
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * smooth_value / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    for n, p in enumerate(precisions[:eff_order], 1):
        if p < 0:
            # SacreBLEU's math.log raises here ("math domain error"): a ValueError as well.
            raise StatisticsError(
                f"compute_bleu: the precision of order {n} is negative ({p}); counts, totals "
                "and smooth_value must not be negative"
            )
    # SacreBLEU's sum([my_log(p) ...]), with the Rust core's float sum (the interpreter's).
    score = bp * math.exp(_core.bleu_log_sum(precisions[:eff_order]) / eff_order)
    return BLEUScore(score, correct, total, precisions, bp, sys_len, ref_len)
