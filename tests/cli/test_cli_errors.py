"""Errors of the ``parbleu`` command: one line on standard error, a documented exit code."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import REPO, WMT21, Run, run_main

import parbleu
from parbleu.cli import ExitCode

REF = WMT21 / "references" / "newstest2021.en-de.ref.A.de"
HYP = WMT21 / "system-outputs" / "newstest2021.en-de.hyp.Online-W.de"

pytestmark = pytest.mark.skipif(not REF.is_file(), reason="data/wmt21 is missing")


def _write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def _lines(n: int, word: str = "a") -> bytes:
    return "".join(f"{word} {i} .\n" for i in range(n)).encode()


def one_line_error(run: Run, code: int, *fragments: str) -> str:
    assert run.code == code, run.err
    assert run.out == b""
    lines = run.err_lines
    assert len(lines) == 1, run.err
    assert lines[0].startswith("parbleu: error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


def test_missing_reference_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = str(tmp_path / "nope.ref")
    run = run_main([missing, "-i", str(HYP)], monkeypatch)
    one_line_error(run, ExitCode.ERROR, "reference file", missing, "no such file")


def test_missing_hypothesis_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = str(tmp_path / "nope.hyp")
    run = run_main([str(REF), "-i", str(HYP), missing], monkeypatch)
    one_line_error(run, ExitCode.ERROR, "hypothesis file", missing, "no such file")


def test_directory_instead_of_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main([str(REF), "-i", str(tmp_path)], monkeypatch)
    one_line_error(run, ExitCode.ERROR, str(tmp_path), "directory")


def test_unreadable_gzip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = _write(tmp_path / "hyp.gz", b"not gzip at all\n")
    run = run_main([str(REF), "-i", bad], monkeypatch)
    one_line_error(run, ExitCode.ERROR, bad, "gzip")


def test_invalid_utf8_names_file_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref = _write(tmp_path / "ref", _lines(5))
    hyp = _write(tmp_path / "hyp", b"ok 1\nok 2\nbad \xff\xfe here\nok 4\nok 5\n")
    line = one_line_error(run_main([ref, "-i", hyp], monkeypatch), ExitCode.ERROR, hyp, "line 3")
    assert "utf-8" in line and "0xff" in line


def test_invalid_utf8_in_reference(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref = _write(tmp_path / "ref", b"x\r\ny\xc3\n")  # CR does not end a line in files
    hyp = _write(tmp_path / "hyp", _lines(2))
    one_line_error(run_main([ref, "-i", hyp], monkeypatch), ExitCode.ERROR, ref, "line 2")


def test_invalid_utf8_on_stdin_counts_universal_newlines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = _write(tmp_path / "ref", _lines(3))
    run = run_main([ref], monkeypatch, stdin=b"a\rb\r\nc \x80\n")
    one_line_error(run, ExitCode.ERROR, "standard input", "line 3")


def test_other_encoding_reads_what_utf8_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = _write(tmp_path / "ref", "un café noir et une crème brûlée .\n".encode("latin-1"))
    hyp = _write(tmp_path / "hyp", "un café noir et une crème brûlée .\n".encode("latin-1"))
    assert run_main([ref, "-i", hyp, "-b"], monkeypatch).code == ExitCode.ERROR
    run = run_main([ref, "-i", hyp, "-b", "-e", "latin-1"], monkeypatch)
    assert (run.code, run.out) == (0, b"100.0\n")


def test_unknown_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main([str(REF), "-i", str(HYP), "-e", "klingon"], monkeypatch)
    one_line_error(run, ExitCode.ERROR, "klingon")


def test_line_count_mismatch_names_both_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hyp = _write(tmp_path / "short.hyp", _lines(10))
    run = run_main([str(REF), "-i", hyp], monkeypatch)
    one_line_error(run, ExitCode.ERROR, hyp, str(REF), "10 lines", "1002")


def test_line_count_mismatch_second_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref1 = _write(tmp_path / "r1", _lines(4))
    ref2 = _write(tmp_path / "r2", _lines(3))
    hyp = _write(tmp_path / "h", _lines(4))
    one_line_error(run_main([ref1, ref2, "-i", hyp], monkeypatch), 1, ref2, "4 lines", "has 3")


def test_line_count_mismatch_on_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref = _write(tmp_path / "r", _lines(4))
    run = run_main([ref], monkeypatch, stdin=_lines(3))
    one_line_error(run, ExitCode.ERROR, "standard input", "3 lines", "has 4")


def test_empty_hypothesis_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref = _write(tmp_path / "r", b"")
    hyp = _write(tmp_path / "h", b"")
    one_line_error(run_main([ref, "-i", hyp], monkeypatch), ExitCode.ERROR, hyp, "empty")


def test_empty_stdin_is_called_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    # Empty input reads as one empty line (SacreBLEU's readline()); against 1002 references
    # that used to be reported as "standard input has 1 lines".
    line = one_line_error(run_main([str(REF)], monkeypatch), ExitCode.ERROR, "standard input")
    assert "is empty" in line and "1 lines" not in line


def test_empty_stdin_against_one_reference_line_is_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SacreBLEU scores one empty hypothesis there; so does parbleu.
    run = run_main([_write(tmp_path / "r", b"a b c\n"), "-b"], monkeypatch)
    assert (run.code, run.out) == (0, b"0.0\n"), run.err


def test_empty_reference_file_is_called_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = _write(tmp_path / "r", b"")
    hyp = _write(tmp_path / "h", _lines(3))
    line = one_line_error(run_main([ref, "-i", hyp], monkeypatch), ExitCode.ERROR, ref, "empty")
    assert "0" not in line.replace(str(tmp_path), "")


@pytest.mark.parametrize("empty", ["hyp", "ref"])
def test_compare_empty_input_is_called_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, empty: str
) -> None:
    ref = _write(tmp_path / "r", b"" if empty == "ref" else _lines(3))
    h1 = _write(tmp_path / "h1", b"" if empty == "hyp" else _lines(3))
    h2 = _write(tmp_path / "h2", _lines(3, "b"))
    run = run_main(["compare", ref, "-i", h1, h2, "-m", "bleu"], monkeypatch)
    line = one_line_error(run, ExitCode.ERROR, "empty")
    assert "0 lines" not in line


def test_num_refs_wrong_field_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref = _write(tmp_path / "refs.tsv", b"a\tb\tc\na\tb\t\n")  # trailing tab is stripped
    hyp = _write(tmp_path / "h", _lines(2))
    run = run_main([ref, "-nr", "3", "-i", hyp], monkeypatch)
    one_line_error(run, ExitCode.BAD_FIELDS, ref, "line 2", "expected 3", "found 2")


def test_num_refs_with_several_files(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main([str(REF), str(REF), "-nr", "2", "-i", str(HYP)], monkeypatch)
    one_line_error(run, ExitCode.ERROR, "--num-refs")


def test_stdin_columns_differ(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref = _write(tmp_path / "r", _lines(3))
    run = run_main([ref], monkeypatch, stdin=b"a\tb\nc\td\ne\n")
    one_line_error(run, ExitCode.BAD_FIELDS, "standard input", "line 3")


def test_same_system_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main([str(REF), "-i", str(HYP), str(HYP)], monkeypatch)
    one_line_error(run, ExitCode.ERROR, str(HYP), "twice")


def test_input_flag_without_files(monkeypatch: pytest.MonkeyPatch) -> None:
    one_line_error(run_main([str(REF), "-i"], monkeypatch), ExitCode.ERROR, "-i/--input")


def test_no_references(monkeypatch: pytest.MonkeyPatch) -> None:
    one_line_error(run_main(["-i", str(HYP)], monkeypatch), ExitCode.ERROR, "reference")


@pytest.mark.parametrize(
    "extra",
    [["-tok", "klingon"], ["-m", "meteors"], ["-f", "html"], ["-s", "magic"], ["-w", "-1"],
     ["-nr", "0"], ["--paired-bs", "--paired-ar"], ["--no-such-flag"]],
)  # fmt: skip
def test_usage_errors_are_argparse_errors(
    extra: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_main([str(REF), "-i", str(HYP), *extra], monkeypatch)
    assert run.code == ExitCode.USAGE
    assert run.out == b""
    assert run.err_lines[0].startswith("usage: parbleu")
    assert run.err_lines[-1].startswith("parbleu: error: ")


def test_sentencepiece_model_offline_names_url_and_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = tmp_path / "registry.json"
    url = "http://127.0.0.1:9/flores200.model"  # the discard port: nothing answers
    registry.write_text(
        json.dumps({"datasets": {}, "spm_models": {"flores200": {"url": url, "signature": "f"}}})
    )
    env = {"SACREBLEU": str(tmp_path / "cache"), "PARBLEU_DATASETS_REGISTRY": str(registry)}
    run = run_main([str(REF), "-i", str(HYP), "-tok", "flores200"], monkeypatch, env=env)
    if importlib.util.find_spec("sentencepiece") is None:
        one_line_error(run, ExitCode.ERROR, "flores200", "pip install 'parbleu[spm]'")
    else:
        # SacreBLEU's "Downloading URL to PATH" log line comes first, then the one error line.
        first, _, rest = run.err.partition(b"\n")
        assert first.startswith(b"sacreBLEU: Downloading " + url.encode()), run.err
        run = Run(run.code, run.out, rest)
        one_line_error(run, ExitCode.ERROR, url, str(tmp_path / "cache" / "models"))


@pytest.mark.parametrize(
    ("extra", "words"),
    [(["-t", "wmt21", "-l", "en-de"], "not both"), (["--citation"], "needs a test set"),
     (["--download", "nope"], "unknown test set 'nope'"), (["--echo", "src"], "needs a test set"),
     (["--origlang", "de"], "needs a test set"), (["--subset", "news"], "needs a test set")],
)  # fmt: skip
def test_test_set_option_errors(
    extra: list[str], words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_main([str(REF), "-i", str(HYP), *extra], monkeypatch)
    one_line_error(run, ExitCode.ERROR, words)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["-sl", "-m", "bleu", "chrf"], "one metric"),
        (["-sl", "--confidence"], "sentence-level"),
        (["--paired-bs"], "several files"),
        (["-l", "ende"], "SRC-TRG"),
    ],
)
def test_option_combinations(
    argv: list[str], fragment: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_main([str(REF), "-i", str(HYP), *argv], monkeypatch)
    one_line_error(run, ExitCode.ERROR, fragment)


def test_confidence_with_several_systems(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main([str(REF), "-i", str(HYP), str(REF), "--confidence"], monkeypatch)
    one_line_error(run, ExitCode.ERROR, "--paired-bs or --paired-ar")


def test_parbleu_error_from_the_api(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main([str(REF), "-i", str(HYP), "-s", "floor", "-sv", "-1"], monkeypatch)
    one_line_error(run, ExitCode.ERROR, "-m bleu", "smooth_value")


def test_keyboard_interrupt(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("parbleu.cli.read_ref_streams", interrupted)
    run = run_main([str(REF), "-i", str(HYP)], monkeypatch)
    assert (run.code, run.out, run.err) == (ExitCode.INTERRUPTED, b"", b"")


def test_internal_error_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr("parbleu.cli.build_metrics", broken)
    run = run_main([str(REF), "-i", str(HYP)], monkeypatch)
    one_line_error(run, ExitCode.INTERNAL, "RuntimeError", "boom second line", "bug")


def test_help_and_version(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_main(["--help"], monkeypatch)
    assert run.code == 0 and run.out.startswith(b"usage: parbleu")
    run = run_main(["-V"], monkeypatch)
    assert (run.code, run.out) == (0, f"parbleu {parbleu.__version__}\n".encode())


def _subprocess(shell_cmd: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["bash", "-c", shell_cmd], capture_output=True, timeout=120)


def test_broken_pipe_is_quiet() -> None:
    # ~160 kB of sentence scores: more than a pipe holds, so writes fail once head has gone.
    cmd = f"{sys.executable} -m parbleu {REF} -i {HYP} -sl | head -c 0; exit ${{PIPESTATUS[0]}}"
    proc = _subprocess(cmd)
    assert proc.stderr == b""
    assert proc.returncode == ExitCode.BROKEN_PIPE


def test_python_m_parbleu_exit_code_and_stderr() -> None:
    proc = _subprocess(f"{sys.executable} -m parbleu {REF} -i /nonexistent/hyp")
    assert proc.returncode == ExitCode.ERROR
    assert proc.stdout == b""
    assert proc.stderr.decode().count("\n") == 1
    assert "Traceback" not in proc.stderr.decode()


@pytest.mark.parametrize(
    ("flags", "doc_names"),
    [
        (["-m", "chrf", "--chrf-word-order", "-1"], ["--chrf-word-order", "word_order=-1"]),
        (["-m", "chrf", "--chrf-char-order", "-1"], ["--chrf-char-order", "char_order=-1"]),
        (["-m", "chrf", "-cc", "0", "-cw", "0"], ["-cc 0 -cw 0"]),
        (["-s", "floor", "-sv", "-1"], ["smooth_value", "-sv"]),
        (["-s", "floor", "-sv", "2"], ["-s floor -sv 2", "smooth_value=1e6"]),
        (["-w", "-1"], ["-w"]),
        (["-nr", "0"], ["--num-refs"]),
    ],
)
def test_refused_options_are_documented(
    monkeypatch: pytest.MonkeyPatch, flags: list[str], doc_names: list[str]
) -> None:
    # SacreBLEU scores (or crashes on) these; parbleu refuses them on purpose, and
    # docs/differences-from-sacrebleu.md must say so (a negative chrF order was undocumented).
    run = run_main([str(REF), "-i", str(HYP), *flags], monkeypatch)
    assert run.code in (ExitCode.ERROR, ExitCode.USAGE), run.err
    assert run.err_lines[-1].startswith("parbleu: error: ")
    doc = (REPO / "docs" / "differences-from-sacrebleu.md").read_text(encoding="utf-8")
    refused = doc.split("## Options SacreBLEU accepts and parbleu refuses", 1)[1].split("\n## ")[0]
    for name in doc_names:
        assert f"`{name}" in refused or name in refused, name
