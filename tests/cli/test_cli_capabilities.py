"""A command that cannot serve a metric refuses it in one line, before reading or scoring.

The line names the surface, the metric and the capability it lacks (``parbleu metrics`` lists
them); the check reads the registry's declarations, so a toy metric without ``resample`` is
refused the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import run_main

from parbleu.metrics import CHRF
from parbleu.metrics.registry import (
    Capabilities,
    MetricEntry,
    MetricProfile,
    register_metric,
    unregister_metric,
)

LINES = ["the cat sat on the mat", "stocks fell sharply on monday", "a b c"]


class Plain(CHRF):
    """chrF under a name of its own, declaring none of the optional capabilities."""

    metric_name = "plain"


@pytest.fixture
def plain() -> Iterator[None]:
    register_metric(
        MetricEntry(
            name="plain",
            factory=Plain,
            help="chrF without declared capabilities",
            profile=MetricProfile(title="Plain"),
            capabilities=Capabilities(resample=False, pairwise=False, merge=False),
        )
    )
    yield
    unregister_metric("plain")


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str, str]:
    out = []
    for name, lines in (("ref", LINES), ("a", LINES[::-1]), ("b", LINES)):
        f = tmp_path / name
        f.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(str(f))
    return out[0], out[1], out[2]


@pytest.mark.usefixtures("plain")
@pytest.mark.parametrize(
    ("argv", "surface"),
    [
        (["-m", "plain", "--paired-bs"], "--paired-bs"),
        (["-m", "bleu", "plain", "--paired-ar"], "--paired-ar"),
        (["compare", "-m", "plain"], "compare"),
    ],
)
def test_a_surface_refuses_what_the_metric_lacks_before_any_work(
    argv: list[str],
    surface: str,
    files: tuple[str, str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ref, a, b = files
    if argv[0] == "compare":
        full = ["compare", ref, "-i", a, b, *argv[1:]]
    else:
        full = [ref, "-i", a, b, *argv]
    run = run_main(full, monkeypatch)
    assert run.code == 1
    assert run.out == b""
    assert (
        run.err
        == (
            f"parbleu: error: {surface}: metric Plain lacks the 'resample' capability (paired "
            "significance tests and confidence intervals (a core scorer of rows)); `parbleu "
            "metrics` lists what each metric supports\n"
        ).encode()
    )


def test_the_same_command_runs_with_a_capable_metric(
    files: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ref, a, b = files
    run = run_main(
        [ref, "-i", a, b, "-m", "chrf", "--paired-bs", "--paired-bs-n", "20"], monkeypatch
    )
    assert run.code == 0, run.err


def test_stream_threshold_must_be_a_number(
    files: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # As PARBLEU_WORKERS=abc: a clear error, never a setting silently ignored.
    ref, a, _ = files
    for bad in ("abc", "-1"):
        run = run_main([ref, "-i", a], monkeypatch, env={"PARBLEU_STREAM_MIN_BYTES": bad})
        assert run.code == 1
        assert (
            run.err
            == (
                f"parbleu: error: environment variable PARBLEU_STREAM_MIN_BYTES={bad!r}: expected "
                "an integer >= 0 (bytes of input from which files are streamed; 0: always)\n"
            ).encode()
        )
    run = run_main([ref, "-i", a], monkeypatch, env={"PARBLEU_STREAM_MIN_BYTES": "0"})
    assert run.code == 0, run.err
