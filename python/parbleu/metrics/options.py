"""The option schemas of the built-in metrics (SacreBLEU 2.6's flags, defaults, destinations).

Each tuple is one metric's :class:`~.schema.MetricOption` list; the registry's entry names it,
and :func:`.schema.add_option_group` generates the command-line group from it (so
``docs/cli.md``'s rows, which ``tools/gen_cli_docs.py`` reads from the parser). Destinations
keep SacreBLEU's metric prefixes (``bleu_``, ``chrf_``, ``ter_``): the command line passes every
``<metric>_*`` value to that metric's constructor with the prefix stripped, so a new option is
one :class:`~.schema.MetricOption` here and nothing else. Nothing heavy is imported.
"""

from __future__ import annotations

from typing import Any

from .._options import MAX_ORDER, SMOOTH_DEFAULTS
from .schema import MetricOption

__all__ = [
    "BLEU_OPTIONS",
    "CHRF_OPTIONS",
    "ROUGE_OPTIONS",
    "SMOOTH_METHODS",
    "TER_OPTIONS",
    "option_help",
]

#: ``-s`` choices: BLEU's smoothing methods, in SacreBLEU's order.
SMOOTH_METHODS = tuple(SMOOTH_DEFAULTS)


def _tokenizer_names() -> tuple[str, ...]:
    # Read when the parser is built: a tokenizer registered later counts.
    from ..tokenizers import tokenizer_names

    return tuple(tokenizer_names())


BLEU_OPTIONS = (
    MetricOption(
        name="smooth_method",
        type="str",
        flags=("--smooth-method", "-s"),
        choices=SMOOTH_METHODS,
        default="exp",
        dest="bleu_smooth_method",
        signature=("smooth", "s"),
        help="Smoothing method: exponential decay, floor (increment zero counts), add-k "
        "(increment num/denom by k for n>1), or none. (Default: %(default)s)",
    ),
    MetricOption(
        name="smooth_value",
        type="float",
        flags=("--smooth-value", "-sv"),
        default=None,
        minimum=0.0,
        dest="bleu_smooth_value",
        metavar="VALUE",
        help="The smoothing value. Only valid for floor and add-k. "
        "(Defaults: floor: 0.1, add-k: 1)",
    ),
    MetricOption(
        name="tokenize",
        type="str",
        flags=("--tokenize", "-tok"),
        choices=_tokenizer_names,
        default=None,
        dest="bleu_tokenize",
        signature=("tok", "tok"),
        help="",  # option_help: the tokenizer registry's list
    ),
    MetricOption(
        name="lowercase",
        type="bool",
        flags=("--lowercase", "-lc"),
        default=False,
        dest="bleu_lowercase",
        signature=("case", "c"),
        help="If True, enables case-insensitivity. (Default: %(default)s)",
    ),
    MetricOption(
        name="effective_order",
        type="bool",
        default=False,
        signature=("eff", "e"),
    ),
    MetricOption(
        name="force",
        type="bool",
        flags=("--force",),
        default=False,
        dest="bleu_force",
        help="Insist that your tokenized input is actually detokenized.",
    ),
    MetricOption(
        name="max_ngram_order",
        type="int",
        flags=("--max-ngram-order",),
        default=4,
        minimum=1,
        maximum=MAX_ORDER,
        cli_bounds=True,
        dest="bleu_max_ngram_order",
        signature=("ngram", "n"),
        metavar="N",
        help="Highest n-gram order (parbleu extension; SacreBLEU's API has it, not its "
        "command line). (Default: %(default)s)",
    ),
)

CHRF_OPTIONS = (
    MetricOption(
        name="char_order",
        type="int",
        flags=("--chrf-char-order", "-cc"),
        default=6,
        minimum=1,
        maximum=MAX_ORDER,
        metavar="N",
        signature=("nc", "nc"),
        help="Character n-gram order. (Default: %(default)s)",
    ),
    MetricOption(
        name="word_order",
        type="int",
        flags=("--chrf-word-order", "-cw"),
        default=0,
        minimum=0,
        maximum=MAX_ORDER,
        metavar="N",
        signature=("nw", "nw"),
        help="Word n-gram order (Default: %(default)s). If equals to 2, the metric is referred "
        "to as chrF++.",
    ),
    MetricOption(
        name="beta",
        type="int",
        flags=("--chrf-beta",),
        default=2,
        metavar="BETA",  # any finite number: only its square counts
        help="Determine the importance of recall w.r.t precision. (Default: %(default)s)",
    ),
    MetricOption(
        name="whitespace",
        type="bool",
        flags=("--chrf-whitespace",),
        default=False,
        signature=("space", "s"),
        help="Include whitespaces when extracting character n-grams. (Default: %(default)s)",
    ),
    MetricOption(
        name="lowercase",
        type="bool",
        flags=("--chrf-lowercase",),
        default=False,
        signature=("case", "c"),
        help="Enable case-insensitivity. (Default: %(default)s)",
    ),
    MetricOption(
        name="eps_smoothing",
        type="bool",
        flags=("--chrf-eps-smoothing",),
        default=False,
        signature=("eff", "e"),
        help="Enables epsilon smoothing similar to chrF++.py, NLTK and Moses; instead of "
        "effective order smoothing. (Default: %(default)s)",
    ),
)

TER_OPTIONS = tuple(
    MetricOption(
        name=name, type="bool", flags=(flag,), signature=sig, help=text + " (Default: %(default)s)"
    )
    for name, flag, sig, text in (
        ("case_sensitive", "--ter-case-sensitive", ("case", "c"), "Enables case sensitivity."),
        (
            "asian_support",
            "--ter-asian-support",
            ("asian", "as"),
            "Enables special treatment of Asian characters.",
        ),
        ("no_punct", "--ter-no-punct", ("punct", "pn"), "Removes punctuation."),
        (
            "normalized",
            "--ter-normalized",
            ("norm", "nr"),
            "Applies basic normalization and tokenization.",
        ),
    )
)

ROUGE_OPTIONS = (
    MetricOption(
        name="rouge_types",
        type="list",
        flags=("--rouge-types",),
        default=("rouge1", "rouge2", "rougeL", "rougeLsum"),
        dest="rouge_rouge_types",
        metavar="TYPE",
        signature=("types", "r"),
        # Checked when the metric is made (rouge1 .. rouge9, rougeL, rougeLsum).
        help="ROUGE types: rouge1 .. rouge9 (n-grams), rougeL (LCS), rougeLsum (summary-level "
        "LCS over sentences: see --rouge-newline). The first is the printed score. "
        "(Default: %(default)s)",
    ),
    MetricOption(
        name="use_stemmer",
        type="bool",
        flags=("--rouge-stemmer",),
        default=False,
        dest="rouge_use_stemmer",
        signature=("stem", "st"),
        help="Porter-stem tokens longer than 3 characters (NLTK's, as rouge-score).",
    ),
    MetricOption(
        name="tokenize",
        type="str",
        flags=("--rouge-tokenize",),
        choices=("default", "unicode", "none"),
        default="default",
        dest="rouge_tokenize",
        signature=("tok", "t"),
        help="default: rouge-score's tokenizer (a-z and 0-9 only: other letters are dropped); "
        "unicode: letters and digits of every script, CJK characters one by one; none: "
        "pre-tokenized text split on whitespace. (Default: %(default)s)",
    ),
    MetricOption(
        name="split_summaries",
        type="bool",
        flags=("--rouge-split-summaries",),
        default=False,
        dest="rouge_split_summaries",
        signature=("split", "sp"),
        help="rougeLsum sentences from nltk.sent_tokenize (needs NLTK's punkt data).",
    ),
    MetricOption(
        name="newline",
        type="str",
        flags=("--rouge-newline",),
        default=None,
        dest="rouge_newline",
        metavar="TEXT",
        signature=("nl", "nl"),
        help="Text that marks a sentence break in a one-line summary (e.g. '<n>' or a literal "
        "'\\n'): replaced by a newline before scoring, so that rougeLsum sees the sentences "
        "of each line. (Default: none; each line is one sentence)",
    ),
    MetricOption(
        name="bootstrap",
        type="str",
        flags=("--rouge-bootstrap",),
        choices=("parbleu", "rouge-score"),
        default="parbleu",
        dest="rouge_bootstrap",
        signature=("boot", "bt"),
        help="With --confidence: resample with parbleu's RNG (the same for every thread count) "
        "or draw from numpy's RNG as rouge-score's BootstrapAggregator. (Default: "
        "%(default)s)",
    ),
    MetricOption(
        name="confidence_interval",
        type="float",
        default=0.95,
        minimum=0.0,
        maximum=1.0,
        signature=("ci", "ci"),
    ),
    MetricOption(
        name="seed",
        type="int",
        flags=("--rouge-seed",),
        default=None,
        minimum=0,
        maximum=2**32 - 1,
        dest="rouge_seed",
        metavar="SEED",
        help="Seed of the --confidence bootstrap. (Default: 12345 for parbleu's, numpy's "
        "state for rouge-score's)",
    ),
)


def option_help(opt: MetricOption) -> str:
    """Return an option's help (``-tok``'s: the tokenizer registry's list, read when asked)."""
    if opt.dest != "bleu_tokenize":
        return opt.help
    from ..tokenizers import get_tokenizer_entry, tokenizer_names

    return _tokenize_help(tokenizer_names(), get_tokenizer_entry)


def _tokenize_help(names: Any, entry_of: Any) -> str:
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
