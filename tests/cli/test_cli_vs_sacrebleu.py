"""``parbleu`` against ``python -m sacrebleu`` on the same commands, byte for byte.

SacreBLEU 2.6.0 runs in subprocesses (started together, a few at a time), parbleu in-process,
both in one working directory holding WMT21 en-de/en-zh files, slices of them, and files made
to probe reading (CRLF, lone CR, U+2028, trailing whitespace, Latin-1, gzip) and table
rendering (names with LaTeX specials, numeric and non-ASCII names). Standard output and
standard error must be identical once parbleu's version field is rewritten as SacreBLEU's.
"""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from cli_support import (
    SHARED,
    WMT21,
    Job,
    Run,
    as_sacrebleu,
    run_main,
    run_sacrebleu,
    sacrebleu_env,
)

pytestmark = pytest.mark.skipif(not WMT21.is_dir(), reason="data/wmt21 is missing")

sacrebleu = pytest.importorskip("sacrebleu")
if sacrebleu.__version__ != "2.6.0":  # pragma: no cover
    pytest.skip("these checks compare with SacreBLEU 2.6.0", allow_module_level=True)

REF_A = "newstest2021.en-de.ref.A.de"
REF_C = "newstest2021.en-de.ref.C.de"
REF_D = "newstest2021.en-de.ref.D.de"
W = "newstest2021.en-de.hyp.Online-W.de"
FB = "newstest2021.en-de.hyp.Facebook-AI.de"
UE = "newstest2021.en-de.hyp.UEdin.de"
BUPT = "newstest2021.en-de.hyp.BUPT_rush.de"
NUCLEAR = "newstest2021.en-de.hyp.nuclear_trans.de"
ZH_A, ZH_B = "zh.ref.A.zh", "zh.ref.B.zh"
ZH_HYP = "zh.hyp.NiuTrans.zh"
TED_REF, TED_1, TED_2 = "ted.ref.eng", "ted.sys1.eng", "ted.sys2.eng"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _write(path: Path, lines: list[str], sep: str = "\n", encoding: str = "utf-8") -> None:
    path.write_bytes((sep.join(lines) + sep).encode(encoding))


def build_workdir(d: Path) -> None:
    """Files the cases below use (names relative to ``d``)."""
    refs = WMT21 / "references"
    outs = WMT21 / "system-outputs"
    for name in (REF_A, REF_C, REF_D):
        shutil.copy(refs / name, d / name)
    for name in (W, FB, UE, BUPT, NUCLEAR):
        shutil.copy(outs / name, d / name)
    ref_a, ref_c, ref_d = (_lines(d / n) for n in (REF_A, REF_C, REF_D))
    hyp_w, hyp_fb, hyp_ue = (_lines(d / n) for n in (W, FB, UE))
    for n in (50, 100):
        _write(d / f"s{n}.{REF_A}", ref_a[:n])
        _write(d / f"s{n}.{REF_C}", ref_c[:n])
        for name, hyp in ((W, hyp_w), (FB, hyp_fb), (UE, hyp_ue)):
            _write(d / f"s{n}.{name}", hyp[:n])
    zh = {
        ZH_A: refs / "newstest2021.en-zh.ref.A.zh",
        ZH_B: refs / "newstest2021.en-zh.ref.B.zh",
        ZH_HYP: outs / "newstest2021.en-zh.hyp.NiuTrans.zh",
    }
    for name, src in zh.items():
        _write(d / name, _lines(src)[:300])
    cmt = SHARED / "data" / "compare-mt"
    for name in (TED_REF, TED_1, TED_2):
        _write(d / name, _lines(cmt / name)[:400])

    # Reading: CRLF, lone CR and U+2028 inside lines, trailing tabs / no-break spaces.
    odd = [
        h + ("\u00a0\t " if i % 7 == 0 else "") + ("\u2028x" if i % 11 == 0 else "")
        for i, h in enumerate(hyp_w[:100])
    ]
    odd = [h.replace(" ", "\r", 1) if i % 13 == 0 else h for i, h in enumerate(odd)]
    _write(d / "odd.hyp", odd, sep="\r\n")
    _write(d / "odd.ref", [r + "\x0c" if i % 5 == 0 else r for i, r in enumerate(ref_a[:100])])
    # Standard input with lone CR line ends, and spaces before the tab on its first line.
    (d / "cr.stdin").write_bytes(("\r".join(hyp_w[:100]) + "\r").encode())
    cols = [f"{a}  \t{b}   " for a, b in zip(hyp_w[:100], hyp_fb[:100])]
    _write(d / "tabs.stdin", cols)
    # Tab-separated references; with -nr 2 the last field keeps a tab.
    _write(d / "refs3.tsv", [f"{a}\t{c}\t{x}" for a, c, x in zip(ref_a, ref_c, ref_d)])

    # Latin-1.
    def latin1(lines: list[str]) -> list[str]:
        return [x.encode("latin-1", "replace").decode("latin-1") for x in lines]

    _write(d / "latin1.ref", latin1(ref_a[:200]), encoding="latin-1")
    _write(d / "latin1.hyp", latin1(hyp_w[:200]), encoding="latin-1")
    # gzip.
    for name in (REF_A, W):
        with gzip.open(d / f"{name}.gz", "wb") as f:
            f.write((d / name).read_bytes())
    # Table rendering: LaTeX specials, numbers, non-ASCII.
    for name, hyp in (
        ("sys_a&b%#.de", hyp_w),
        ("1.50", hyp_w),
        ("2.25", hyp_fb),
        ("10", hyp_ue),
        ("système-ü.de", hyp_fb),
        ("Baseline:x", hyp_ue),
    ):
        _write(d / name, hyp[:100])


@dataclass
class Case:
    id: str
    argv: list[str]
    stdin: str | None = None  # a file in the work directory
    env: dict[str, str] = field(default_factory=dict)


def _multi(fmt: str, *extra: str) -> list[str]:
    return [REF_A, "-i", W, FB, UE, "-f", fmt, *extra]


S50 = [f"s50.{REF_A}", "-i", f"s50.{W}"]
S100 = [f"s100.{REF_A}", "-i", f"s100.{W}"]
S100_MULTI = [f"s100.{REF_A}", "-i", f"s100.{W}", f"s100.{FB}", f"s100.{UE}"]

CASES = [
    Case("default-json", [REF_A, "-i", W]),
    Case("two-refs-text", [REF_A, REF_C, "-i", W, "-f", "text"]),
    Case("two-refs-json", [REF_A, REF_C, "-i", W]),
    Case("multi-text", _multi("text")),
    Case("multi-latex", _multi("latex")),
    Case("multi-json", _multi("json")),
    Case("multi-text-w4", _multi("text", "-w", "4")),
    Case("multi-text-w0", _multi("text", "-w", "0")),
    Case("multi-text-short", _multi("text", "-sh")),
    Case("multi-latex-underscores", [REF_A, "-i", BUPT, NUCLEAR, "-f", "latex"]),
    Case("multi-text-underscores", [REF_A, "-i", BUPT, NUCLEAR, "-f", "text"]),
    Case("score-only-json", [REF_A, "-i", W, "-b"]),
    Case("score-only-text", [REF_A, "-i", W, "-b", "-f", "text"]),
    Case("score-only-two-metrics-json", [*S100, "-m", "bleu", "chrf", "-b"]),
    Case("score-only-three-metrics-text", [*S100, "-m", "ter", "chrf", "bleu", "-b", "-f", "text"]),
    Case("width4-text", [REF_A, "-i", W, "-w", "4", "-f", "text"]),
    Case("lowercase-text", [REF_A, "-i", W, "-lc", "-f", "text"]),
    Case("tok-intl", [REF_A, "-i", W, "-tok", "intl", "-f", "text"]),
    Case("tok-char", [REF_A, "-i", W, "-tok", "char", "-f", "text"]),
    Case("tok-none", [REF_A, "-i", W, "-tok", "none", "-f", "text"]),
    Case("tok-zh", [ZH_A, ZH_B, "-i", ZH_HYP, "-tok", "zh", "-f", "text"]),
    Case("langpair-zh-auto", [ZH_A, "-i", ZH_HYP, "-l", "en-zh"]),
    Case("langpair-zh-13a-warns", [ZH_A, "-i", ZH_HYP, "-l", "en-zh", "-tok", "13a", "-f", "text"]),
    Case("smooth-floor", [REF_A, "-i", W, "-s", "floor", "-sv", "0.3", "-f", "text"]),
    Case("smooth-none", [*S50, "-s", "none", "-f", "text"]),
    Case("smooth-add-k", [*S50, "-s", "add-k"]),
    Case("sentence-text", [*S50, "-sl", "-f", "text"]),
    Case("sentence-json-is-text", [*S50, "-sl", "-w", "3"]),
    Case("sentence-score-only", [*S50, "-sl", "-b"]),
    Case("sentence-short", [*S50, "-sl", "-sh", "-lc", "-tok", "intl"]),
    Case("sentence-chrf", [*S50, "-sl", "-m", "chrf", "--chrf-word-order", "2"]),
    Case("sentence-ter", [*S50, "-sl", "-m", "ter", "-sh"]),
    Case("three-metrics-short-text", [*S100, "-m", "ter", "bleu", "chrf", "-sh", "-f", "text"]),
    Case("three-metrics-json-ignores-short", [*S100, "-m", "bleu", "chrf", "ter", "-sh"]),
    Case("three-metrics-latex-is-text", [*S100, "-m", "bleu", "chrf", "ter", "-f", "latex"]),
    Case("multi-three-metrics", [*S100_MULTI, "-m", "bleu", "chrf", "ter", "-f", "text"]),
    Case(
        "chrf-options",
        [
            *S100,
            "-m",
            "chrf",
            "-cc",
            "4",
            "-cw",
            "2",
            "--chrf-beta",
            "1",
            "--chrf-whitespace",
            "--chrf-lowercase",
            "-f",
            "text",
        ],
    ),
    Case(
        "ter-options",
        [
            *S100,
            "-m",
            "ter",
            "--ter-normalized",
            "--ter-no-punct",
            "--ter-case-sensitive",
            "-f",
            "text",
        ],
    ),
    Case("stdin-text", [REF_A, "-f", "text"], stdin=W),
    Case("stdin-json", [REF_A], stdin=W),
    Case(
        "stdin-two-columns",
        [f"s100.{REF_A}", "-m", "bleu", "chrf", "--chrf-whitespace", "-f", "text"],
        stdin="tabs.stdin",
    ),
    Case("stdin-two-columns-json", [f"s100.{REF_A}", "-f", "json"], stdin="tabs.stdin"),
    Case("stdin-lone-cr", [f"s100.{REF_A}", "-f", "text"], stdin="cr.stdin"),
    Case("tokenized-warning", [TED_REF, "-i", TED_1, "-f", "text"]),
    Case("tokenized-warning-quiet", [TED_REF, "-i", TED_1, "-q"]),
    Case("tokenized-warning-multi", [TED_REF, "-i", TED_1, TED_2, "-m", "bleu", "chrf"]),
    Case("tokenized-force", [TED_REF, "-i", TED_1, "--force"]),
    Case("tokenized-sentence-no-warning", [TED_REF, "-i", TED_1, "-sl", "-b"]),
    Case("detail-text", [REF_A, "-i", W, "--detail", "-f", "text"]),
    Case("detail-json-becomes-text", [REF_A, "-i", W, "-d"]),
    Case("no-color-multi", _multi("text"), env={"NO_COLOR": "1"}),
    Case("env-format-text", [REF_A, "-i", W], env={"SACREBLEU_FORMAT": "text"}),
    Case("env-format-latex-multi", _multi("json"), env={"SACREBLEU_FORMAT": "LaTeX"}),
    Case("env-format-invalid-ignored", [REF_A, "-i", W], env={"SACREBLEU_FORMAT": "yaml"}),
    Case("latin1", ["latin1.ref", "-i", "latin1.hyp", "-e", "latin-1", "-f", "text"]),
    Case(
        "odd-line-ends",
        ["odd.ref", "-i", "odd.hyp", "-m", "bleu", "chrf", "--chrf-whitespace", "-f", "text"],
    ),
    Case(
        "odd-line-ends-sentence",
        ["odd.ref", "-i", "odd.hyp", "-sl", "-m", "chrf", "--chrf-whitespace", "-b"],
    ),
    Case("num-refs-3", ["refs3.tsv", "-nr", "3", "-i", W, "-f", "text"]),
    Case("num-refs-2-tab-in-field", ["refs3.tsv", "-nr", "2", "-i", W, "-f", "text"]),
    Case("gzip", [f"{REF_A}.gz", "-i", f"{W}.gz", "-f", "text"]),
    Case("names-latex", [f"s100.{REF_A}", "-i", "sys_a&b%#.de", "système-ü.de", "-f", "latex"]),
    Case("names-text", [f"s100.{REF_A}", "-i", "sys_a&b%#.de", "système-ü.de", "-f", "text"]),
    Case("names-json", [f"s100.{REF_A}", "-i", "sys_a&b%#.de", "système-ü.de", "-f", "json"]),
    Case("numeric-names-text", [f"s100.{REF_A}", "-i", "1.50", "2.25", "10", "-f", "text"]),
    Case("numeric-names-latex", [f"s100.{REF_A}", "-i", "1.50", "10", "-f", "latex", "-w", "2"]),
    Case("baseline-name-not-paired", [f"s100.{REF_A}", "-i", "Baseline:x", "10", "-f", "text"]),
    Case("max-order-default", [REF_A, "-i", W, "-f", "text", "-lc", "-tok", "13a", "-s", "exp"]),
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("cli-vs-sacrebleu")
    build_workdir(d)
    return d


@pytest.fixture(scope="module")
def sacrebleu_runs(workdir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """SacreBLEU's output for every case."""
    jobs = [
        Job(c.argv, workdir, (workdir / c.stdin).read_bytes() if c.stdin else b"", c.env)
        for c in CASES
    ]
    runs = run_sacrebleu(jobs, tmp_path_factory.mktemp("sacrebleu-runs"))
    return {c.id: r for c, r in zip(CASES, runs)}


def _check(case: Case, workdir: Path, expected: Run, mp: pytest.MonkeyPatch) -> None:
    stdin = (workdir / case.stdin).read_bytes() if case.stdin else b""
    got = run_main(case.argv, mp, stdin=stdin, env=case.env, cwd=workdir)
    assert expected.code == 0, expected.err.decode()
    assert as_sacrebleu(got.out).decode() == expected.out.decode()
    assert as_sacrebleu(got.out) == expected.out
    assert as_sacrebleu(got.err).decode() == expected.err.decode()
    assert got.code == 0


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_same_bytes_as_sacrebleu(
    case: Case,
    workdir: Path,
    sacrebleu_runs: dict[str, Run],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _check(case, workdir, sacrebleu_runs[case.id], monkeypatch)


def test_cases_are_distinct() -> None:
    ids: list[str] = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    key: Callable[[Case], tuple[str, ...]] = lambda c: (*c.argv, str(c.stdin), str(c.env))  # noqa: E731
    assert len({key(c) for c in CASES}) == len(CASES)


def _on_terminal(argv: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    """Run a command with standard output on a pseudo-terminal."""
    import os
    import subprocess
    import sys

    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", *argv],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=subprocess.PIPE,
        env=sacrebleu_env(),
    )
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO once the child has closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    assert proc.stderr is not None
    with proc.stderr:
        err = proc.stderr.read()
    return proc.wait(timeout=120), out, err


@pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="needs a pseudo-terminal")
def test_terminal_output_has_sacrebleu_colours(workdir: Path) -> None:
    """On a terminal SacreBLEU keeps colour codes (cyan headers) and resets them at exit."""
    argv = [f"s50.{REF_A}", "-i", f"s50.{W}", f"s50.{FB}", "-f", "text"]
    expected = _on_terminal(["sacrebleu", *argv], workdir)
    got = _on_terminal(["parbleu", *argv], workdir)
    assert b"\x1b[36mBLEU\x1b[0m" in expected[1]
    assert (got[0], as_sacrebleu(got[1]), got[2]) == expected
