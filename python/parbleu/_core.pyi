"""The compiled core of parbleu (PyO3 binding of ``crates/parbleu-core``); private.

Hand-written stub, checked against the built module by ``python -m mypy.stubtest parbleu._core``.

Conventions of the binding: statistics and scores travel as little-endian bytes (int64 rows for
BLEU and chrF, float64 for TER and all scores) that the Python layer reads with
``numpy.frombuffer``; matrices arrive as C-contiguous buffers of the stated item type (a
``numpy`` array of the right dtype); ``workers`` is a thread count, ``-1`` for all cores. Core
errors are raised as the matching class of :mod:`parbleu.errors`.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, final

import numpy as np
import numpy.typing as npt
from typing_extensions import Buffer, Self, TypeAlias

__all__ = [
    "TOKENIZERS",
    "BleuOptions",
    "ChrfOptions",
    "MeanOptions",
    "MeteorParaphrases",
    "MeteorScorer",
    "NltkWordnet",
    "PairTable",
    "Refs",
    "RougeOptions",
    "RougePairScorer",
    "Scorer",
    "TerOptions",
    "__version__",
    "available_workers",
    "bleu_finalize",
    "bleu_ids_extract",
    "bleu_log_sum",
    "bleu_scores",
    "bleu_sentence",
    "caption_cider_sums",
    "caption_rouge_scores",
    "chrf_f_score",
    "chrf_scores",
    "flavor_fairseq_stats",
    "flavor_hf_sentence_bleu",
    "flavor_hf_sentence_bleus",
    "flavor_line_stats",
    "flavor_mteval_stats",
    "flavor_nltk_corpus_gleu",
    "flavor_nltk_meteor",
    "flavor_nltk_porter_stem",
    "flavor_nltk_sentence_bleu",
    "flavor_nltk_sentence_chrf",
    "flavor_nltk_sentence_gleu",
    "flavor_token_stats",
    "flavor_token_stats_lists",
    "flavor_tokens",
    "meta_boot_indices",
    "meta_group_values",
    "meta_kendall_stats",
    "meta_perm_draws",
    "meta_perm_value",
    "meta_tau_opt",
    "ptb_tokenize",
    "report_word_stats",
    "rouge_bootstrap",
    "rouge_discarded",
    "rouge_porter_stem",
    "rouge_score_batch",
    "rouge_tokenize",
    "set_compensated_sum",
    "sig_ar",
    "sig_ar_masks",
    "sig_bootstrap",
    "sig_bootstrap_compat",
    "sig_bootstrap_indices",
    "ter_scores",
    "ter_sum",
    "tercom_tokenize",
    "tokenize",
]

#: Version of the crate the module was built from.
__version__: str

#: Names of the tokenizers the core implements, as SacreBLEU spells them (the one list).
TOKENIZERS: tuple[str, ...]

# Buffers: any object exporting the buffer protocol, C-contiguous, with the stated item type; in
# practice a numpy array. numpy declares ``ndarray.__buffer__`` only for Python >= 3.12, so the
# arrays are listed beside ``Buffer``.
#: int64 items (statistics rows of BLEU and chrF, token ids, offsets, indices).
_I64: TypeAlias = npt.NDArray[np.int64] | Buffer
#: float64 items (TER rows, weights, output matrices).
_F64: TypeAlias = npt.NDArray[np.float64] | Buffer
#: uint8 items (masks).
_U8: TypeAlias = npt.NDArray[np.uint8] | Buffer
#: Statistics rows of a :class:`Scorer`: int64, or float64 when ``scorer.float_rows``.
_Rows: TypeAlias = npt.NDArray[np.int64] | npt.NDArray[np.float64] | Buffer

#: ``(matches, totals, hyp_lens, ref_lens, ref_offsets)``, each little-endian int64 bytes.
_StatsBytes: TypeAlias = tuple[bytes, bytes, bytes, bytes, bytes]

#: A ``(tokenizer, case, split)`` triple of names (``parbleu_core::flavors::Prep``).
_Prep: TypeAlias = tuple[str, str, str]

# --- options -------------------------------------------------------------------------------
# Built once per metric by ``Metric.core_options()`` from values ``parbleu._options`` validated,
# and passed to every call below; the binding converts each to the core's option structs once.

@final
class BleuOptions:
    """BLEU's options: tokenizer, case, order (extraction) and smoothing (finalize).

    Built by ``BLEU.core_options()`` after :mod:`parbleu._options` validated the values; the
    binding's own checks (tokenizer name, order range, smoothing name) only guard itself.
    """

    def __new__(
        cls,
        tokenize: str,
        lowercase: bool,
        max_order: int,
        smooth_method: str,
        smooth_value: float | None,
        effective_order: bool,
    ) -> Self:
        """``tokenize``: a name of :data:`TOKENIZERS` (``"none"`` after a Python tokenizer)."""

    @property
    def width(self) -> int:
        """Width of a statistics row (``2 + 2 * max_order``)."""

@final
class ChrfOptions:
    """chrF / chrF++ options: orders, beta factors, smoothing, case and whitespace.

    Built by ``CHRF.core_options()`` after :mod:`parbleu._options` validated the values.
    """

    def __new__(
        cls,
        char_order: int,
        word_order: int,
        factor: float,
        one_plus_factor: float,
        eps_smoothing: bool,
        lowercase: bool,
        whitespace: bool,
    ) -> Self:
        """``factor`` and ``one_plus_factor``: Python's ``beta ** 2`` and ``1 + beta ** 2``."""

    @property
    def width(self) -> int:
        """Width of a statistics row."""

@final
class TerOptions:
    """TER's (Tercom tokenizer's) options, built by ``TER.core_options()``."""

    def __new__(
        cls, normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool
    ) -> Self: ...

@final
class MeanOptions:
    """A mean metric's options: rows of score columns ending in a count column of 1.0.

    A summed row scores ``scale * row[column] / row[-1]`` (ROUGE, CIDEr-D, COCO's ROUGE-L).
    """

    def __new__(cls, width: int, column: int, scale: float = 1.0) -> Self: ...

@final
class RougeOptions:
    """One rouge type with one measure (``"precision"``, ``"recall"``, ``"fmeasure"``).

    Its pair table scores ``100 * measure`` of each pair (rouge-score's ``score``); its scorer
    is the mean of that column of ``[precision, recall, fmeasure, 1.0]`` rows, times 100.
    """

    def __new__(cls, rouge_type: str, tokenizer: str, use_stemmer: bool, measure: str) -> Self: ...

#: Any metric's options object, as the generic classes (``Scorer``, ``PairTable``) take it.
_MetricOptions: TypeAlias = BleuOptions | ChrfOptions | TerOptions | RougeOptions | MeanOptions

# --- prepared references ------------------------------------------------------------------

@final
class Refs:
    """References of a corpus, prepared once with a metric's options, reusable across systems.

    One class for BLEU, chrF and TER (``options`` says which; its extraction part is used). A
    method the metric lacks raises ``InvalidOptionError`` naming the metric; ``MeanOptions``
    and ``RougeOptions`` have no prepared references.
    """

    def __new__(
        cls,
        streams: Sequence[Sequence[str | None]],
        options: _MetricOptions,
        workers: int,
    ) -> Self:
        """``streams``: reference streams (one string or None per segment), all one length."""

    def __len__(self) -> int: ...
    def ref_counts(self) -> list[int]:
        """Distinct reference counts per segment (sorted)."""

    def first_segment_without_refs(self) -> int | None:
        """Index of the first segment without any reference, if there is one."""

    def distinct_segments(self) -> int:
        """Return the number of distinct reference segments (identical ones share one)."""

    def extract(self, hyps: Sequence[str], workers: int) -> tuple[bytes, int]:
        """Statistics rows as bytes (int64; TER float64), and BLEU's ``" ."`` line count.

        The count is 0 for chrF and TER.
        """

    def sentence_scores(
        self, hyps: Sequence[str], options: _MetricOptions, workers: int
    ) -> tuple[bytes, int]:
        """Sentence scores as float64 bytes, and BLEU's ``" ."`` line count (chrF: 0).

        BLEU scores with the finalize options of ``options``; chrF with those it was prepared
        with (``options`` must be its ``ChrfOptions``); TER has none.
        """

    def extract_many(self, systems: Sequence[Sequence[str]], workers: int, sums: bool) -> bytes:
        """chrF: rows (or, with ``sums``, column sums) of every system as int64, system-major."""

# --- BLEU ----------------------------------------------------------------------------------

def tokenize(name: str, lines: Sequence[str], lowercase: bool = False) -> list[str]:
    """Tokenize lines as SacreBLEU's BLEU does: optional ``lower()``, ``rstrip()``, tokenizer."""

def bleu_scores(rows: _I64, width: int, options: BleuOptions, workers: int) -> bytes:
    """BLEU of every row of an int64 statistics matrix, as float64 bytes."""

def available_workers() -> int:
    """Return the number of logical cores the thread pools use for ``workers=-1``."""

def set_compensated_sum(on: bool) -> bool:
    """Sum BLEU's logs as CPython >= 3.12's ``sum()`` (``True``) or <= 3.11's.

    Returns the previous setting (set at import from the running interpreter).
    """

def bleu_log_sum(precisions: list[float]) -> float:
    """SacreBLEU's ``sum([my_log(p) for p in precisions])``, summed as the Rust BLEU sums."""

def bleu_finalize(
    correct: Sequence[float],
    total: Sequence[float],
    sys_len: float,
    ref_len: float,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
) -> tuple[float, list[float], float, int]:
    """``compute_bleu`` by the core's finalize: score, precisions, bp, orders visited."""

def bleu_sentence(
    hyp: str, refs: Sequence[str], options: BleuOptions
) -> tuple[list[int], tuple[float, list[float], float] | None]:
    """One segment: its statistics row, and (score, precisions, bp) unless add-k smoothing."""

# --- chrF ----------------------------------------------------------------------------------

def chrf_f_score(stats: Sequence[float], options: ChrfOptions) -> float:
    """``_compute_f_score`` of one statistics row by the core's finalize."""

def chrf_scores(rows: _I64, width: int, options: ChrfOptions, workers: int) -> bytes:
    """Score chrF of every row of an int64 statistics matrix, as float64 bytes."""

# --- TER -----------------------------------------------------------------------------------

def ter_scores(rows: _F64, workers: int) -> bytes:
    """TER of every row of a float64 ``(n, 2)`` statistics matrix, as float64 bytes."""

def ter_sum(rows: _F64) -> tuple[float, float]:
    """Column sums of a float64 ``(n, 2)`` matrix in index order (as SacreBLEU adds rows)."""

def tercom_tokenize(lines: Sequence[str], options: TerOptions) -> list[str]:
    """``TercomTokenizer(...)(line)`` for each line (no ``rstrip``)."""

# --- flavors -------------------------------------------------------------------------------

def flavor_token_stats(
    hyps: Iterable[Iterable[str]],
    refs: Iterable[Iterable[Iterable[str]]],
    max_order: int,
    workers: int,
) -> _StatsBytes:
    """Statistics of token lists: ``refs[i]`` are the references (token lists) of ``hyps[i]``.

    Raises ``TypeError`` when a token is not a ``str`` or a token list is a ``str``.
    """

def flavor_token_stats_lists(
    hyps: Iterable[Iterable[str]],
    refs: Iterable[Iterable[Iterable[str]]],
    max_order: int,
) -> tuple[list[list[int]], list[list[int]], list[int], list[list[int]]]:
    """:func:`flavor_token_stats` for a few segments, as lists (serial).

    Returns ``(matches, totals, hyp_lens, ref_lens)``, one list per segment except ``hyp_lens``.
    """

def flavor_hf_sentence_bleu(
    prediction: str, references: Sequence[str], max_order: int, smooth: bool
) -> dict[str, Any]:
    """HuggingFace ``evaluate`` BLEU (13a tokens) of one prediction, as ``compute``'s dict."""

def flavor_hf_sentence_bleus(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int,
    smooth: bool,
    workers: int,
) -> list[dict[str, Any]]:
    """:func:`flavor_hf_sentence_bleu` of every pair, one dict each."""

def flavor_line_stats(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str]],
    hyp_prep: _Prep,
    ref_prep: _Prep,
    max_order: int,
    workers: int,
) -> _StatsBytes:
    """Statistics of raw lines: ``refs[i]`` are the reference lines of ``hyps[i]``."""

def report_word_stats(
    corpora: Sequence[Sequence[str]],
    tokenizer_name: str,
    lowercase: bool,
    max_order: int,
    workers: int,
) -> tuple[list[str], bytes, bytes, bytes, list[tuple[bytes, bytes, bytes]]]:
    """Clipped n-gram matches of systems against ``corpora[0]``, tokenized as BLEU does."""

def flavor_tokens(lines: Sequence[str], prep_spec: _Prep) -> list[list[str]]:
    """Return the tokens of every line under a ``(tokenizer, case, split)`` prep."""

def flavor_mteval_stats(
    hyps: Iterable[Iterable[str]],
    refs: Iterable[Iterable[Iterable[str]]],
    max_n: int,
) -> tuple[_StatsBytes, bytes, bytes]:
    """Per-segment statistics of token lists as mteval counts them (NIST information included).

    Orders ``1..=max_n``. Returns ``((matches, tst, refs, hyp_lens, ref_offsets), tst_info,
    ref_info)``: five int64 byte strings, then two float64 byte strings.
    """

def flavor_fairseq_stats(
    sys_lines: Sequence[str], ref_lines: Sequence[str]
) -> tuple[int, int, list[int], list[int]]:
    """fairseq-score's statistics of (system, reference) line pairs, zipped to the shorter.

    Returns ``(reflen, predlen, matches, counts)`` with four orders in ``matches`` and ``counts``.
    """

# --- pairwise and token ids ----------------------------------------------------------------

@final
class PairTable:
    """Strings preprocessed once, their n-grams interned once, for H x R score matrices.

    The table of the metric whose options object ``options`` is (the core's list of pairwise
    kinds): BLEU (sentence BLEU per pair with its finalize options), chrF / chrF++, TER (strings
    tokenized once; every pair runs the edit search), ROUGE (one rouge type and measure).
    ``MeanOptions`` has no pair table (``InvalidOptionError``).
    """

    def __new__(cls, strings: Sequence[str], options: _MetricOptions, workers: int) -> Self: ...
    def __len__(self) -> int: ...
    @property
    def symmetric(self) -> bool:
        """Whether the kind declares ``score_symmetric`` (BLEU, chrF)."""

    @property
    def aggregates(self) -> bool:
        """Whether the kind declares ``score_aggregate`` (BLEU, chrF)."""

    def score_rect(
        self, rows: tuple[int, int], cols: tuple[int, int], out: _F64, workers: int
    ) -> None:
        """Scores of strings ``rows = (r0, r1)`` against ``cols = (c0, c1)`` into ``out``.

        ``out``: a writable C-contiguous float64 buffer of ``(r1 - r0) * (c1 - c0)`` items.
        """

    def score_symmetric(self, r0: int, r1: int, out: _F64, workers: int) -> None:
        """Rows ``r0..r1`` of the all-against-all matrix, filling ``(i, j)`` and ``(j, i)``.

        ``out``: the full ``n x n`` float64 matrix; kinds that declare it (``symmetric``).
        """

    def score_aggregate(
        self,
        rows: tuple[int, int],
        cols: tuple[int, int],
        weights: _F64,
        out: _F64,
        workers: int,
    ) -> None:
        """Strings ``rows = (r0, r1)`` against the weighted mean of ``cols = (c0, c1)``.

        Kinds that declare it (``aggregates``).
        """

def flavor_nltk_sentence_bleu(
    references: Any,
    hypothesis: Any,
    weights: Sequence[float],
    method: int,
    epsilon: float,
    auto_reweigh: bool,
) -> float | int | tuple[float, list[int]] | None:
    """NLTK's ``sentence_bleu`` of ``str`` token lists, smoothing methods 0-3, in one call.

    Returns the ``int`` 0, a ``float``, ``(float, orders)`` when method0 must warn about
    ``orders``, or ``None`` for inputs this path does not take (containers other than lists
    and tuples, non-``str`` tokens, no reference, a non-finite intermediate).
    """

def flavor_nltk_sentence_gleu(
    references: Any, hypothesis: Any, min_len: int, max_len: int
) -> float | None:
    """NLTK's ``sentence_gleu`` of ``str`` token lists (``1 <= min_len <= max_len``).

    Returns ``None`` for inputs this path does not take.
    """

def flavor_nltk_corpus_gleu(
    list_of_references: Any, hypotheses: Any, min_len: int, max_len: int
) -> float | None:
    """NLTK's ``corpus_gleu`` of ``str`` token lists (``1 <= min_len <= max_len``).

    Returns ``None`` for inputs this path does not take (containers other than lists and
    tuples, non-``str`` tokens, lone surrogates).
    """

def flavor_nltk_sentence_chrf(
    reference: str,
    hypothesis: str,
    min_len: int,
    max_len: int,
    factor: float,
    ignore_whitespace: bool,
) -> float | None:
    """NLTK's ``sentence_chrf`` of two ``str`` given ``factor = beta**2``.

    Returns ``None`` when a string holds a lone surrogate.
    """

@final
class NltkWordnet:
    """WordNet as NLTK's ``wordnet.synsets()`` sees it, read from its dict files."""

    @staticmethod
    def from_files(files: dict[str, str]) -> NltkWordnet:
        """Read ``{file name: text}`` (``index.noun``, ``data.noun``, ``noun.exc``, ...)."""
    def synonyms(self, word: str) -> list[str]:
        """Lemma names (without ``_``) of ``wordnet.synsets(word)``, sorted, no repeats."""
    def sizes(self) -> tuple[int, int]:
        """``(index entries, synsets)``."""

def flavor_nltk_porter_stem(words: list[str]) -> list[str]:
    """NLTK's ``PorterStemmer().stem(w)`` of each word (any Unicode)."""

def flavor_nltk_meteor(
    wordnet: NltkWordnet,
    hypotheses: list[list[str]],
    references: list[list[list[str]]],
    alpha: float,
    beta: float,
    gamma: float,
    workers: int,
    lower: bool = True,
    hyp_stems: list[list[str]] | None = None,
    ref_stems: list[list[list[str]]] | None = None,
) -> list[float]:
    """NLTK's ``meteor_score`` of every segment (GIL released).

    ``lower``: NLTK's ``preprocess=str.lower`` (else tokens are preprocessed already);
    ``hyp_stems``/``ref_stems``: a caller's stemmer's output (else NLTK's Porter stemmer).
    """

def bleu_ids_extract(
    hyp_ids: _I64,
    hyp_offsets: _I64,
    refs: Sequence[tuple[_I64, _I64, _U8 | None]],
    pad_id: int | None,
    max_order: int,
    workers: int,
) -> bytes:
    """BLEU rows of id sequences (int64 flat ids + offsets), as int64 bytes.

    ``refs``: one ``(ids, offsets, present)`` triple per reference stream; ``present`` is a
    uint8 mask, or None when every segment has a reference in that stream.
    """

# --- significance --------------------------------------------------------------------------

@final
class Scorer:
    """A metric's finalize step, from any metric's options object (its finalize part)."""

    def __new__(cls, options: _MetricOptions) -> Self: ...
    @staticmethod
    def mean(width: int, column: int, scale: float = 1.0) -> Scorer:
        """``Scorer(MeanOptions(width, column, scale))``.

        The mean of score column ``column`` of float64 rows ending in a count column of 1.0: a
        summed row scores ``scale * row[column] / row[-1]``.
        """

    @property
    def width(self) -> int:
        """Width of a statistics row."""

    @property
    def float_rows(self) -> bool:
        """Whether rows are float64 (TER, mean metrics) rather than int64."""

def sig_bootstrap(
    scorer: Scorer,
    systems: Sequence[_Rows],
    n_seg: int,
    n: int,
    seed: int,
    workers: int,
) -> bytes:
    """Exact paired bootstrap: ``n`` resamples from the seed, every system scored on each.

    Returns float64 bytes, ``n x len(systems)``, resample-major.
    """

def sig_bootstrap_indices(
    scorer: Scorer,
    systems: Sequence[_Rows],
    n_seg: int,
    idxs: _I64,
    workers: int,
) -> bytes:
    """Exact paired bootstrap on given indices (``idxs``: int64, ``n x n_seg``)."""

def sig_bootstrap_compat(
    scorer: Scorer,
    stats: _Rows,
    n_seg: int,
    idxs: _I64,
    workers: int,
) -> tuple[bytes, bytes]:
    """SacreBLEU's float32 bootstrap resample scores on numpy's indices.

    Returns float64 values and, per value, a uint8 byte: 1 if SacreBLEU holds it as a numpy
    float32, 0 if as a Python float.
    """

def sig_ar(
    scorer: Scorer,
    a: _Rows,
    b: _Rows,
    n_seg: int,
    n: int,
    seed: int,
    workers: int,
) -> tuple[bytes, bytes]:
    """Exact approximate randomization: ``n`` trials with masks from the seed.

    Returns the scores of both pseudo-systems per trial (two float64 byte strings).
    """

def sig_ar_masks(
    scorer: Scorer,
    a: _Rows,
    b: _Rows,
    n_seg: int,
    masks: _U8,
    compat: bool,
    workers: int,
) -> tuple[bytes, bytes]:
    """Approximate randomization on given packed masks (uint8, ``n x ceil(n_seg / 8)``).

    ``compat``: score as SacreBLEU does, else with the exact finalize.
    """

# ROUGE (rouge-score 0.1.2, exact): parbleu.metrics.rouge_engine wraps these.

def rouge_score_batch(
    predictions: Sequence[str],
    references: Sequence[Sequence[str]],
    rouge_types: Sequence[str],
    tokenizer: str,
    use_stemmer: bool,
    workers: int,
) -> tuple[bytes, bytes, bytes]:
    """Score (prediction, references) pairs.

    Per pair and type: int64 ``(matches, prediction_count, reference_count)``, float64
    ``(precision, recall, fmeasure)`` and the int64 index of the chosen reference, as
    little-endian bytes.
    """

@final
class RougePairScorer:
    """One scorer's options, scoring one (prediction, targets) pair per call."""

    def __new__(
        cls,
        rouge_types: Sequence[str],
        names: Sequence[str],
        tokenizer: str,
        use_stemmer: bool,
        score_class: Callable[[float, float, float], Any],
    ) -> Self: ...
    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, Any]:
        """rouge-score's ``score_multi``: ``{name: score_class(precision, recall, fmeasure)}``."""

def rouge_tokenize(texts: Sequence[str], tokenizer: str, use_stemmer: bool) -> list[list[str]]:
    """Tokens of each text (``tokenizer``: ``default``, ``unicode`` or ``none``)."""

def rouge_porter_stem(words: Sequence[str]) -> list[str]:
    """NLTK 3.10.4 ``PorterStemmer().stem`` of each ASCII word (others unchanged)."""

def rouge_discarded(texts: Sequence[str]) -> tuple[int, int]:
    """Letters, marks and numbers rouge-score's default tokenizer keeps and drops."""

def rouge_bootstrap(
    stats: _I64,
    n_samples: int,
    confidence_interval: float,
    seed: int,
    workers: int,
) -> list[list[float]]:
    """Bootstrap bounds of one type with the core's RNG.

    ``stats``: int64 ``(pairs, 3)``; result rows low, mid, high; columns precision, recall,
    fmeasure.
    """

# COCO caption metrics (pycocoevalcap 1.2, exact): parbleu.flavors.coco's Cider and Rouge.

def caption_cider_sums(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str]],
    n: int,
    sigma: float,
    ref_len: float,
    log_df: Sequence[float],
    workers: int,
) -> list[float]:
    """Per image, the CIDEr-D sums over its references of each order 1..n (row-major).

    ``ref_len`` is numpy's ``log(len(hyps))`` and ``log_df[k]`` numpy's ``log(max(1, k))``
    for every document frequency ``k`` in ``0..len(hyps)``.
    """

@final
class MeteorParaphrases:
    """METEOR 1.5's paraphrase table, parsed or loaded from :meth:`compiled`'s bytes."""

    FORMAT: ClassVar[int]
    def __new__(cls, data: bytes) -> Self: ...
    @staticmethod
    def from_compiled(data: bytes, key: str) -> MeteorParaphrases:
        """Return the table :meth:`compiled` saved with ``key``; an error if damaged or stale."""
    def compiled(self, key: str) -> bytes:
        """Return the table as bytes, labelled with ``key`` (naming the source file)."""

@final
class MeteorScorer:
    """METEOR 1.5 (``-l en -norm``) with the data of the user's pycocoevalcap, parsed once."""

    def __new__(
        cls,
        function: bytes,
        synsets: bytes,
        exceptions: bytes,
        prefixes: bytes,
        paraphrase: MeteorParaphrases | None,
    ) -> Self: ...
    def stats(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str]], workers: int
    ) -> list[float]:
        """Per image, the jar's ``SCORE`` statistics (23 floats each, concatenated)."""
    def evaluate(
        self,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str]],
        max_chars: int,
        workers: int,
    ) -> tuple[float, list[float]] | None:
        """Return ``(corpus score, [score per image])``, test lines prepared as ``SCORE``'s.

        ``None``, with nothing scored, when a caption is not an exact ``str`` of UTF-8 text,
        holds a line break or NUL, is over ``max_chars`` code points, or is a reference
        holding ``|||``: the caller explains it.
        """
    @staticmethod
    def corpus_stats(rows: Sequence[Sequence[float]]) -> list[float]:
        """Return the jar's ``EVAL`` sum of segment statistics (23 floats per row)."""
    def alignment(
        self, test: str, reference: str
    ) -> tuple[
        list[str],
        list[str],
        list[tuple[int, int, int, int, int]],
        list[tuple[int, int, int, int, int]],
    ]:
        """Normalised words of both lines, the matches kept and every candidate match."""
    def score(self, row: Sequence[float]) -> float:
        """Return the jar's ``EVAL`` of one statistics row (a segment's, or their sum)."""

def caption_rouge_scores(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str]],
    beta2: float,
    workers: int,
) -> list[float]:
    """Per image, ROUGE-L (pycocoevalcap's ``Rouge.calc_score``) with ``beta2`` = beta squared."""

def ptb_tokenize(captions: Sequence[str], workers: int) -> list[str]:
    """Tokenize each caption as pycocoevalcap's PTB tokenizer (tokens less punctuation)."""

# Meta-evaluation (crates/parbleu-python/src/meta.rs): MTME's correlations on float64 buffers.

def meta_boot_indices(seed: int, first: int, count: int, n_items: int) -> bytes:
    """Bootstrap item indices of resamples ``first..first + count`` (int64 bytes, by resample)."""

def meta_group_values(
    kind: str,
    variant: str,
    epsilon: float,
    clip: bool,
    human: Any,
    metric: Any,
    lens: list[int],
) -> bytes:
    """One correlation per group of ``human`` and ``metric``, as float64 bytes (NaN: none)."""

def meta_kendall_stats(human: Any, metric: Any, lens: list[int], epsilon: float) -> bytes:
    """Kendall pair counts per group (con, dis, ties_human, ties_metric, ties_both), int64."""

def meta_tau_opt(
    human: Any,
    metric: Any,
    lens: list[int],
    variant: str,
    sampled: bytes | None,
    curve: bool,
) -> tuple[bytes, bytes, float, float]:
    """MTME's tau_optimization: thresholds, taus (float64 bytes), best threshold and tau."""

def meta_perm_value(
    kind: str,
    variant: str,
    epsilon: float,
    clip: bool,
    human: Any,
    metric: Any,
    lens: list[int],
) -> float:
    """Return the value PERM-BOTH compares for one metric."""

def meta_perm_draws(
    kind: str,
    variant: str,
    epsilon: float,
    clip: bool,
    human: Any,
    scores1: Any,
    scores2: Any,
    lens: list[int],
    masks: Any | None,
    seed: int,
    first: int,
    count: int,
    workers: int,
) -> bytes:
    """PERM-BOTH draws ``first .. first + count``: (c2, c1) per draw as float64 bytes."""
