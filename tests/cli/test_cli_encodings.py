"""Encodings per file, and the decodings that change a score without a word (issue 34).

Built from the bundled WMT21 en-de sample: reference A (UTF-8) and Online-W's output, which
scores BLEU 27.9473. Saved as latin-1, the output must be read as latin-1 and the reference as
UTF-8: ``-e latin-1`` re-decodes the reference too and gives 23.7722 (SacreBLEU the same); a
byte order mark before the output gives 27.9465.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

import parbleu
from parbleu.cli import main

SAMPLE = Path(parbleu.__file__).parent / "sample"
RIGHT, REDECODED, WITH_BOM = "27.9473", "23.7722", "27.9465"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    text = (SAMPLE / "Online-W.de").read_text(encoding="utf-8")
    assert not text.isascii()
    (tmp_path / "ref.de").write_bytes((SAMPLE / "ref.A.de").read_bytes())
    (tmp_path / "hyp.utf8.de").write_text(text, encoding="utf-8")
    (tmp_path / "hyp.latin1.de").write_bytes(text.encode("latin-1"))
    (tmp_path / "hyp.bom.de").write_bytes(codecs.BOM_UTF8 + text.encode("utf-8"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _score(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    code = main(["ref.de", *argv, "-b", "-w", "4"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out.strip(), err


def test_the_utf8_file_scores_right(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _score(capsys, "-i", "hyp.utf8.de") == (RIGHT, "")


def test_latin1_hint_points_to_hyp_encoding(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ref.de", "-i", "hyp.latin1.de"]) != 0
    err = capsys.readouterr().err
    assert "use --hyp-encoding ENCODING to read it in another encoding" in err
    assert "-e/--encoding changes every file" in err


def test_hyp_encoding_gives_the_right_score(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _score(capsys, "-i", "hyp.latin1.de", "--hyp-encoding", "latin-1") == (RIGHT, "")
    # The same with -e for both and --ref-encoding for the UTF-8 reference.
    out, err = _score(capsys, "-i", "hyp.latin1.de", "-e", "latin-1", "--ref-encoding", "utf-8")
    assert (out, err) == (RIGHT, "")


def test_e_latin1_on_a_utf8_reference_warns(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = _score(capsys, "-i", "hyp.latin1.de", "-e", "latin-1")
    assert out == REDECODED  # SacreBLEU's number: stdout unchanged
    assert err.splitlines() == [
        "parbleu: reference file 'ref.de' is read as latin-1 but is valid UTF-8 with non-ASCII "
        "characters, which latin-1 reads as other characters; if it is UTF-8, add "
        "--ref-encoding utf-8 (-e/--encoding applies to every file)"
    ]


def test_bom_warns_once_per_file_and_utf8_sig_drops_it(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = _score(capsys, "-i", "hyp.bom.de")
    assert out == WITH_BOM  # SacreBLEU keeps the mark: its number
    assert err.count("byte order mark") == 1
    assert err.startswith("parbleu: hypothesis file 'hyp.bom.de' starts with a UTF-8 byte order")
    assert "--hyp-encoding utf-8-sig" in err
    assert _score(capsys, "-i", "hyp.bom.de", "--hyp-encoding", "utf-8-sig") == (RIGHT, "")
    # A multi-system run: one warning for the one file with a mark.
    assert main(["ref.de", "-i", "hyp.bom.de", "hyp.utf8.de", "-b"]) == 0
    assert capsys.readouterr().err.count("byte order mark") == 1


def test_bom_on_standard_input(
    files: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    data = (files / "hyp.bom.de").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["ref.de", "-b", "-w", "4"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == WITH_BOM
    assert "standard input starts with a UTF-8 byte order mark" in err


@pytest.mark.parametrize("option", ["--ref-encoding", "--hyp-encoding"])
def test_unknown_per_file_encoding_names_its_option(
    files: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    assert main(["ref.de", "-i", "hyp.utf8.de", option, "nope"]) != 0
    assert f"{option}: unknown encoding 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["compare", "report"])
def test_subcommands_take_per_file_encodings(
    files: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    argv = [command, "ref.de", "-i", "hyp.latin1.de", "hyp.utf8.de", "-m", "bleu"]
    if command == "report":
        argv += ["-o", "r.html"]
    assert main(argv) != 0
    assert "--hyp-encoding" in capsys.readouterr().err
    # One encoding for every hypothesis: the latin-1 file with a latin-1 copy of the other.
    (files / "hyp2.latin1.de").write_bytes((files / "hyp.latin1.de").read_bytes())
    argv = [command, "ref.de", "-i", "hyp.latin1.de", "hyp2.latin1.de", "-m", "bleu"]
    argv += ["--hyp-encoding", "latin-1"] + (["-o", "r.html"] if command == "report" else [])
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "byte order" not in captured.err and "valid UTF-8" not in captured.err
    if command == "compare":
        assert "27.95" in captured.out


@pytest.mark.parametrize("path", ["streamed", "scheduler"])
def test_statistics_paths_warn_as_in_memory(
    files: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    # Streaming and --scheduler read block by block: the same warnings, from the file's start.
    import parbleu.cli.stream as stream_mod

    extra = ["--scheduler", "local:1"] if path == "scheduler" else []
    if path == "scheduler":
        pytest.importorskip("dask.distributed")
    cases = (["-i", "hyp.bom.de"], ["-i", "hyp.latin1.de", "-e", "latin-1"])
    in_memory = [_score(capsys, *argv) for argv in cases]
    assert all("parbleu: " in err for _, err in in_memory)
    used: list[bool] = []
    scored = stream_mod.stream_scores
    monkeypatch.setattr(
        stream_mod, "stream_scores", lambda *a, **k: used.append(True) or scored(*a, **k)
    )
    if path == "streamed":
        monkeypatch.setenv(stream_mod.ENV_MIN_BYTES, "0")
    assert [_score(capsys, *argv, *extra) for argv in cases] == in_memory
    assert used == ([True, True] if path == "streamed" else [])
