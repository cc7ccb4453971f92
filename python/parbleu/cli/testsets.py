"""SacreBLEU's test-set options: ``--download``, ``--list``, ``--citation``, ``--echo``, ``-t``.

The order of the checks and the standard output are SacreBLEU 2.6's (``sacrebleu.py``);
errors are parbleu's one-line messages. See ``docs/_datasets().md``.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from typing import Any, Callable

from .._lazylog import get_logger
from ..errors import DatasetError
from . import render
from .arguments import ref_encoding
from .errors import CliError

__all__ = ["check_filters", "early_commands", "filter_streams", "subset_lines", "test_set_refs"]

_log = get_logger("parbleu.cli")


def _names(args: argparse.Namespace) -> list[str]:
    return str(args.test_set).split(",")


def _datasets() -> Any:
    """:mod:`parbleu.datasets`, imported when a test-set option is used (not to score files)."""
    from .. import datasets

    return datasets


def early_commands(args: argparse.Namespace, line: Callable[[str], None]) -> bool:
    """Run ``--download``/``--list``/``--citation``/``--echo``; check ``-t`` and ``-l``.

    Parameters
    ----------
    args
        Parsed arguments.
    line
        Writes one line to standard output.

    Returns
    -------
    bool
        Whether the command is done (one of those options ran).
    """
    if args.download:
        _datasets().download(args.download, args.langpair)
        return True
    if args.list:
        _list(args, line)
        return True
    if args.sentence_level and len(args.metrics) > 1:
        raise CliError("--sentence-level: only one metric can be used in sentence-level mode")
    if args.citation:
        if not args.test_set:
            raise CliError("--citation: needs a test set (-t)")
        for name in _names(args):
            cite = _datasets().describe(name).get("citation")
            if not cite:
                _log.error(f"No citation found for {name}")
            else:
                line(cite)
        return True
    if args.test_set is None:
        if args.echo:
            raise CliError("--echo: needs a test set (-t) and a language pair (-l)")
        return False
    if args.num_refs != 1:
        raise CliError(
            "--num-refs: tab-separated references are for reference files, not test sets (-t)"
        )
    for name in _names(args):
        _datasets().get_test_set(name)
    if args.refs:
        raise CliError(
            "give either a test set (-t) or reference files, not both "
            f"(reference files: {' '.join(args.refs)})"
        )
    if args.langpair is None:
        raise CliError(
            "-t/--test-set needs a language pair (-l); see parbleu --list -t "
            f"{args.test_set} for the available ones"
        )
    for name in _names(args):
        pairs = _datasets().langpairs(name)
        if args.langpair not in pairs:
            raise CliError(
                f"-l/--language-pair: no language pair {args.langpair!r} in test set {name!r}; "
                f"available: {', '.join(pairs)}"
            )
    if args.echo:
        for name in _names(args):
            _echo(name, args, line)
        return True
    return False


def _list(args: argparse.Namespace, line: Callable[[str], None]) -> None:
    if args.test_set:
        ts = _datasets().get_test_set(args.test_set)
        pairs = [args.langpair] if args.langpair else list(ts.langpairs)
        for pair in pairs:
            line(f"{pair}: {', '.join(ts.fieldnames(pair))}")
        return
    if args.langpair:
        line(f"The available test sets for {args.langpair} are:")
        names = _datasets().list_test_sets(args.langpair)
    else:
        line("The available test sets are:")
        names = _datasets().list_test_sets()
    for name in names:
        desc = str(_datasets().describe(name)["description"]).strip()
        line(f"{name:<30}: {desc}")


def _echo(name: str, args: argparse.Namespace, line: Callable[[str], None]) -> None:
    ts = _datasets().get_test_set(name)
    fields = ts.fieldnames(args.langpair)
    paths = ts.files(args.langpair)
    wanted: list[str] = list(args.echo)
    if "all" in wanted and len(wanted) != 1:
        raise CliError("--echo: 'all' cannot be combined with other fields")
    if "all" in wanted:
        wanted = fields
    ref_fields = [f for f in fields if f.startswith("ref")]
    if "ref" in wanted and "ref" not in fields and ref_fields:
        # SacreBLEU: "ref" stays accepted for multi-reference sets, meaning the first one.
        wanted = [f if f != "ref" else min(ref_fields) for f in wanted]
    chosen = []
    for f in wanted:
        if f not in fields:
            raise CliError(
                f"--echo: no field {f!r} in test set {name} for language pair {args.langpair}; "
                f"available: {', '.join(fields)}"
                + (
                    f" ('ref' also, for {min(ref_fields)})"
                    if ref_fields and "ref" not in fields
                    else ""
                )
            )
        chosen.append(paths[fields.index(f)])
    columns = [_datasets().read_lines(p) for p in chosen]
    for path, column in zip(chosen, columns):
        if len(column) != len(columns[0]):
            # A damaged cache: printing the rows side by side would cut the longer one short.
            raise DatasetError(
                f"--echo: {path} has {len(column)} lines but {chosen[0]} has "
                f"{len(columns[0])}; the test-set files are damaged: delete them and run again"
            )
    columns = _datasets().filter_subset(
        columns, name, args.langpair, args.origlang, args.subset, names=chosen
    )
    for row in zip(*columns):
        line("\t".join(x.rstrip() for x in row))


def test_set_refs(args: argparse.Namespace) -> tuple[list[list[str]], list[str]]:
    """Reference streams of the test sets of ``-t`` (concatenated) and their names."""
    if args.bleu_tokenize == "none":
        _log.warning(
            "You are turning off BLEU's internal tokenizer presumably to supply your own "
            "tokenized files."
        )
        _log.warning("Published numbers will not be comparable to other papers.")
    per_set = []
    for name in _names(args):
        ref_files = _datasets().get_test_set(name).reference_files(args.langpair)
        if not ref_files:
            _log.warning(f"No references found for test set {name}/{args.langpair}.")
        per_set.append(ref_files)
    refs: list[list[str]] = [[] for _ in range(len(per_set[0]))]
    for ref_files in per_set:
        for i, path in enumerate(ref_files):
            if i >= len(refs):
                raise CliError(
                    f"-t {args.test_set}: the test sets have different numbers of references"
                )
            refs[i] += _datasets().read_lines(path, ref_encoding(args))
    names = [
        f"reference {i + 1} of test set {args.test_set}/{args.langpair}" for i in range(len(refs))
    ]
    return refs, names


def check_filters(args: argparse.Namespace) -> None:
    """Refuse ``--origlang``/``--subset`` without ``-t``/``-l`` before any file is read.

    Checked once for every scoring path (in memory, streamed, ``--scheduler``), so that none
    of them can score the unfiltered files where another refuses.
    """
    if args.origlang is None and args.subset is None:
        return  # nothing to filter (and no test-set module to import)
    try:
        _datasets().check_filter(args.test_set, args.langpair, args.origlang, args.subset)
    except DatasetError as e:
        raise CliError(str(e)) from None


def filter_streams(args: argparse.Namespace, streams: list[list[str]]) -> list[list[str]]:
    """Apply ``--origlang``/``--subset`` to parallel streams."""
    try:
        out: list[list[str]] = _datasets().filter_subset(
            streams, args.test_set, args.langpair, args.origlang, args.subset
        )
    except DatasetError as e:
        raise CliError(str(e)) from None
    return out


def subset_lines(
    metrics: dict[str, Any],
    system: list[str],
    refs: list[list[str]],
    args: argparse.Namespace,
    colors: bool,
) -> list[str]:
    """``--detail``: scores per original language and domain (SacreBLEU's subset report)."""
    w = args.width
    origlangs = (
        [args.origlang]
        if args.origlang
        else _datasets().available_origlangs(args.test_set, args.langpair)
    )
    if not origlangs:
        return ["No subset information found. Consider using --origlang argument."]
    results: dict[str, list[tuple[int, Any]]] = defaultdict(list)
    for origlang in origlangs:
        subsets: list[str | None] = [None]
        if args.subset is not None:
            subsets.append(args.subset)
        else:
            subsets += _datasets().available_subsets(args.test_set, args.langpair)
        for subset in subsets:
            sys_f, *refs_f = _datasets().filter_subset(
                [system, *refs], args.test_set, args.langpair, origlang, subset
            )
            if not sys_f:
                continue
            key = f"origlang={origlang}"
            if subset is None:
                key += " domain=ALL"
            elif subset.startswith("country:"):
                key += f" country={subset[8:]}"
            else:
                key += f" domain={subset}"
            for metric in metrics.values():
                results[key].append((len(sys_f), metric.corpus_score(sys_f, refs_f)))
    left = max(len(k) for k in results) + 1
    mwidth = max(len(v[1].name) for v in next(iter(results.values())))
    out = []
    for key, scores in results.items():
        k = render.colorize(f"{key:<{left}}", "yellow", colors)
        for n, score in scores:
            out.append(f"{k}: sentences={n:<6} {score.name:<{mwidth}} = {score.score:.{w}f}")
    return out
