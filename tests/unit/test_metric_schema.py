"""The metric registry's declarations: capabilities and option schema, and what is made of them.

The command-line groups are generated from the schemas (``tools/gen_cli_docs.py --check`` keeps
``docs/cli.md`` equal to them); here: the schema's checks agree with the constructors, the
signature names come from it, each instance reports its entry's capabilities, and
``parbleu metrics`` lists the registry.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

import parbleu
from parbleu.cli import main
from parbleu.errors import InvalidOptionError
from parbleu.metrics.registry import get_metric, make_metric, metric_names
from parbleu.metrics.schema import Capabilities, MetricOption, add_option_group, check_option


def _bounded() -> list[tuple[str, MetricOption]]:
    return [
        (name, o)
        for name in metric_names()
        for o in get_metric(name).option_schema()
        if o.type == "int" and (o.minimum is not None or o.maximum is not None)
    ]


@pytest.mark.parametrize(("name", "opt"), _bounded(), ids=lambda x: getattr(x, "name", x))
def test_schema_bounds_are_the_constructors(name: str, opt: MetricOption) -> None:
    entry = get_metric(name)
    for bad in (
        None if opt.minimum is None else int(opt.minimum) - 1,
        None if opt.maximum is None else int(opt.maximum) + 1,
    ):
        if bad is None:
            continue
        with pytest.raises(InvalidOptionError, match=opt.name):
            check_option(opt, bad)
        with pytest.raises(InvalidOptionError):
            entry.create(**{opt.name: bad})
    if opt.minimum is not None:
        assert check_option(opt, int(opt.minimum)) == opt.minimum


def test_choices_are_checked_and_named() -> None:
    opt = next(o for o in get_metric("rouge").option_schema() if o.name == "tokenize")
    assert check_option(opt, "unicode") == "unicode"
    with pytest.raises(InvalidOptionError, match=r"^tokenize='x': expected one of 'default'"):
        check_option(opt, "x")
    with pytest.raises(InvalidOptionError, match=r"^tokenize='x'"):
        parbleu.ROUGE(tokenize="x")
    with pytest.raises(InvalidOptionError, match="expected True or False"):
        parbleu.ROUGE(use_stemmer="yes")  # type: ignore[arg-type]


def test_every_flag_reaches_its_constructor_by_prefix() -> None:
    for name in metric_names():
        entry = get_metric(name)
        p = argparse.ArgumentParser()
        entry.add_cli_arguments(p)
        args = vars(p.parse_args([]))
        for opt in entry.option_schema():
            if opt.flags:
                dest = opt.dest or opt.flags[0].lstrip("-").replace("-", "_")
                assert dest == entry.option_prefix + opt.name, (name, opt.name)
                assert dest in args


def test_a_schema_makes_a_group() -> None:
    p = argparse.ArgumentParser()
    opts = (
        MetricOption(name="order", type="int", flags=("--toy-order",), default=3, minimum=1),
        MetricOption(name="mode", type="str", flags=("--toy-mode",), choices=("a", "b")),
        MetricOption(name="quiet", type="bool", flags=("--toy-quiet",)),
        MetricOption(name="hidden", type="int", default=1),  # constructor only
    )
    add_option_group(p, "Toy related arguments", opts)
    got = vars(p.parse_args(["--toy-order", "5", "--toy-mode", "b", "--toy-quiet"]))
    assert got == {"toy_order": 5, "toy_mode": "b", "toy_quiet": True}
    assert "Toy related arguments" in p.format_help()
    with pytest.raises(SystemExit):
        p.parse_args(["--toy-mode", "c"])


def test_signature_names_come_from_the_schema() -> None:
    # SacreBLEU's short names, now read from the option schemas.
    bleu = parbleu.BLEU()
    bleu.corpus_score(["a b c"], [["a b c"]])
    assert bleu.get_signature().format(short=True).startswith("#:1|c:mixed|e:no|tok:13a|s:exp")
    chrf = parbleu.CHRF(word_order=2)
    chrf.corpus_score(["a b c"], [["a b c"]])
    assert chrf.get_signature().format(short=True).startswith("#:1|c:mixed|e:yes|nc:6|nw:2|s:no")


def test_instances_report_their_entrys_capabilities() -> None:
    for name in metric_names():
        m = make_metric(name)
        assert m.capabilities is get_metric(name).capabilities
        assert m.title == get_metric(name).title
    assert parbleu.TER().capabilities.rows == "float"
    assert parbleu.BLEU().capabilities.resample
    assert parbleu.ROUGE().capabilities.pairwise
    assert not make_metric("cider").capabilities.pairwise


def test_refusals_name_the_metric_and_the_capability() -> None:
    with pytest.raises(InvalidOptionError, match=r"^pairwise: metric CIDEr lacks the 'pairwise'"):
        parbleu.pairwise(["a b", "a c"], metric="cider")
    with pytest.raises(InvalidOptionError, match=r"^mbr: metric CIDEr lacks the 'pairwise'"):
        parbleu.mbr(["a b", "a c"], metric="cider")


def test_parbleu_metrics_lists_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["metrics"]) == 0
    out = capsys.readouterr().out
    for name in metric_names():
        assert f"\n{name} " in out and f"\n{name}: " in out
    assert main(["metrics", "-f", "json"]) == 0
    table: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in table] == list(metric_names())
    for row in table:
        assert Capabilities(**row["capabilities"]) == get_metric(row["name"]).capabilities


def test_a_fresh_process_sees_the_declared_capabilities() -> None:
    """``parbleu.metrics`` imports the registry lazily: a metric built before anything loaded
    it must still find its entry (it once lost ``resample`` and was refused by significance)."""
    import subprocess
    import sys

    code = (
        "import parbleu\n"
        "print([m.capabilities.resample for m in (parbleu.CHRF(), parbleu.TER(), parbleu.BLEU())])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[True, True, True]"
