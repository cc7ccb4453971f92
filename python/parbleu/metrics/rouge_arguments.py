"""ROUGE's command-line options (``-m rouge``): ``rouge_*`` destinations, SacreBLEU style.

The command line passes every ``rouge_*`` value to :class:`parbleu.ROUGE` with the prefix
stripped (``--rouge-types`` -> ``rouge_types``). Nothing heavy is imported here: the rouge
types are checked when the metric is made (one ``-m rouge: ...`` line for a bad one).
"""

from __future__ import annotations

import argparse

__all__ = ["add_rouge_arguments"]


def add_rouge_arguments(p: argparse.ArgumentParser) -> None:
    """Add ROUGE's option group (``rouge_*`` destinations).

    Parameters
    ----------
    p
        The parser to extend.
    """
    rouge = p.add_argument_group("ROUGE related arguments")
    rouge.add_argument(
        "--rouge-types",
        nargs="+",
        default=["rouge1", "rouge2", "rougeL", "rougeLsum"],
        dest="rouge_rouge_types",
        metavar="TYPE",
        help="ROUGE types: rouge1 .. rouge9 (n-grams), rougeL (LCS), rougeLsum (summary-level "
        "LCS over sentences: see --rouge-newline). The first is the printed score. "
        "(Default: %(default)s)",
    )
    rouge.add_argument(
        "--rouge-stemmer",
        action="store_true",
        dest="rouge_use_stemmer",
        help="Porter-stem tokens longer than 3 characters (NLTK's, as rouge-score).",
    )
    rouge.add_argument(
        "--rouge-tokenize",
        choices=("default", "unicode", "none"),
        default="default",
        dest="rouge_tokenize",
        help="default: rouge-score's tokenizer (a-z and 0-9 only: other letters are dropped); "
        "unicode: letters and digits of every script, CJK characters one by one; none: "
        "pre-tokenized text split on whitespace. (Default: %(default)s)",
    )
    rouge.add_argument(
        "--rouge-split-summaries",
        action="store_true",
        dest="rouge_split_summaries",
        help="rougeLsum sentences from nltk.sent_tokenize (needs NLTK's punkt data).",
    )
    rouge.add_argument(
        "--rouge-newline",
        default=None,
        dest="rouge_newline",
        metavar="TEXT",
        help="Text that marks a sentence break in a one-line summary (e.g. '<n>' or a literal "
        "'\\n'): replaced by a newline before scoring, so that rougeLsum sees the sentences "
        "of each line. (Default: none; each line is one sentence)",
    )
    rouge.add_argument(
        "--rouge-bootstrap",
        choices=("parbleu", "rouge-score"),
        default="parbleu",
        dest="rouge_bootstrap",
        help="With --confidence: resample with parbleu's RNG (the same for every thread count) "
        "or draw from numpy's RNG as rouge-score's BootstrapAggregator. (Default: "
        "%(default)s)",
    )
    rouge.add_argument(
        "--rouge-seed",
        type=int,  # ROUGE checks the range: one "-m rouge: seed=..." line
        default=None,
        dest="rouge_seed",
        metavar="SEED",
        help="Seed of the --confidence bootstrap. (Default: 12345 for parbleu's, numpy's "
        "state for rouge-score's)",
    )
