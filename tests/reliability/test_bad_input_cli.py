"""Bad input on the command line: SacreBLEU's output where it has a sane one, else one line.

Every case is documented in docs/reliability.md. Where SacreBLEU gives a result, parbleu's
standard output must be byte-identical to it (version fields aside); where SacreBLEU crashes,
parbleu prints one ``parbleu: error:`` line and a documented exit code, never a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import Job, Run, as_sacrebleu, run_main, run_sacrebleu

from parbleu.cli import ExitCode

REF = b"the cat sat on the mat .\nthere is a dog in the garden .\n"

# name -> (hypothesis bytes, reference bytes, extra arguments): SacreBLEU reads these sanely,
# parbleu must print exactly what it prints.
SAME_AS_SACREBLEU: dict[str, tuple[bytes, bytes, list[str]]] = {
    "byte-order mark": (b"\xef\xbb\xbf" + REF, REF, []),
    "CRLF line ends": (REF.replace(b"\n", b"\r\n"), REF, []),
    "lone CR inside a line": (b"the cat\rsat on the mat .\nthere is a dog .\n", REF, []),
    "NUL bytes": (b"the cat\x00sat on the mat .\nthere is\x00 a dog\x00\n", REF, []),
    "U+2028 and U+2029": (
        "the cat\u2028sat on the mat .\nthere is\u2029a dog .\n".encode(),
        REF,
        ["-m", "bleu", "chrf", "ter"],
    ),
    "other line separators": (
        "the\x0bcat\x0csat\x1con\x1dthe\x1emat\x85.\nthere is a dog .\n".encode(),
        REF,
        ["-m", "bleu", "chrf"],
    ),
    "missing final newline": (REF.rstrip(b"\n"), REF, []),
    "10 MB line": (b"x" * 5_000_000 + b" " + b"y" * 5_000_000 + b"\n.\n", REF, []),
    "empty lines": (b"\n\n", REF, ["-m", "bleu", "chrf", "ter"]),
}


def _write(tmp: Path, hyp: bytes, ref: bytes) -> None:
    (tmp / "hyp.txt").write_bytes(hyp)
    (tmp / "ref.txt").write_bytes(ref)


def _is_one_line_error(run: Run, code: int) -> None:
    assert run.code == code, run.err_lines
    assert run.out == b""
    assert len(run.err_lines) == 1, run.err_lines
    assert run.err_lines[0].startswith("parbleu: error: ")
    assert b"Traceback" not in run.err


def test_same_output_as_sacrebleu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    jobs, ours = [], []
    for i, (hyp, ref, extra) in enumerate(SAME_AS_SACREBLEU.values()):
        d = tmp_path / f"case{i}"
        d.mkdir()
        _write(d, hyp, ref)
        argv = ["ref.txt", "-i", "hyp.txt", "-f", "text", *extra]
        jobs.append(Job(argv, d))
        ours.append(run_main(argv, monkeypatch, cwd=d))
    theirs = run_sacrebleu(jobs, tmp_path_factory.mktemp("sacrebleu"))
    for name, a, b in zip(SAME_AS_SACREBLEU, ours, theirs):
        assert (a.code, b.code) == (0, 0), (name, a.err_lines, b.err_lines)
        assert as_sacrebleu(a.out) == b.out, name


def test_a_hundred_reference_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    refs = []
    for i in range(100):
        (tmp_path / f"ref{i}.txt").write_bytes(REF.replace(b"cat", f"cat{i % 7}".encode()))
        refs.append(f"ref{i}.txt")
    (tmp_path / "hyp.txt").write_bytes(REF)
    argv = [*refs, "-i", "hyp.txt", "-m", "bleu", "chrf", "ter", "-f", "text"]
    ours = run_main(argv, monkeypatch, cwd=tmp_path)
    (theirs,) = run_sacrebleu([Job(argv, tmp_path)], tmp_path_factory.mktemp("sacrebleu"))
    assert ours.code == theirs.code == 0
    assert as_sacrebleu(ours.out) == theirs.out


@pytest.mark.parametrize(
    ("hyp", "ref", "extra", "code", "needle"),
    [
        # SacreBLEU: UnicodeDecodeError traceback.
        (b"the cat\n\xff\xfe dog\n", REF, [], ExitCode.ERROR, "hyp.txt"),
        # SacreBLEU: "Test set None contains no sentence" (exit 1); same code here.
        (b"", b"", [], ExitCode.ERROR, "empty"),
        # SacreBLEU: "System and reference streams have different lengths." (exit 1).
        (REF + b"one more\n", REF, [], ExitCode.ERROR, "3 lines"),
        # SacreBLEU scores NaN smoothing as NaN; refused here.
        (REF, REF, ["-s", "floor", "--smooth-value", "nan"], ExitCode.ERROR, "nan"),
        (REF, REF, ["-s", "floor", "--smooth-value", "-1"], ExitCode.ERROR, "smooth_value"),
        # SacreBLEU: IndexError traceback.
        (REF, REF, ["-m", "chrf", "--chrf-char-order", "-1"], ExitCode.ERROR, "char_order"),
        # SacreBLEU: BLEU = inf (100 x 1e308 overflows).
        (REF, REF, ["-s", "floor", "-sv", "1e308"], ExitCode.ERROR, "smooth_value=1e+308"),
        # SacreBLEU: the plain score, --confidence silently dropped.
        (REF, REF, ["-ci", "-cin", "-1"], ExitCode.ERROR, "--confidence-n/-cin -1"),
    ],
    ids=[
        "invalid UTF-8",
        "empty files",
        "line-count mismatch",
        "NaN",
        "negative",
        "neg order",
        "huge smoothing",
        "negative -cin",
    ],
)
def test_one_line_errors(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    hyp: bytes,
    ref: bytes,
    extra: list[str],
    code: int,
    needle: str,
) -> None:
    _write(tmp_path, hyp, ref)
    run = run_main(["ref.txt", "-i", "hyp.txt", *extra], monkeypatch, cwd=tmp_path)
    _is_one_line_error(run, code)
    assert needle in run.err_lines[0]


def test_invalid_utf8_names_file_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, b"the cat\nthe \xc3( dog\n", REF)
    run = run_main(["ref.txt", "-i", "hyp.txt"], monkeypatch, cwd=tmp_path)
    _is_one_line_error(run, ExitCode.ERROR)
    assert "hyp.txt" in run.err_lines[0] and "line 2" in run.err_lines[0]


def test_unknown_option_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, REF, REF)
    run = run_main(["ref.txt", "-i", "hyp.txt", "--no-such-option"], monkeypatch, cwd=tmp_path)
    assert run.code == ExitCode.USAGE  # argparse's usage line and error, as SacreBLEU
    assert run.out == b"" and b"Traceback" not in run.err
    assert "--no-such-option" in run.err_lines[-1]


def test_unreadable_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, REF, REF)
    (tmp_path / "adir").mkdir()
    for argv in (["adir", "-i", "hyp.txt"], ["ref.txt", "-i", "adir"], ["missing.txt"]):
        run = run_main(argv, monkeypatch, cwd=tmp_path)
        _is_one_line_error(run, ExitCode.ERROR)
    locked = tmp_path / "locked.txt"
    locked.write_bytes(REF)
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running as root: chmod 000 does not stop reading (directories tested)")
        run = run_main(["locked.txt", "-i", "hyp.txt"], monkeypatch, cwd=tmp_path)
        _is_one_line_error(run, ExitCode.ERROR)
    finally:
        locked.chmod(0o644)


def _parbleu(args: list[str], cwd: Path, **kw: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "parbleu", *args],
        cwd=cwd,
        capture_output="stdout" not in kw,
        timeout=60,
        check=False,
        **kw,  # type: ignore[call-overload]
    )


def test_stdin_closed(tmp_path: Path) -> None:
    _write(tmp_path, REF, REF)
    # No standard input at all (fd 0 closed): SacreBLEU dies with an AttributeError traceback.
    # (subprocess cannot start a child with fd 0 closed: the shell can)
    p = subprocess.run(
        f"{sys.executable} -m parbleu ref.txt <&-",
        shell=True,
        cwd=tmp_path,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert p.returncode == ExitCode.ERROR
    lines = p.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("parbleu: error:"), lines
    assert p.stdout == b""


def test_stdin_ends_early(tmp_path: Path) -> None:
    # One hypothesis line for a two-line reference: SacreBLEU refuses (exit 1); so does parbleu,
    # rather than scoring the part it got.
    _write(tmp_path, REF, REF)
    p = _parbleu(["ref.txt"], tmp_path, input=b"the cat sat on the mat .\n")
    assert p.returncode == ExitCode.ERROR
    assert p.stdout == b""
    assert len(p.stderr.decode().splitlines()) == 1


def test_broken_output_pipe(tmp_path: Path) -> None:
    _write(tmp_path, REF, REF)
    r, w = os.pipe()
    os.close(r)  # the reader is gone before parbleu writes anything
    try:
        p = subprocess.run(
            [sys.executable, "-m", "parbleu", "ref.txt", "-i", "hyp.txt", "-m", "bleu", "chrf"],
            cwd=tmp_path,
            stdout=w,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    finally:
        os.close(w)
    assert p.returncode == ExitCode.BROKEN_PIPE
    assert p.stderr == b"", p.stderr.decode()
