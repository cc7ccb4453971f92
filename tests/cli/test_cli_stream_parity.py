"""Streaming and in-memory scoring give the same bytes and exit code for every option.

The command line streams one system's corpus score (cli/stream.py) when the input is large,
or always with ``PARBLEU_STREAM_MIN_BYTES=0``. Each case below runs ``parbleu.cli.main`` in
process twice, with the default threshold (in memory: the files are small) and with ``0``,
and compares standard output, standard error and the exit code exactly. The matrix covers
every option of the main command (a test checks that), several input shapes and bad inputs.
Where streaming applies, a spy checks that it really ran, so the comparison is not vacuous.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest
from cli_support import Run, run_main

import parbleu.cli.stream as stream_mod
from parbleu.cli.parser import build_parser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsets"))
from datasets_support import wmt_xml

_WORDS = [
    "the",
    "cat",
    "sat",
    "on",
    "a",
    "mat",
    ",",
    "dog",
    "runs",
    "über",
    "Straße",
    "42",
    "3.5",
    "it's",
    "no-one",
    "(",
    ")",
    "雨",
    "日本",
    "ÉTÉ",
]


def _sentence(i: int, shift: int) -> str:
    n = 3 + (i * 7 + shift) % 9
    return " ".join(_WORDS[(i * 5 + k * (3 + shift)) % len(_WORDS)] for k in range(n))


N = 120
REF = [_sentence(i, 0) for i in range(N)]
REF2 = [_sentence(i, 2) for i in range(N)]
HYP = [_sentence(i, 1) if i % 4 else REF[i] for i in range(N)]
HYP2 = [_sentence(i, 3) if i % 3 else REF2[i] for i in range(N)]
#: Over 100 lines ending in " .": BLEU's "tokenized period" warning on standard error.
TOKPER = [h + " ." for h in HYP]
HYP_XML = (
    "Hyp sysX 0.1\nRef A 0.2 & so\nSource 0.3 text\nHyp 1.1\nRef 1.3\nRef A 2.1 & so\nx\n"
    "Ref B 2.3\n"
)


def _write(path: Path, lines: list[str]) -> None:
    path.write_bytes("".join(line + "\n" for line in lines).encode("utf-8"))


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("parity")
    _write(d / "ref.txt", REF)
    _write(d / "ref2.txt", REF2)
    _write(d / "hyp.txt", HYP)
    _write(d / "hyp2.txt", HYP2)
    _write(d / "tokper.txt", TOKPER)
    _write(d / "refs.tsv", [f"{a}\t{b}" for a, b in zip(REF, REF2)])
    _write(d / "bad.tsv", [f"{a}\t{b}" if i != 7 else a for i, (a, b) in enumerate(zip(REF, REF2))])
    _write(d / "short.txt", HYP[:50])
    _write(d / "scores.txt", [str((i * 37 % 101) / 100) for i in range(N)])  # --scores
    (d / "empty.txt").write_bytes(b"")
    (d / "crlf.txt").write_bytes("".join(h + "\r\n" for h in HYP).encode())
    (d / "nofinal.txt").write_bytes("\n".join(HYP).encode())
    bad = [h.encode() for h in HYP]
    bad[40] = b"caf\xe9 " + bad[40]
    (d / "badutf8.txt").write_bytes(b"\n".join(bad) + b"\n")
    (d / "latin1.txt").write_bytes("".join(h + "\n" for h in HYP).encode("utf-8"))
    with gzip.open(d / "hyp.gz", "wb") as f:
        f.write("".join(h + "\n" for h in HYP).encode())
    (d / "notgz.gz").write_bytes(b"plain text, not gzip\n" * N)
    (d / "adir").mkdir()
    (d / "hyp.xml.txt").write_text(HYP_XML, encoding="utf-8")
    # COCO's caption JSON (--coco-refs): read in memory, never streamed.
    anns = [{"image_id": k, "caption": r} for k, rs in enumerate(zip(REF, REF2)) for r in rs]
    (d / "ann.json").write_text(json.dumps({"annotations": anns}), encoding="utf-8")
    res = [{"image_id": k, "caption": h} for k, h in enumerate(HYP)]
    (d / "res.json").write_text(json.dumps(res), encoding="utf-8")
    # A SacreBLEU cache holding wmt22 en-de (WMT XML, with origlang and domains), so that
    # -t/--origlang/--subset/--echo run without a network.
    xml = d / "cache" / "wmt22" / "raw" / "wmt22-news-systems-1.1" / "xml"
    xml.mkdir(parents=True)
    (xml / "wmttest2022.en-de.all.xml").write_bytes(wmt_xml(("A", "B")))
    (d / "cache" / "wmt22" / "raw" / "wmt22.v1.1.tar.gz").write_bytes(b"placeholder")
    return d


#: Input shapes: references and hypotheses. Single-system ones with reference files stream.
SHAPES = {
    "one": (["ref.txt", "-i", "hyp.txt"], True),
    "two-refs": (["ref.txt", "ref2.txt", "-i", "hyp.txt"], True),
    "tsv": (["refs.tsv", "-nr", "2", "-i", "hyp.txt"], True),
    "gz": (["ref.txt", "-i", "hyp.gz"], True),
    "tokper": (["ref.txt", "-i", "tokper.txt"], True),
    "two-sys": (["ref.txt", "-i", "hyp.txt", "hyp2.txt"], False),
}

#: Option sets run with every shape: every option of the main command appears somewhere.
OPTIONS: list[list[str]] = [
    [],
    ["-m", "bleu", "chrf", "ter"],
    ["--metrics", "ter", "chrf", "bleu", "chrf"],
    ["-tok", "intl"],
    ["--tokenize", "char", "-lc"],
    ["-tok", "none"],
    ["-tok", "zh", "--lowercase"],
    ["--force"],
    ["-s", "floor"],
    ["--smooth-method", "floor", "--smooth-value", "0.5"],
    ["-s", "add-k", "-sv", "2"],
    ["-s", "none"],
    ["-sv", "0.3"],
    ["--max-ngram-order", "2"],
    ["-m", "chrf", "-cc", "4", "-cw", "2", "--chrf-beta", "1"],
    ["-m", "chrf", "--chrf-char-order", "3", "--chrf-word-order", "1"],
    ["-m", "chrf", "--chrf-whitespace", "--chrf-lowercase", "--chrf-eps-smoothing"],
    ["-m", "ter", "--ter-case-sensitive", "--ter-no-punct"],
    ["-m", "ter", "--ter-normalized", "--ter-asian-support"],
    ["-m", "rouge", "--rouge-types", "rouge1", "rougeL", "--rouge-stemmer"],
    ["-m", "rouge", "bleu", "--rouge-tokenize", "unicode", "--rouge-newline", "<n>"],
    ["-m", "rouge", "--rouge-split-summaries"],
    ["-m", "rouge", "-ci", "-cin", "20", "--rouge-bootstrap", "rouge-score", "--rouge-seed", "3"],
    ["-m", "cider", "rouge-l", "--cider-tokenize", "none", "--rouge-l-tokenize", "ptb"],
    ["-m", "meteor", "--meteor-tokenize", "bogus"],  # refused by argparse before the jar
    ["-m", "bleu-coco", "cider", "--bleu-coco-tokenize", "none"],
    ["-m", "bleu-coco", "-ci", "-cin", "20"],  # refused: COCO's BLEU is not resampled
    ["-w", "3"],
    ["--width", "0", "-m", "bleu", "ter"],
    ["-f", "text"],
    ["--format", "latex"],
    ["-f", "json", "-d"],
    ["--detail", "-f", "text"],
    ["-b"],
    ["--score-only", "-f", "text", "-m", "bleu", "ter"],
    ["--short"],
    ["-sh", "-f", "text"],
    ["-q"],
    ["--quiet", "-tok", "none"],
    ["-nc", "-f", "text"],
    ["--no-color"],
    ["-l", "en-de"],
    ["--language-pair", "en-zh"],
    ["-l", "de"],
    ["-e", "latin-1"],
    ["--hyp-encoding", "latin-1"],  # per-file encodings: in memory (as --scheduler refuses)
    ["-e", "latin-1", "--ref-encoding", "utf-8"],
    ["--encoding", "nope"],
    ["-e", "hex"],
    ["-sl"],
    ["--sentence-level", "-m", "chrf"],
    ["-sl", "-m", "bleu", "chrf"],
    ["-ci", "-cin", "20"],
    ["--confidence", "--confidence-n", "-5"],
    ["-cin", "50"],
    ["-pbs", "-pbsn", "10"],
    ["--paired-bs", "--paired-bs-n", "10", "-m", "chrf"],
    ["-par", "-parn", "10"],
    ["--paired-ar", "--paired-ar-n", "10", "--paired-jobs", "1"],
    ["-j", "2"],
    ["--origlang", "de"],
    ["-ol", "non-de", "--subset", "news"],
    ["--subset", "news", "-m", "chrf"],
    ["-t", "wmt22", "-l", "en-de"],
    ["--test-set", "wmt22"],
    ["--echo", "src"],
    ["--citation"],
    ["--cite", "-t", "wmt22"],
    ["--list"],
    ["-nr", "2"],
    ["--num-refs", "3"],
    ["--scheduler", "local:1", "--origlang", "de"],
    ["--scheduler", "local:1", "-sl"],
    ["--scores", "X=scores.txt", "--higher-is-better", "X", "-w", "3"],
    ["--scores", "X=scores.txt", "--lower-is-better", "X", "--scores-info", "X=m v1", "-m", "chrf"],
    ["--higher-is-better", "Y"],
]

#: Options after which only the in-memory path may run (or the command stops before scoring).
IN_MEMORY = {
    "bleu-coco",  # -m bleu-coco prints four scores (its columns): the in-memory path does
    "-sl",
    "--ref-encoding",
    "--hyp-encoding",
    "--sentence-level",
    "-ci",
    "--confidence",
    "-pbs",
    "--paired-bs",
    "-par",
    "--paired-ar",
    "--origlang",
    "-ol",
    "--subset",
    "-t",
    "--test-set",
    "--echo",
    "--citation",
    "--cite",
    "--list",
    "--scheduler",
    "--scores",
    "--coco-refs",
}

#: Bad inputs, each with a few option sets.
BAD_INPUTS = [
    ["ref.txt", "-i", "short.txt"],
    ["short.txt", "-i", "hyp.txt"],
    ["ref.txt", "short.txt", "-i", "hyp.txt"],
    ["ref.txt", "-i", "empty.txt"],
    ["empty.txt", "-i", "hyp.txt"],
    ["empty.txt", "-i", "empty.txt"],
    ["ref.txt", "-i", "badutf8.txt"],
    ["badutf8.txt", "-i", "hyp.txt"],
    ["bad.tsv", "-nr", "2", "-i", "hyp.txt"],
    ["refs.tsv", "-nr", "3", "-i", "hyp.txt"],
    ["ref.txt", "ref2.txt", "-nr", "2", "-i", "hyp.txt"],
    ["ref.txt", "-i", "missing.txt"],
    ["missing.txt", "-i", "hyp.txt"],
    ["ref.txt", "-i", "adir"],
    ["adir", "-i", "hyp.txt"],
    ["ref.txt", "-i", "notgz.gz"],
    ["ref.txt", "-i", "hyp.txt", "hyp.txt"],
    ["ref.txt", "-i"],
    ["ref.txt"],
    ["-i", "hyp.txt"],
    ["ref.txt", "-i", "crlf.txt"],
    ["ref.txt", "-i", "nofinal.txt"],
    ["ref.txt", "-i", "latin1.txt", "-e", "latin-1"],
    ["-t", "wmt22", "-l", "en-de", "-i", "hyp.xml.txt"],
    ["-t", "wmt22", "-l", "en-de", "ref.txt", "-i", "hyp.txt"],
    ["--coco-refs", "ann.json", "-i", "res.json"],
    ["--coco-refs", "ann.json", "ref.txt", "-i", "hyp.txt"],
]
BAD_OPTIONS: list[list[str]] = [
    [],
    ["-m", "chrf", "ter", "-f", "text"],
    ["--origlang", "de"],
    ["-b", "-tok", "intl"],
    ["-d"],
]

CASES = [
    pytest.param(SHAPES[shape][0] + opts, SHAPES[shape][1], id=f"{shape}:{' '.join(opts)}")
    for shape in SHAPES
    for opts in OPTIONS
] + [
    pytest.param(inp + opts, False, id=f"bad:{' '.join(inp + opts)}")
    for inp in BAD_INPUTS
    for opts in BAD_OPTIONS
]


def _run(
    argv: list[str],
    work: Path,
    monkeypatch: pytest.MonkeyPatch,
    min_bytes: str | None,
    extra_env: dict[str, str] | None = None,
) -> tuple[Run, bool]:
    """Run the command; also say whether a streamed score was printed."""
    streamed: list[bool] = []
    real = stream_mod.stream_scores

    def spy(*a: object, **k: object) -> object:
        scores = real(*a, **k)  # type: ignore[arg-type]
        streamed.append(True)
        return scores

    env = {"SACREBLEU": str(work / "cache"), "SACREBLEU_SEED": "12345", **(extra_env or {})}
    with monkeypatch.context() as mp:
        mp.setattr(stream_mod, "stream_scores", spy)
        if min_bytes is None:
            mp.delenv(stream_mod.ENV_MIN_BYTES, raising=False)
        else:
            env[stream_mod.ENV_MIN_BYTES] = min_bytes
        run = run_main(argv, mp, env=env, cwd=work)
    return run, bool(streamed)


@pytest.mark.parametrize(("argv", "streamable"), CASES)
def test_streamed_equals_in_memory(
    argv: list[str], streamable: bool, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_memory, used = _run(argv, work, monkeypatch, None)
    assert not used  # small files: the default threshold keeps them in memory
    streamed, used = _run(argv, work, monkeypatch, "0")
    assert (streamed.code, streamed.out, streamed.err) == (
        in_memory.code,
        in_memory.out,
        in_memory.err,
    )
    assert streamed.code != 70, streamed.err  # never an internal error
    if IN_MEMORY & set(argv):
        assert not used, "an option only the in-memory path honours was streamed"
    elif streamable and in_memory.code == 0:
        assert used, "this case should have been streamed"


def test_matrix_covers_every_option() -> None:
    """A new option of the main command must join the matrix (and be honoured or refused)."""
    used = {a for case in CASES for a in case.values[0] if isinstance(a, str)}  # type: ignore[union-attr]
    # --help/--version print and exit before any scoring; --download needs a network;
    # --flavor hands the whole command line to another tool's (see tests/flavors).
    skipped = {"help", "version", "download", "flavor", "refs"}
    missing = [
        a.option_strings
        for a in build_parser()._actions
        if a.dest not in skipped and not used & set(a.option_strings)
    ]
    assert not missing


def test_filters_need_a_test_set_on_every_path(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reported bug: streamed --origlang/--subset with reference files scored unfiltered."""
    for opt in (["--origlang", "de"], ["--subset", "news"]):
        run, used = _run(["ref.txt", "-i", "hyp.txt", *opt], work, monkeypatch, "0")
        assert (run.code, run.out, used) == (1, b"", False)
        assert run.err_lines == [
            "parbleu: error: filtering with --origlang or --subset needs a test set (-t) and a "
            "language pair (-l)"
        ]


def test_large_input_refuses_filters_before_reading(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above the re-read bound the streamed error would stand: filters are refused first."""
    monkeypatch.setattr(stream_mod, "REREAD_MAX_BYTES", 0)
    run, used = _run(["ref.txt", "-i", "hyp.txt", "--origlang", "de"], work, monkeypatch, "0")
    assert (run.code, used) == (1, False)
    assert "needs a test set (-t)" in run.err.decode()


def test_scheduler_refuses_in_memory_options(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--scheduler`` scores statistics as streaming does: in-memory options are refused."""
    pytest.importorskip("dask.distributed")
    for opt, flag in ((["-sl"], "--sentence-level"), (["-ci"], "--confidence")):
        run, _ = _run(
            ["ref.txt", "-i", "hyp.txt", "--scheduler", "local:1", *opt], work, monkeypatch, None
        )
        assert run.code == 1
        assert run.err_lines == [
            f"parbleu: error: --scheduler: corpus scores of reference files only; {flag} runs "
            "in memory (drop --scheduler)"
        ]


@pytest.mark.parametrize("inp", BAD_INPUTS, ids=" ".join)
def test_large_inputs_get_one_line_streamed_errors(
    inp: list[str], work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above ``REREAD_MAX_BYTES`` a streamed error stands (no in-memory re-read): still one
    line naming the problem, the in-memory exit code, never a traceback or exit 70."""
    in_memory, _ = _run(inp, work, monkeypatch, None)
    monkeypatch.setattr(stream_mod, "REREAD_MAX_BYTES", 0)
    streamed, _ = _run(inp, work, monkeypatch, "0")
    assert streamed.code == in_memory.code, (streamed.err, in_memory.err)
    if streamed.code == 0:
        assert streamed.out == in_memory.out
    else:
        assert len(streamed.err_lines) == 1, streamed.err_lines
        assert streamed.err_lines[0].startswith("parbleu: error: ")


@pytest.mark.parametrize(
    "env",
    [{"SACREBLEU_FORMAT": "text"}, {"SACREBLEU_FORMAT": "latex"}, {"NO_COLOR": "1"}],
    ids=str,
)
@pytest.mark.parametrize("shape", ["one", "tsv"])
def test_environment_streamed_equals_in_memory(
    env: dict[str, str], shape: str, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Variables that change the output apply to both paths alike."""
    argv = [*SHAPES[shape][0], "-m", "bleu", "chrf", "ter", "-nc"]
    in_memory, _ = _run(argv, work, monkeypatch, None, env)
    streamed, used = _run(argv, work, monkeypatch, "0", env)
    assert (streamed.code, streamed.out, streamed.err) == (
        in_memory.code,
        in_memory.out,
        in_memory.err,
    )
    assert used and streamed.code == 0
