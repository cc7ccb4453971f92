"""A toy flavor added through the flavor registry alone appears everywhere a real one does.

This is the proof of docs/architecture.md's "Add a flavor" checklist: registering one
:class:`~parbleu.flavors.FlavorInfo` (its facts, probe score, explain profile, runner and help)
puts it in ``parbleu --help``'s ``--flavor`` choices, runs it as ``parbleu --flavor toy``, lists
it in the unknown-flavor error, in ``parbleu explain`` / :func:`parbleu.flavors.explain`, in the
report's flavors table and in docs/flavors.md's tables; the checklist itself is held to <= 4
steps.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from parbleu import flavors
from parbleu.cli import main
from parbleu.errors import InvalidOptionError
from parbleu.flavors import ExplainProfile, FlavorInfo, register_flavor, unregister_flavor

REPO = Path(__file__).resolve().parents[2]
TOY_OUTPUT = "toy says hello\n"
#: Goal of issue 26: a new flavor touches at most this many files (golden data and its test aside).
MAX_FLAVOR_FILES = 4


def _toy_score(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    # Exact matches of the first reference, 0-1: trivially checkable by hand.
    return sum(h == r for h, r in zip(hyps, refs[0])) / max(len(hyps), 1)


def _toy_runner(name: str, argv: list[str]) -> int:
    sys.stdout.write(f"{name}: {' '.join(argv)}\n" if argv else TOY_OUTPUT)
    return 0


TOY = FlavorInfo(
    name="toy",
    module="toy",
    api="toy_score(hypotheses, references)",
    original="a toy implementation (tests only)",
    tokenization="str.split()",
    case="as given",
    ref_length="the first reference",
    smoothing="none",
    zeros="never fails",
    scale="0-1",
    help="a toy flavor for the registry test",
    runner=_toy_runner,
    profile=ExplainProfile("split", ref="first", smooth="none"),
    score=_toy_score,
)


@pytest.fixture
def toy() -> Iterator[FlavorInfo]:
    register_flavor(TOY)
    try:
        yield TOY
    finally:
        unregister_flavor("toy")


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Callable[[list[str]], tuple[int, str, str]]:
    """``parbleu ARGV`` -> (exit status, stdout, stderr); argparse's --help exits 0."""

    def go(argv: list[str]) -> tuple[int, str, str]:
        capsys.readouterr()
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 2
        out, err = capsys.readouterr()
        return code, out, err

    return go


Run = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("the cat sat on the mat\nit was 2022 .\n", encoding="utf-8")
    hyp.write_text("the cat sat on a mat\nit was 2022 .\n", encoding="utf-8")
    return {"ref": str(ref), "hyp": str(hyp)}


def test_registry_verbs(toy: FlavorInfo) -> None:
    assert flavors.get_flavor("toy") is toy
    assert flavors.flavor_names()[-1] == "toy"
    with pytest.raises(InvalidOptionError, match="already registered"):
        register_flavor(TOY)


def test_unregistered_toy_is_gone() -> None:
    assert "toy" not in flavors.flavor_names()
    with pytest.raises(InvalidOptionError, match=r"unknown flavor 'toy'; expected one of nltk, "):
        flavors.get_flavor("toy")


def test_help_lists_it(toy: FlavorInfo, run: Run) -> None:
    code, out, _ = run(["--help"])
    assert code == 0
    choices = re.search(r"--flavor \{([^}]*)\}", out)
    assert choices is not None and "toy" in choices.group(1).split(",")


def test_cli_runs_it(toy: FlavorInfo, files: dict[str, str], run: Run) -> None:
    assert run(["--flavor", "toy"]) == (0, TOY_OUTPUT, "")
    assert run(["--flavor=toy", files["ref"], "-i", files["hyp"]]) == (
        0,
        f"toy: {files['ref']} -i {files['hyp']}\n",
        "",
    )


def test_unknown_flavor_error_lists_it(toy: FlavorInfo, run: Run) -> None:
    code, out, err = run(["--flavor", "no-such-flavor"])
    assert code == 2 and out == ""
    assert "unknown flavor 'no-such-flavor'" in err and "torchmetrics-sacre, toy" in err
    assert "Traceback" not in err


def test_explain_uses_its_profile(toy: FlavorInfo, files: dict[str, str], run: Run) -> None:
    hyps = ["the cat sat on a mat", "it was 2022 ."]
    refs = [["the cat sat on the mat", "it was 2022 ."]]
    ex = flavors.explain(hyps, refs, "toy")
    assert ex.flavor_native == 0.5 and ex.flavor_score == 50.0
    factors = [s.factor for s in ex.steps]
    # split tokens, the first reference, no smoothing: the profile's three changes, then the
    # flavor's own number.
    assert factors == ["tokenization", "reference length", "smoothing", "exact arithmetic"]
    assert (
        ex.steps[-1].change
        == "a toy implementation (tests only): toy_score(hypotheses, references)"
    )
    code, out, err = run(["explain", files["ref"], "-i", files["hyp"], "--flavor", "toy"])
    assert code == 0 and err == ""
    assert "toy: 0.5 (= 50.0000 on the 0-100 scale)" in out


def test_report_flavors_table_lists_it(toy: FlavorInfo) -> None:
    from parbleu.reporting import report

    refs = [["the cat sat on the mat", "it was 2022 ."]]
    rep = report(refs, {"a": ["the cat sat on a mat", "it was 2022 ."]}, flavors=["toy"])
    data = json.loads(rep.to_json())
    (row,) = data["flavors"]
    assert row["name"] == "toy" and row["original"] == "a toy implementation (tests only)"
    assert row["scores"] == {"a": 50.0}
    assert "a toy implementation (tests only)" in rep.html()


def test_flavor_docs_list_it(toy: FlavorInfo) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "gen_flavor_docs", REPO / "tools/gen_flavor_docs.py"
    )
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert "| `toy` | a toy implementation (tests only) |" in gen.render_table()


def _checklist() -> list[str]:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("### Add a flavor\n", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\d+\. (.*(?:\n   .*)*)", section, flags=re.M)


def test_checklist_is_within_the_goal() -> None:
    steps = _checklist()
    # Counted: every numbered step before the golden data and its test (which prove parity and
    # are not part of wiring a flavor in). Each such step names the one file it edits (the
    # last: the generated pages, written by the tools, never by hand).
    wiring = [s for s in steps if not s.startswith("Golden")]
    assert len(wiring) <= MAX_FLAVOR_FILES, wiring
    for step in wiring:
        paths = re.findall(r"`((?:python|docs|tools)/[^`]+)`", step)
        assert paths, step
        for p in paths:
            matches = list(REPO.glob(re.sub(r"<[^>]+>", "*", p)))
            assert matches, f"the checklist names {p}, which does not exist"
