"""``parbleu -t/-l/--echo/--list/--origlang/--subset/-tok flores*`` against SacreBLEU 2.6.0.

Both commands run on one cache folder (``SACREBLEU``) that the test fills as SacreBLEU leaves
it after a download: the archive (any non-empty file: neither tool checks it again) and the
unpacked raw files of wmt22 en-de (WMT XML, two translators, systems, domains) and wmt19 de-en
(WMT SGML, with documents of SacreBLEU's subset annotation). Standard output must be the same
bytes (parbleu's version field rewritten as SacreBLEU's) and the exit codes the same.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from cli_support import Job, as_sacrebleu, run_main, run_sacrebleu

sacrebleu = pytest.importorskip("sacrebleu")
if sacrebleu.__version__ != "2.6.0":  # pragma: no cover
    pytest.skip("these checks compare with SacreBLEU 2.6.0", allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsets"))
from datasets_support import sgml, wmt_xml  # noqa: E402

HYP_XML = (
    "Hyp sysX 0.1\nRef A 0.2 & so\nSource 0.3 text\nHyp 1.1\nRef 1.3\nRef A 2.1 & so\nx\n"
    "Ref B 2.3\n"
)
HYP_SGM = "Hallo Welt . [en]\nZweiter Satz\nDritter Satz .\nVierter\nFünfter Satz . [en]\n"


def _fill_cache(root: Path) -> None:
    raw = root / "wmt22" / "raw"
    xml = raw / "wmt22-news-systems-1.1" / "xml" / "wmttest2022.en-de.all.xml"
    xml.parent.mkdir(parents=True)
    xml.write_bytes(wmt_xml(("A", "B")))
    (raw / "wmt22.v1.1.tar.gz").write_bytes(b"placeholder")
    raw = root / "wmt19" / "raw"
    (raw / "sgm").mkdir(parents=True)
    (raw / "sgm" / "newstest2019-deen-src.de.sgm").write_bytes(sgml("src", "de"))
    (raw / "sgm" / "newstest2019-deen-ref.en.sgm").write_bytes(sgml("ref", "en"))
    (raw / "wmt19.test.tgz").write_bytes(b"placeholder")


CASES = [
    ["--list"],
    ["--list", "-l", "en-de"],
    ["--list", "-t", "wmt19"],
    ["--list", "-t", "wmt22", "-l", "en-de"],
    ["-t", "wmt22", "-l", "en-de", "--echo", "src"],
    ["-t", "wmt22", "-l", "en-de", "--echo", "ref:B", "docid", "origlang", "domain", "sysY"],
    ["-t", "wmt22", "-l", "en-de", "--echo", "src", "ref", "--origlang", "de"],
    ["-t", "wmt22", "-l", "en-de", "--echo", "src", "--subset", "news", "--origlang", "non-de"],
    ["-t", "wmt19", "-l", "de-en", "--echo", "all"],
    ["-t", "wmt19", "-l", "de-en", "--echo", "ref", "src", "--origlang", "de"],
    ["-t", "wmt19", "-l", "de-en", "--echo", "src", "--subset", "country:GB"],
    ["-t", "wmt19", "-l", "de-en", "--echo", "src", "--subset", "politics"],
    ["-t", "wmt22", "-l", "en-de", "-i", "hyp.xml.txt", "-m", "bleu", "chrf", "ter"],
    ["-t", "wmt22", "-l", "en-de", "-i", "hyp.xml.txt", "-f", "text", "--origlang", "en"],
    ["-t", "wmt22", "-l", "en-de", "-i", "hyp.xml.txt", "-f", "text", "-d"],
    ["-t", "wmt19", "-l", "de-en", "-i", "hyp.sgm.txt", "-m", "bleu", "chrf", "-b"],
    ["-t", "wmt19", "-l", "de-en", "-i", "hyp.sgm.txt", "--subset", "politics", "-f", "text"],
    ["-t", "wmt19", "-l", "de-en", "-i", "hyp.sgm.txt", "-sl", "--origlang", "non-de"],
    ["-t", "wmt19,wmt19", "-l", "de-en", "--echo", "src"],
]


def _fields_sorted(out: bytes) -> bytes:
    """SacreBLEU lists the references of a WMT XML file in ``set`` order, which varies."""
    lines = []
    for line in out.decode().splitlines():
        pair, _, fields = line.partition(": ")
        lines.append(pair + ": " + ", ".join(sorted(fields.split(", "))))
    return "\n".join(lines).encode()


def test_same_stdout_as_sacrebleu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    _fill_cache(cache)
    work = tmp_path / "work"
    work.mkdir()
    (work / "hyp.xml.txt").write_text(HYP_XML)
    (work / "hyp.sgm.txt").write_text(HYP_SGM)
    monkeypatch.setenv("SACREBLEU", str(cache))
    expected = run_sacrebleu([Job(c, work) for c in CASES], tmp_path)
    for argv, exp in zip(CASES, expected):
        got = run_main(argv, monkeypatch, cwd=work)
        if argv[:3] == ["--list", "-t", "wmt22"]:
            got.out, exp.out = _fields_sorted(got.out), _fields_sorted(exp.out)
        assert (got.code, as_sacrebleu(got.out)) == (exp.code, exp.out), (argv, got.err)
        assert exp.code == 0 and exp.out, (argv, exp.err)


def test_errors_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    _fill_cache(cache)
    monkeypatch.setenv("SACREBLEU", str(cache))
    for argv, words in [
        (["-t", "nope", "-l", "en-de", "-i", "x"], "unknown test set 'nope'"),
        (["-t", "wmt22", "-i", "x"], "needs a language pair (-l)"),
        (["-t", "wmt22", "-l", "xx-yy", "--echo", "src"], "no language pair 'xx-yy'"),
        (["-t", "wmt22", "-l", "en-de", "--echo", "nofield"], "no field 'nofield'"),
        (["-t", "wmt22", "-l", "en-de", "ref.txt", "-i", "x"], "not both"),
    ]:
        run = run_main(argv, monkeypatch, cwd=tmp_path)
        assert run.code != 0, argv
        lines = run.err_lines
        assert len(lines) == 1 and lines[0].startswith("parbleu: error: "), (argv, lines)
        assert words in lines[0], (argv, lines)
