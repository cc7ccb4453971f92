"""Streaming scoring equals in-memory scoring; errors name the line; the CLI streams big files."""

from __future__ import annotations

import gzip
import io
import sys
from pathlib import Path

import pytest
from scale_support import REF_A, REF_C, lines, requires_wmt21, system

import parbleu
from parbleu.cli import main
from parbleu.streaming import FileFormatError, LineReader

pytestmark = requires_wmt21

HYP = REF_A.parent.parent / "system-outputs" / "newstest2021.en-de.hyp.Online-W.de"


def in_memory(metric: object, hyps: list[str], streams: list[list[str]]) -> object:
    return metric.corpus_score(hyps, streams)  # type: ignore[attr-defined]


@pytest.mark.parametrize("block", [1, 7, 250, 1 << 16])
def test_equals_in_memory(block: int) -> None:
    metrics = {"bleu": parbleu.BLEU(), "chrf": parbleu.CHRF(), "chrf++": parbleu.CHRF(word_order=2)}
    if block >= 250:
        metrics["ter"] = parbleu.TER()
    got = parbleu.score_files(str(HYP), [str(REF_A), str(REF_C)], list(metrics), block_lines=block)
    hyps = list(lines(HYP))
    streams = [list(lines(REF_A)), list(lines(REF_C))]
    for name, metric in metrics.items():
        want = in_memory(metric, hyps, streams)
        assert str(got[name]) == str(want)
        assert got[name].score == want.score  # type: ignore[attr-defined]


def test_gzip_tabs_and_metric_objects(tmp_path: Path) -> None:
    hyps = list(system("Facebook-AI"))
    ra, rc = lines(REF_A), lines(REF_C)
    hyp_gz = tmp_path / "hyp.gz"
    with gzip.open(hyp_gz, "wt", encoding="utf-8") as f:
        f.write("\n".join(hyps))  # no final newline
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("".join(f"{a}\t{c}\n" for a, c in zip(ra, rc)), encoding="utf-8")
    bleu = parbleu.BLEU(tokenize="intl", lowercase=True)
    got = parbleu.score_files(str(hyp_gz), str(tsv), bleu, num_refs=2, block_lines=100)
    want = parbleu.BLEU(tokenize="intl", lowercase=True).corpus_score(hyps, [list(ra), list(rc)])
    assert str(got["bleu"]) == str(want)
    assert "nrefs:2" in bleu.get_signature().format()


def test_mismatch_names_the_line(tmp_path: Path) -> None:
    short = tmp_path / "short.hyp"
    short.write_text("\n".join(lines(HYP)[:700]) + "\n", encoding="utf-8")
    with pytest.raises(parbleu.LengthMismatchError, match="line 701"):
        parbleu.score_files(str(short), str(REF_A), block_lines=64)
    with pytest.raises(parbleu.LengthMismatchError, match=r"reference file .*line 701"):
        parbleu.score_files(str(HYP), [str(REF_A), str(short)], block_lines=1000)


def test_decode_error_and_fields_name_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.write_bytes(b"a\nb\nc \xff d\ne\n")
    ok = tmp_path / "ok"
    ok.write_bytes(b"a\nb\nc\ne\n")
    with pytest.raises(FileFormatError, match="line 3"):
        parbleu.score_files(str(bad), str(ok))
    tsv = tmp_path / "tsv"
    tsv.write_bytes(b"a\ta\nb\nc\tc\ne\te\n")
    with pytest.raises(FileFormatError, match=r"line 2.*found 1"):
        parbleu.score_files(str(ok), str(tsv), num_refs=2, block_lines=1)
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    with pytest.raises(parbleu.EmptyInputError):
        parbleu.score_files(str(empty), str(empty))


def test_reader_splits_like_the_cli(tmp_path: Path) -> None:
    p = tmp_path / "f"
    p.write_bytes("a\r\nb\x0bc  \n\u2028d\t\n\nlast".encode())
    with LineReader(str(p), "utf-8", "file") as r:
        assert r.read(2) + r.read(10) == ["a", "b\x0bc", "\u2028d", "", "last"]


def test_progress_callback() -> None:
    calls: list[tuple[int, int]] = []
    parbleu.score_files(
        str(HYP), str(REF_A), "chrf", block_lines=300, progress=lambda d, t: calls.append((d, t))
    )
    assert [d for d, _ in calls] == [300, 600, 900, 1002]
    assert calls[-1] == (1002, 1002)


def _cli(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, bytes, str]:
    out = io.BytesIO()
    err = io.StringIO()

    stdout = io.TextIOWrapper(out, encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", err)
    code = main(argv)
    stdout.flush()
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    "extra",
    [
        [],
        ["-m", "bleu", "chrf", "ter", "-b"],
        ["-f", "json", "-m", "chrf", "--chrf-word-order", "2"],
        ["-tok", "intl", "-lc", "--short"],
    ],
)
def test_cli_streaming_output_is_identical(
    extra: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [str(REF_A), str(REF_C), "-i", str(HYP), *extra]
    monkeypatch.delenv("PARBLEU_STREAM_MIN_BYTES", raising=False)
    in_mem = _cli(argv, monkeypatch)
    monkeypatch.setenv("PARBLEU_STREAM_MIN_BYTES", "0")
    import parbleu.cli.stream as stream_mod

    used: list[bool] = []
    real = stream_mod.stream_scores

    def spy(*a: object, **k: object) -> object:
        used.append(True)
        return real(*a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(stream_mod, "stream_scores", spy)
    streamed = _cli(argv, monkeypatch)
    assert used == [True]
    assert streamed == in_mem and in_mem[0] == 0


def test_cli_streaming_errors_fall_back_to_the_same_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    short = tmp_path / "short.hyp"
    short.write_text("\n".join(lines(HYP)[:10]) + "\n", encoding="utf-8")
    argv = [str(REF_A), "-i", str(short)]
    in_mem = _cli(argv, monkeypatch)
    monkeypatch.setenv("PARBLEU_STREAM_MIN_BYTES", "0")
    assert _cli(argv, monkeypatch) == in_mem
    assert in_mem[0] == 1 and "10 lines" in in_mem[2] and "1002" in in_mem[2]
