"""What each flavor is and does differently.

The data behind ``docs/flavors.md``, the ``--flavor`` command line and
:func:`parbleu.flavors.explain`.

Every entry has a ``score`` function (raw hypothesis lines, reference streams -> the flavor's
corpus score as the original reports it, with its default options, whitespace tokens for the
token-list APIs), which the documentation generator runs on small probe inputs, so the table
cannot claim what the implementation does not do.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Callable

from ..errors import InvalidOptionError

__all__ = ["FLAVORS", "FlavorInfo", "flavor_names", "get_flavor"]

Lines = Sequence[str]
Streams = Sequence[Sequence[str]]


@dataclass(frozen=True)
class FlavorInfo:
    """One reproduced implementation."""

    #: ``--flavor`` name.
    name: str
    #: Python module (``parbleu.flavors.<module>``) and the entry point used by ``score``.
    module: str
    api: str
    #: The original, with the version whose behaviour is reproduced.
    original: str
    tokenization: str
    case: str
    ref_length: str
    smoothing: str
    zeros: str
    scale: str
    #: Score of raw lines with the flavor's defaults, as the original reports it (0-1 or 0-100).
    score: Callable[[Lines, Streams], float]
    #: Multiply ``score`` by this to get the 0-100 scale.
    to_percent: float = 100.0


def _segments(hyps: Lines, refs: Streams) -> list[list[str]]:
    return [[s[i] for s in refs] for i in range(len(hyps))]


def _nltk(hyps: Lines, refs: Streams) -> float:
    from . import nltk

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = nltk.corpus_bleu(
            [[x.split() for x in rs] for rs in _segments(hyps, refs)], [h.split() for h in hyps]
        )
    return float(r)  # type: ignore[arg-type]


def _multi_bleu(hyps: Lines, refs: Streams) -> float:
    from . import moses

    return moses.multi_bleu(hyps, refs).score


def _multi_bleu_detok(hyps: Lines, refs: Streams) -> float:
    from . import moses

    return moses.multi_bleu_detok(hyps, refs).score


def _mteval(version: str) -> Callable[[Lines, Streams], float]:
    def run(hyps: Lines, refs: Streams) -> float:
        from . import mteval

        # Orders 1-4, the system score only, the references' tokens kept for the next system.
        return mteval.system_bleu(hyps, refs, version)

    return run


def _coco(hyps: Lines, refs: Streams) -> float:
    import contextlib
    import io

    from . import coco

    gts = {str(i): rs for i, rs in enumerate(_segments(hyps, refs))}
    res = {str(i): [h] for i, h in enumerate(hyps)}
    with contextlib.redirect_stdout(io.StringIO()):
        scores, _ = coco.Bleu(4).compute_score(gts, res)
    return float(scores[3])


def _tfnmt(hyps: Lines, refs: Streams) -> float:
    from . import tfnmt

    return tfnmt.compute_bleu(
        [[x.split() for x in rs] for rs in _segments(hyps, refs)], [h.split() for h in hyps]
    )[0]


def _hf(hyps: Lines, refs: Streams) -> float:
    from . import tfnmt

    return float(tfnmt.hf_bleu(list(hyps), _segments(hyps, refs))["bleu"])


def _t2t(hyps: Lines, refs: Streams) -> float:
    from . import t2t

    return float(t2t.bleu_lines(list(refs[0]), list(hyps), case_sensitive=False))


def _fairseq(hyps: Lines, refs: Streams) -> float:
    from . import fairseq

    return fairseq.score_lines(list(hyps), list(refs[0])).score()


def _torchmetrics(hyps: Lines, refs: Streams) -> float:
    from . import torchmetrics

    return float(torchmetrics.bleu_score(list(hyps), _segments(hyps, refs)))


def _torchmetrics_sacre(hyps: Lines, refs: Streams) -> float:
    from . import torchmetrics

    return float(torchmetrics.sacre_bleu_score(list(hyps), _segments(hyps, refs)))


FLAVORS: tuple[FlavorInfo, ...] = (
    FlavorInfo(
        "nltk",
        "nltk",
        "corpus_bleu(list_of_references, hypotheses, weights, smoothing_function, auto_reweigh)",
        "NLTK 3.10.4 nltk.translate.bleu_score",
        "none: the caller's token lists (probe: str.split())",
        "as given",
        "closest, ties to the shorter",
        "none by default (zero precision -> sys.float_info.min, UserWarning); method0-7; "
        "per-segment denominators floored at 1",
        "int 0 when no unigram matches; empty corpus: ZeroDivisionError",
        "0-1 float (list for several weight tuples)",
        _nltk,
    ),
    FlavorInfo(
        "multi-bleu",
        "moses",
        "multi_bleu(hypotheses, references, lowercase)",
        "Moses multi-bleu.perl (mosesdecoder 34452895)",
        "none: bytes split on ASCII whitespace",
        "-lc lowers A-Z only",
        "closest, ties to the shorter; no reference line -> 9999",
        "none (log 0 = -9999999999)",
        "no reference words: prints 0 and exits 1; no hypothesis words: dies (exit 255)",
        "0-100, printed %.2f",
        _multi_bleu,
        1.0,
    ),
    FlavorInfo(
        "multi-bleu-detok",
        "moses",
        "multi_bleu_detok(hypotheses, references, lowercase)",
        "Moses multi-bleu-detok.perl (mosesdecoder 34452895)",
        "mteval-v13a (= SacreBLEU 13a), Perl whitespace; chop drops every line's last char",
        "-lc: Perl lc (no final sigma)",
        "closest, ties to the shorter; no reference line -> 9999",
        "none (log 0 = -9999999999)",
        "as multi-bleu.perl",
        "0-100, printed %.2f",
        _multi_bleu_detok,
        1.0,
    ),
    FlavorInfo(
        "mteval-v13a",
        "mteval",
        "score_lines(hypotheses, references, version='v13a')",
        "NIST mteval-v13a.pl (Moses copy, 34452895)",
        "13a after SGML reading (a literal &amp; stays '& amp ;'); --international-tokenization",
        "lowered by default, ASCII only (-c keeps case)",
        "closest, ties to the shorter (--brevity-penalty shortest)",
        "exp (1/2^k), an order without hypothesis n-grams counts as precision 1",
        "dies on an empty hypothesis or reference side; NIST dies on empty references",
        "0-1, printed %.4f; NIST too",
        _mteval("v13a"),
    ),
    FlavorInfo(
        "mteval-v14",
        "mteval",
        "score_lines(hypotheses, references, version='v14')",
        "NIST mteval-v14.pl (Moses copy, 34452895)",
        "as v13a",
        "as v13a",
        "as v13a",
        "as v13a",
        "empty hypotheses score 0 (no length-ratio line); NIST dies on empty references",
        "0-1, printed %.4f; NIST too",
        _mteval("v14"),
    ),
    FlavorInfo(
        "coco",
        "coco",
        "Bleu(4).compute_score(gts, res)",
        "pycocoevalcap 1.2 (= tylin/coco-caption)",
        "str.split() of the captions (COCO runs the Java PTB tokenizer first)",
        "as given (PTB lowers)",
        "closest, ties to the shorter (BleuScorer: shortest, average)",
        "+1e-15 to matches, +1e-9 to guesses; BP even at equal lengths",
        "never exactly 0 or 1",
        "0-1, cumulative B1..B4 and per image",
        _coco,
    ),
    FlavorInfo(
        "tfnmt",
        "tfnmt",
        "compute_bleu(reference_corpus, translation_corpus, max_order, smooth)",
        "tensorflow/nmt nmt/scripts/bleu.py (0be8642)",
        "none: the caller's token lists (probe: str.split())",
        "as given",
        "shortest reference",
        "none; smooth=True adds 1 to every order, unigrams included",
        "empty references or translations: ZeroDivisionError",
        "0-1",
        _tfnmt,
    ),
    FlavorInfo(
        "hf-bleu",
        "tfnmt",
        "hf_bleu(predictions, references) / load('bleu').compute(...)",
        "HuggingFace evaluate 'bleu' (nmt's compute_bleu on 13a tokens)",
        "13a, split on whitespace",
        "as given",
        "shortest reference",
        "as tfnmt",
        "empty references or translations: bp = ratio = 0",
        "0-1 (dict)",
        _hf,
    ),
    FlavorInfo(
        "t2t",
        "t2t",
        "bleu_wrapper(ref_filename, hyp_filename, case_sensitive)",
        "tensor2tensor bleu_hook.py (bafdc1b)",
        "bleu_tokenize: mteval-v14 international rules with Python's unicodedata",
        "lowered (Python lower()) unless case_sensitive",
        "the single reference",
        "exp (1/2^k), an order without hypothesis n-grams counts as precision 1",
        "empty references: BP 1",
        "0-1 numpy.float32",
        _t2t,
    ),
    FlavorInfo(
        "fairseq",
        "fairseq",
        "score_lines(system, reference, ignore_case).score(order)",
        "fairseq 0.12.2 fairseq-score (scoring/bleu.py + libbleu)",
        "str.split() into dictionary ids; n-grams matched by a hash with collisions",
        "--ignore-case: Python lower()",
        "the single reference",
        "none (log 0 = -inf)",
        "an empty line keeps its </s> and counts one word",
        "0-100, printed %2.2f",
        _fairseq,
        1.0,
    ),
    FlavorInfo(
        "torchmetrics",
        "torchmetrics",
        "bleu_score(preds, target, n_gram, smooth, weights)",
        "torchmetrics 1.9.0 functional bleu_score / BLEUScore",
        "str.split()",
        "as given",
        "closest, ties to the FIRST reference",
        "none; smooth adds 1 for orders >= 2; any zero order -> 0",
        "any order without a match gives 0",
        "0-1 float32",
        _torchmetrics,
    ),
    FlavorInfo(
        "torchmetrics-sacre",
        "torchmetrics",
        "sacre_bleu_score(preds, target, n_gram, smooth, tokenize, lowercase, weights)",
        "torchmetrics 1.9.0 sacre_bleu_score / SacreBLEUScore",
        "SacreBLEU's tokenizers (13a default), no rstrip",
        "lowercase applied after tokenizing",
        "closest, ties to the FIRST reference",
        "as torchmetrics",
        "as torchmetrics",
        "0-1 float32",
        _torchmetrics_sacre,
    ),
)

_BY_NAME = {f.name: f for f in FLAVORS}


def flavor_names() -> tuple[str, ...]:
    """Return the ``--flavor`` names."""
    return tuple(_BY_NAME)


def get_flavor(name: str) -> FlavorInfo:
    """Return the flavor called ``name``.

    Raises
    ------
    InvalidOptionError
        For an unknown name.
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise InvalidOptionError(
            f"flavor {name!r}: expected one of {', '.join(flavor_names())}"
        ) from None
