"""Command-line options of the built-in metrics (SacreBLEU 2.6's flags, defaults, destinations).

Each function adds one metric's option group; the metric registry names it
(``MetricEntry.add_arguments``), and every command that takes ``-m`` adds the groups of the
registered metrics. Destinations keep SacreBLEU's metric prefixes (``bleu_``, ``chrf_``,
``ter_``): the command line passes every ``<metric>_*`` value to that metric's constructor with
the prefix stripped, so a new option is one ``add_argument`` here and nothing else.
"""

from __future__ import annotations

import argparse
from typing import Any

from .._argtypes import int_at_least
from .._options import SMOOTH_DEFAULTS

__all__ = [
    "SMOOTH_METHODS",
    "add_bleu_arguments",
    "add_chrf_arguments",
    "add_ter_arguments",
]

#: ``-s`` choices: BLEU's smoothing methods, in SacreBLEU's order.
SMOOTH_METHODS = tuple(SMOOTH_DEFAULTS)


def add_bleu_arguments(p: argparse.ArgumentParser) -> None:
    """Add BLEU's option group (``bleu_*`` destinations) to the parser ``p``."""
    # The tokenizer names are read when the parser is built: a tokenizer registered later counts.
    from ..tokenizers import get_tokenizer_entry, tokenizer_names

    bleu = p.add_argument_group("BLEU related arguments")
    bleu.add_argument(
        "--smooth-method",
        "-s",
        choices=SMOOTH_METHODS,
        default="exp",
        dest="bleu_smooth_method",
        help="Smoothing method: exponential decay, floor (increment zero counts), add-k "
        "(increment num/denom by k for n>1), or none. (Default: %(default)s)",
    )
    bleu.add_argument(
        "--smooth-value",
        "-sv",
        type=float,
        default=None,
        dest="bleu_smooth_value",
        metavar="VALUE",
        help="The smoothing value. Only valid for floor and add-k. "
        "(Defaults: floor: 0.1, add-k: 1)",
    )
    bleu.add_argument(
        "--tokenize",
        "-tok",
        choices=tokenizer_names(),
        default=None,
        dest="bleu_tokenize",
        help=_tokenize_help(tokenizer_names(), get_tokenizer_entry),
    )
    bleu.add_argument(
        "--lowercase",
        "-lc",
        dest="bleu_lowercase",
        action="store_true",
        default=False,
        help="If True, enables case-insensitivity. (Default: %(default)s)",
    )
    bleu.add_argument(
        "--force",
        default=False,
        action="store_true",
        dest="bleu_force",
        help="Insist that your tokenized input is actually detokenized.",
    )
    bleu.add_argument(
        "--max-ngram-order",
        type=int_at_least(1),
        default=4,
        dest="bleu_max_ngram_order",
        metavar="N",
        help="Highest n-gram order (parbleu extension; SacreBLEU's API has it, not its "
        "command line). (Default: %(default)s)",
    )


def add_chrf_arguments(p: argparse.ArgumentParser) -> None:
    """Add chrF's option group (``chrf_*`` destinations) to the parser ``p``."""
    chrf = p.add_argument_group("chrF related arguments")
    chrf.add_argument(
        "--chrf-char-order",
        "-cc",
        type=int,
        default=6,
        metavar="N",
        help="Character n-gram order. (Default: %(default)s)",
    )
    chrf.add_argument(
        "--chrf-word-order",
        "-cw",
        type=int,
        default=0,
        metavar="N",
        help="Word n-gram order (Default: %(default)s). If equals to 2, the metric is referred "
        "to as chrF++.",
    )
    chrf.add_argument(
        "--chrf-beta",
        type=int,
        default=2,
        metavar="BETA",
        help="Determine the importance of recall w.r.t precision. (Default: %(default)s)",
    )
    chrf.add_argument(
        "--chrf-whitespace",
        action="store_true",
        default=False,
        help="Include whitespaces when extracting character n-grams. (Default: %(default)s)",
    )
    chrf.add_argument(
        "--chrf-lowercase",
        action="store_true",
        default=False,
        help="Enable case-insensitivity. (Default: %(default)s)",
    )
    chrf.add_argument(
        "--chrf-eps-smoothing",
        action="store_true",
        default=False,
        help="Enables epsilon smoothing similar to chrF++.py, NLTK and Moses; instead of "
        "effective order smoothing. (Default: %(default)s)",
    )


def add_ter_arguments(p: argparse.ArgumentParser) -> None:
    """Add TER's option group (``ter_*`` destinations) to the parser ``p``."""
    ter = p.add_argument_group("TER related arguments (The defaults replicate TERCOM's behavior)")
    ter.add_argument(
        "--ter-case-sensitive",
        action="store_true",
        help="Enables case sensitivity. (Default: %(default)s)",
    )
    ter.add_argument(
        "--ter-asian-support",
        action="store_true",
        help="Enables special treatment of Asian characters. (Default: %(default)s)",
    )
    ter.add_argument(
        "--ter-no-punct",
        action="store_true",
        help="Removes punctuation. (Default: %(default)s)",
    )
    ter.add_argument(
        "--ter-normalized",
        action="store_true",
        help="Applies basic normalization and tokenization. (Default: %(default)s)",
    )


def _tokenize_help(names: Any, entry_of: Any) -> str:
    """``-tok``'s help, from the tokenizer registry (read when the parser is built)."""
    parts = []
    for name in names:
        entry = entry_of(name)
        extra = f"; pip install 'parbleu[{entry.extra}]'" if entry.extra else ""
        parts.append(f"{name} ({entry.help}{extra})")
    text = (
        "Tokenization method to use for BLEU. If not provided, defaults to `zh` for "
        "Chinese, `ja-mecab` for Japanese, `ko-mecab` for Korean and `13a` (mteval) "
        "otherwise. Tokenizers: " + "; ".join(parts) + ". The SentencePiece models are "
        "downloaded once into $SACREBLEU/models; PARBLEU_SPM_MODEL=FILE uses a local model "
        "instead."
    )
    return text.replace("%", "%%")  # argparse formats help with %
