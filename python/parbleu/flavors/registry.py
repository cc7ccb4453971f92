"""The flavor registry: every reproduced implementation, described once.

Each :class:`FlavorInfo` holds what the rest of parbleu shows or runs for one flavor: its name,
module and probe ``score``, the facts of ``docs/flavors.md`` and the report's flavors table,
its :class:`ExplainProfile` (the factors :func:`parbleu.flavors.explain` steps through) and its
help; the command line's runner of each built-in flavor is the CLI's (``parbleu.cli.flavor``).
The ``--flavor`` and ``explain`` choices, ``parbleu.flavors``' lazy modules, the report and the
documentation generator read :func:`flavor_names` / :func:`get_flavor` when they run, so an entry
added with :func:`register_flavor` appears everywhere.

The ``score`` functions take raw hypothesis lines and reference streams and return the flavor's
corpus score as the original reports it (default options, whitespace tokens for the token-list
APIs); the documentation generator runs them on small probe inputs, so the table cannot claim
what the implementation does not do. This module imports nothing heavy and no consumer.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Callable, Literal

from ..errors import InvalidOptionError

__all__ = [
    "FLAVORS",
    "ExplainProfile",
    "FlavorInfo",
    "FlavorRunner",
    "flavor_names",
    "get_flavor",
    "register_flavor",
    "unregister_flavor",
]

Lines = Sequence[str]
Streams = Sequence[Sequence[str]]
#: ``runner(name, argv) -> exit status`` of ``parbleu --flavor NAME ARGV...`` (errors raise).
FlavorRunner = Callable[[str, list[str]], int]


@dataclass(frozen=True)
class ExplainProfile:
    """A flavor's BLEU factors in :func:`parbleu.flavors.explain`'s vocabulary.

    The defaults are SacreBLEU's (the starting point of an explanation).
    """

    #: Tokenization label (``_explain._TOK_LABELS``).
    tok: str = "13a"
    #: ``mixed`` (kept), ``python``, ``ascii`` or ``perl`` lower-casing.
    case: str = "mixed"
    #: ``closest``, ``closest-first``, ``shortest`` or ``first``.
    ref: str = "closest"
    #: ``totals`` or ``floor1`` (per-segment denominators floored at 1).
    denom: str = "totals"
    #: Smoothing label (``_explain._SMOOTH_LABELS``).
    smooth: str = "sacre-exp"
    weights: tuple[float, ...] = (0.25,) * 4
    float32: bool = False


#: Keyword-only fields where Python has them (3.10+): an entry names each of its 14 facts.
_KW_ONLY: dict[str, bool] = {"kw_only": True} if sys.version_info >= (3, 10) else {}


@dataclass(frozen=True, **_KW_ONLY)
class FlavorInfo:
    """One reproduced implementation (built with keywords: ``FlavorInfo(name=..., ...)``)."""

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
    #: One line for help texts.
    help: str
    #: The factors ``explain`` changes one at a time.
    profile: ExplainProfile
    #: Score of raw lines with the flavor's defaults, as the original reports it (0-1 or 0-100).
    score: Callable[[Lines, Streams], float]
    #: Multiply ``score`` by this to get the 0-100 scale.
    to_percent: float = 100.0
    #: ``tool``: the original is a command-line tool whose own arguments pass through;
    #: ``library``: ``REF [REF ...] -i HYP`` plus a few options.
    kind: Literal["tool", "library"] = "library"
    #: The original's other metrics that the flavor's module offers too: ``(API, what it
    #: computes and how)`` each (the docs list them beside the BLEU table).
    metrics: tuple[tuple[str, str], ...] = ()
    #: ``parbleu --flavor NAME`` of a flavor registered from outside parbleu: a
    #: :data:`FlavorRunner`. The built-in flavors' runners are the command line's
    #: (``parbleu.cli.flavor.RUNNERS``): this package does not name the CLI.
    runner: FlavorRunner | None = None


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


def _mteval_flavor(
    version: str, *, tokenization: str, case: str, ref_length: str, smoothing: str, zeros: str
) -> FlavorInfo:
    """One mteval script version: the two differ only in these facts (and the version)."""
    return FlavorInfo(
        name=f"mteval-{version}",
        module="mteval",
        api=f"score_lines(hypotheses, references, version='{version}')",
        original=f"NIST mteval-{version}.pl (Moses copy, 34452895)",
        tokenization=tokenization,
        case=case,
        ref_length=ref_length,
        smoothing=smoothing,
        zeros=zeros,
        scale="0-1, printed %.4f; NIST too",
        help=f"mteval-{version}.pl -r REF -s SRC -t TST (SGML/XML)",
        profile=ExplainProfile("13a-sgml", case="ascii", smooth="mteval-exp"),
        score=_mteval(version),
        kind="tool",
    )


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
        name="nltk",
        module="nltk",
        api="corpus_bleu(list_of_references, hypotheses, weights, smoothing_function, "
        "auto_reweigh)",
        original="NLTK 3.10.4 nltk.translate.bleu_score",
        tokenization="none: the caller's token lists (probe: str.split())",
        case="as given",
        ref_length="closest, ties to the shorter",
        smoothing="none by default (zero precision -> sys.float_info.min, UserWarning); method0-7; "
        "per-segment denominators floored at 1",
        zeros="int 0 when no unigram matches; empty corpus: ZeroDivisionError",
        scale="0-1 float (list for several weight tuples)",
        help="NLTK corpus_bleu / sentence_bleu on REF... -i HYP",
        profile=ExplainProfile("split", denom="floor1", smooth="nltk-m0"),
        score=_nltk,
    ),
    FlavorInfo(
        name="multi-bleu",
        module="moses",
        api="multi_bleu(hypotheses, references, lowercase)",
        original="Moses multi-bleu.perl (mosesdecoder 34452895)",
        tokenization="none: bytes split on ASCII whitespace",
        case="-lc lowers A-Z only",
        ref_length="closest, ties to the shorter; no reference line -> 9999",
        smoothing="none (log 0 = -9999999999)",
        zeros="no reference words: prints 0 and exits 1; no hypothesis words: dies (exit 255)",
        scale="0-100, printed %.2f",
        help="multi-bleu.perl [-lc] REF... < HYP",
        profile=ExplainProfile("bytes-split", smooth="none"),
        score=_multi_bleu,
        to_percent=1.0,
        kind="tool",
    ),
    FlavorInfo(
        name="multi-bleu-detok",
        module="moses",
        api="multi_bleu_detok(hypotheses, references, lowercase)",
        original="Moses multi-bleu-detok.perl (mosesdecoder 34452895)",
        tokenization="mteval-v13a (= SacreBLEU 13a), Perl whitespace; chop drops every line's "
        "last char",
        case="-lc: Perl lc (no final sigma)",
        ref_length="closest, ties to the shorter; no reference line -> 9999",
        smoothing="none (log 0 = -9999999999)",
        zeros="as multi-bleu.perl",
        scale="0-100, printed %.2f",
        help="multi-bleu-detok.perl [-lc] REF... < HYP",
        profile=ExplainProfile("13a-perl", smooth="none"),
        score=_multi_bleu_detok,
        to_percent=1.0,
        kind="tool",
    ),
    _mteval_flavor(
        "v13a",
        tokenization=(
            "13a after SGML reading (a literal &amp; stays '& amp ;'); --international-tokenization"
        ),
        case="lowered by default, ASCII only (-c keeps case)",
        ref_length="closest, ties to the shorter (--brevity-penalty shortest)",
        smoothing="exp (1/2^k), an order without hypothesis n-grams counts as precision 1",
        zeros="dies on an empty hypothesis or reference side; NIST dies on empty references",
    ),
    _mteval_flavor(
        "v14",
        tokenization="as v13a",
        case="as v13a",
        ref_length="as v13a",
        smoothing="as v13a",
        zeros="empty hypotheses score 0 (no length-ratio line); NIST dies on empty references",
    ),
    FlavorInfo(
        name="coco",
        module="coco",
        api="Bleu(4).compute_score(gts, res)",
        original="pycocoevalcap 1.2 (= tylin/coco-caption)",
        tokenization="str.split() of the captions (COCO runs the Java PTB tokenizer first)",
        case="as given (PTB lowers)",
        ref_length="closest, ties to the shorter (BleuScorer: shortest, average)",
        smoothing="+1e-15 to matches, +1e-9 to guesses; BP even at equal lengths",
        zeros="never exactly 0 or 1",
        scale="0-1, cumulative B1..B4 and per image",
        help="pycocoevalcap BleuScorer on REF... -i HYP",
        profile=ExplainProfile("split", smooth="coco"),
        score=_coco,
        metrics=(
            (
                "Cider().compute_score(gts, res)",
                "CIDEr-D: document frequencies from the evaluated set's references, sigma 6, "
                "clipping, x10; in the core, the same bits",
            ),
            (
                "Rouge().compute_score(gts, res)",
                "ROUGE-L, beta 1.2, captions split on single spaces; in the core, the same bits",
            ),
            (
                "Meteor().compute_score(gts, res)",
                "METEOR 1.5: pycocoevalcap's own meteor-1.5.jar run with Java as the original "
                "runs it (not re-implemented); no Java: MissingDependencyError",
            ),
            (
                "Spice().compute_score(gts, res)",
                "SPICE: pycocoevalcap's spice-1.0.jar, only where Java and the Stanford CoreNLP "
                "3.6.0 models are installed (the original downloads them at run time, parbleu "
                "never does): unavailable offline",
            ),
            (
                "evaluate(gts, res) / COCOEvalCap(coco, cocoRes)",
                "COCOEvalCap's Bleu_1..4, METEOR, ROUGE_L, CIDEr and per-image scores, after "
                "the PTB tokenizer (Java) unless tokenize=False",
            ),
        ),
    ),
    FlavorInfo(
        name="tfnmt",
        module="tfnmt",
        api="compute_bleu(reference_corpus, translation_corpus, max_order, smooth)",
        original="tensorflow/nmt nmt/scripts/bleu.py (0be8642)",
        tokenization="none: the caller's token lists (probe: str.split())",
        case="as given",
        ref_length="shortest reference",
        smoothing="none; smooth=True adds 1 to every order, unigrams included",
        zeros="empty references or translations: ZeroDivisionError",
        scale="0-1",
        help="tensorflow/nmt compute_bleu on REF... -i HYP",
        profile=ExplainProfile("split", ref="shortest", smooth="none"),
        score=_tfnmt,
    ),
    FlavorInfo(
        name="hf-bleu",
        module="tfnmt",
        api="hf_bleu(predictions, references) / load('bleu').compute(...)",
        original="HuggingFace evaluate 'bleu' (nmt's compute_bleu on 13a tokens)",
        tokenization="13a, split on whitespace",
        case="as given",
        ref_length="shortest reference",
        smoothing="as tfnmt",
        zeros="empty references or translations: bp = ratio = 0",
        scale="0-1 (dict)",
        help="HF evaluate 'bleu' on REF... -i HYP",
        profile=ExplainProfile("13a", ref="shortest", smooth="none"),
        score=_hf,
    ),
    FlavorInfo(
        name="t2t",
        module="t2t",
        api="bleu_wrapper(ref_filename, hyp_filename, case_sensitive)",
        original="tensor2tensor bleu_hook.py (bafdc1b)",
        tokenization="bleu_tokenize: mteval-v14 international rules with Python's unicodedata",
        case="lowered (Python lower()) unless case_sensitive",
        ref_length="the single reference",
        smoothing="exp (1/2^k), an order without hypothesis n-grams counts as precision 1",
        zeros="empty references: BP 1",
        scale="0-1 numpy.float32",
        help="t2t-bleu --translation HYP --reference REF",
        profile=ExplainProfile(
            "t2t", case="python", ref="first", smooth="mteval-exp", float32=True
        ),
        score=_t2t,
        kind="tool",
    ),
    FlavorInfo(
        name="fairseq",
        module="fairseq",
        api="score_lines(system, reference, ignore_case).score(order)",
        original="fairseq 0.12.2 fairseq-score (scoring/bleu.py + libbleu)",
        tokenization="str.split() into dictionary ids; n-grams matched by a hash with collisions",
        case="--ignore-case: Python lower()",
        ref_length="the single reference",
        smoothing="none (log 0 = -inf)",
        zeros="an empty line keeps its </s> and counts one word",
        scale="0-100, printed %2.2f",
        help="fairseq-score -s HYP -r REF",
        profile=ExplainProfile("split", ref="first", smooth="none"),
        score=_fairseq,
        to_percent=1.0,
        kind="tool",
    ),
    FlavorInfo(
        name="torchmetrics",
        module="torchmetrics",
        api="bleu_score(preds, target, n_gram, smooth, weights)",
        original="torchmetrics 1.9.0 functional bleu_score / BLEUScore",
        tokenization="str.split()",
        case="as given",
        ref_length="closest, ties to the FIRST reference",
        smoothing="none; smooth adds 1 for orders >= 2; any zero order -> 0",
        zeros="any order without a match gives 0",
        scale="0-1 float32",
        help="torchmetrics bleu_score on REF... -i HYP",
        profile=ExplainProfile("split", ref="closest-first", smooth="none", float32=True),
        score=_torchmetrics,
    ),
    FlavorInfo(
        name="torchmetrics-sacre",
        module="torchmetrics",
        api="sacre_bleu_score(preds, target, n_gram, smooth, tokenize, lowercase, weights)",
        original="torchmetrics 1.9.0 sacre_bleu_score / SacreBLEUScore",
        tokenization="SacreBLEU's tokenizers (13a default), no rstrip",
        case="lowercase applied after tokenizing",
        ref_length="closest, ties to the FIRST reference",
        smoothing="as torchmetrics",
        zeros="as torchmetrics",
        scale="0-1 float32",
        help="torchmetrics sacre_bleu_score on REF... -i HYP",
        profile=ExplainProfile("13a", ref="closest-first", smooth="none", float32=True),
        score=_torchmetrics_sacre,
    ),
)

_BY_NAME: dict[str, FlavorInfo] = {f.name: f for f in FLAVORS}


def register_flavor(info: FlavorInfo) -> None:
    """Add a flavor (tests and plug-ins); it appears wherever flavors are listed.

    Raises
    ------
    InvalidOptionError
        If the name is taken.
    """
    if info.name in _BY_NAME:
        raise InvalidOptionError(f"flavor {info.name!r} is already registered")
    _BY_NAME[info.name] = info


def unregister_flavor(name: str) -> None:
    """Remove a flavor added by :func:`register_flavor` (tests only)."""
    get_flavor(name)
    del _BY_NAME[name]


def flavor_names() -> tuple[str, ...]:
    """Return the ``--flavor`` names, in registration order."""
    return tuple(_BY_NAME)


def get_flavor(name: str) -> FlavorInfo:
    """Return the flavor called ``name``.

    Raises
    ------
    InvalidOptionError
        For an unknown name, listing the known ones.
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise InvalidOptionError(
            f"unknown flavor {name!r}; expected one of {', '.join(flavor_names())}"
        ) from None
