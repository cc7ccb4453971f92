"""Exit 70 ("internal error, please report") is unreachable from user input.

Many bad command lines, for the main command, ``compare``, ``explain`` and every ``--flavor``:
each ends with a documented exit code and no traceback; a user mistake is never reported as a
parbleu bug. The streamed path keeps its memory bound when it fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import run_main

from parbleu.cli import ExitCode

HYP = "the cat sat on the mat .\na dog barked\n"
REF = "the cat is on the mat .\nthe dog barked\n"
BOMB = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10}">' for i in range(1, 10))
    + "]>\n<mteval><refset><doc docid='d'><seg id='1'>&lol9;</seg></doc></refset></mteval>\n"
).replace("&lol0;", "&lol;")

BAD_COMMAND_LINES: list[list[str]] = [
    # encodings that are codecs but not text encodings, unknown ones
    ["ref", "-i", "hyp", "-e", "hex"],
    ["ref", "-i", "hyp", "-e", "rot13"],
    ["ref", "-i", "hyp", "-e", "base64"],
    ["ref", "-i", "hyp", "-e", "zlib"],
    ["ref", "-i", "hyp", "-e", "no-such-codec"],
    ["compare", "ref", "-i", "hyp", "hyp2", "-e", "hex"],
    # size-like options
    ["ref", "-i", "hyp", "-w", "100000000000000000000"],
    ["ref", "-i", "hyp", "--max-ngram-order", str(2**31)],
    ["ref", "-i", "hyp", "--max-ngram-order", str(2**63)],
    ["ref", "-i", "hyp", "--max-ngram-order", str(2**64)],
    ["ref", "-i", "hyp", "-m", "chrf", "-cc", str(2**63)],
    ["ref", "-i", "hyp", "-m", "chrf", "-cw", str(2**64)],
    ["ref", "-i", "hyp", "-m", "chrf", "-cc", "-5"],
    ["ref", "-i", "hyp", "-m", "chrf", "--chrf-beta", str(10**400)],
    ["ref", "-i", "hyp", "-ci", "-cin", str(10**12)],
    ["ref", "-i", "hyp", "-ci", "-cin", "0"],
    ["ref", "-i", "hyp", "-ci", "-cin", "-5"],
    ["ref", "-i", "hyp", "hyp2", "-pbs", "-pbsn", str(10**12)],
    ["ref", "-i", "hyp", "hyp2", "-par", "-parn", str(2**64)],
    ["ref", "-i", "hyp", "hyp2", "-par", "-parn", "-1"],
    ["ref", "-i", "hyp", "hyp2", "-pbs", "-j", str(10**9)],
    ["ref", "-i", "hyp", "-nr", str(10**12)],
    ["ref", "-i", "hyp", "-sv", "nan", "-s", "floor"],
    ["ref", "-i", "hyp", "-sv", "1e999", "-s", "add-k"],
    ["compare", "ref", "-i", "hyp", "hyp2", "-w", "100000000000000000000"],
    ["compare", "ref", "-i", "hyp", "hyp2", "--n", str(10**12)],
    ["compare", "ref", "-i", "hyp", "hyp2", "--workers", str(10**20)],
    ["compare", "ref", "-i", "hyp", "hyp2", "--seed", str(2**64)],
    ["explain", "ref", "-i", "hyp", "--flavor", "nltk", "--examples", str(10**20)],
    ["explain", "ref", "-i", "missing", "--flavor", "nltk"],
    # library flavors
    ["--flavor", "nltk", "ref", "-i", "hyp", "--max-order", "0"],
    ["--flavor", "nltk", "ref", "-i", "hyp", "--max-order", str(2**63)],
    ["--flavor", "nltk", "ref", "-i", "hyp", "--smooth", "99"],
    ["--flavor", "nltk", "ref", "-i", "hyp", "--smooth", "x"],
    ["--flavor", "tfnmt", "ref", "-i", "hyp", "--max-order", "-1"],
    ["--flavor", "hf-bleu", "ref", "-i", "hyp", "--max-order", str(10**6)],
    ["--flavor", "coco", "ref", "-i", "hyp", "--max-order", "0"],
    ["--flavor", "nltk", "ref", "-i", "missing"],
    ["--flavor", "nltk", "ref", "-i", "latin1"],
    # tool flavors
    ["--flavor", "fairseq", "-s", "hyp", "-r", "ref", "-o", "0"],
    ["--flavor", "fairseq", "-s", "hyp", "-r", "ref", "-o", "-3"],
    ["--flavor", "fairseq", "-s", "hyp", "-r", "ref", "-o", "9"],
    ["--flavor", "fairseq", "-s", "missing", "-r", "ref"],
    ["--flavor", "fairseq", "-s", "latin1", "-r", "ref"],
    ["--flavor", "t2t", "--translation", "missing", "--reference", "ref"],
    ["--flavor", "t2t", "--translation", "hyp", "--reference", "missing"],
    ["--flavor", "t2t", "--translation", "latin1", "--reference", "ref"],
    ["--flavor", "t2t", "--translation", "."],
    ["--flavor", "multi-bleu", "missing"],
    ["--flavor", "multi-bleu-detok", "."],
    ["--flavor", "mteval-v13a", "-r", "bad.xml", "-s", "bad.xml", "-t", "bad.xml"],
    ["--flavor", "mteval-v14", "-r", "bomb.xml", "-s", "bomb.xml", "-t", "bomb.xml"],
    ["--flavor", "mteval-v13a", "-r", "missing.sgm", "-s", "missing.sgm", "-t", "x.sgm"],
    ["--flavor", "mteval-v13a", "-r", "latin1", "-s", "latin1", "-t", "latin1"],
    ["--flavor", "mteval-v13a", "-r", "ref", "-s", "ref", "-t", "ref", "-d", "x"],
    ["--flavor", "no-such-flavor", "ref"],
    ["--flavor"],
    # files
    ["missing", "-i", "hyp"],
    ["ref", "-i", "."],
    ["ref", "-i", "latin1"],
    ["ref", "-i", "short"],
    ["ref", "-i", "empty"],
    ["ref", "-i", "hyp", "-tok", "spm"],
    ["ref", "-i", "hyp", "-m", "nosuch"],
]


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "hyp").write_text(HYP, encoding="utf-8")
    (tmp_path / "hyp2").write_text(HYP.upper(), encoding="utf-8")
    (tmp_path / "ref").write_text(REF, encoding="utf-8")
    (tmp_path / "short").write_text("one line\n", encoding="utf-8")
    (tmp_path / "empty").write_text("", encoding="utf-8")
    (tmp_path / "latin1").write_bytes("café\nnaïve\n".encode("latin-1"))
    (tmp_path / "bad.xml").write_text("<mteval><refset><doc>", encoding="utf-8")
    (tmp_path / "bomb.xml").write_text(BOMB, encoding="utf-8")
    (tmp_path / "x.sgm").write_text("", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("argv", BAD_COMMAND_LINES, ids=" ".join)
def test_no_internal_error_from_user_input(
    argv: list[str], workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_main(argv, monkeypatch, stdin=HYP.encode(), cwd=workdir)
    assert run.code != ExitCode.INTERNAL, run.err_lines
    assert b"Traceback" not in run.err and b"internal error" not in run.err, run.err_lines
    assert run.code in {int(c) for c in ExitCode} or run.code == 255, run.code  # 255: Perl's die
    if run.code not in (ExitCode.OK, 255):
        assert run.err_lines, "an error must say what went wrong"


def test_streamed_errors_keep_the_memory_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Above REREAD_MAX_BYTES a failed streamed run reports its own error instead of reading
    # every file into memory again to word the in-memory path's message.
    import parbleu.cli.stream as stream_mod

    (tmp_path / "ref").write_text(REF * 50, encoding="utf-8")
    (tmp_path / "hyp").write_text(HYP * 49, encoding="utf-8")
    monkeypatch.setattr(stream_mod, "REREAD_MAX_BYTES", 0)

    def no_full_read(*a: object, **k: object) -> object:
        raise AssertionError("the whole input was read into memory on the error path")

    monkeypatch.setattr("parbleu.cli.read_file_lines", no_full_read)
    monkeypatch.setattr("parbleu.cli.read_ref_streams", no_full_read)
    run = run_main(
        ["ref", "-i", "hyp"], monkeypatch, cwd=tmp_path, env={"PARBLEU_STREAM_MIN_BYTES": "0"}
    )
    assert run.code == ExitCode.ERROR, run.err_lines
    assert len(run.err_lines) == 1
    assert "'hyp'" in run.err_lines[0] and "'ref'" in run.err_lines[0]
    assert "line 99" in run.err_lines[0]
