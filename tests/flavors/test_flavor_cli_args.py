"""``parbleu --flavor NAME`` command lines: ``-i``, ``--help`` and the printouts of the tools.

Oracles: the tools' own outputs (the Moses advisory as printed by multi-bleu.perl at mosesdecoder
34452895; fairseq-score's ``print(args)`` of its argparse parser), and the flavors' APIs.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest
from flavor_support import run_cli

from parbleu.flavors import coco, fairseq, flavor_names, get_flavor, moses, t2t

TOOL_FLAVORS = tuple(n for n in flavor_names() if get_flavor(n).kind == "tool")

# multi-bleu.perl (mosesdecoder 34452895, line 172) on stderr, recorded from the script.
ADVISORY = (
    "It is not advisable to publish scores from multi-bleu.perl.  The scores depend on your "
    "tokenizer, which is unlikely to be reproducible from your paper or consistent across "
    "research groups.  Instead you should detokenize then use mteval-v14.pl, which has a "
    "standard tokenization.  Scores from multi-bleu.perl can still be used for internal "
    "purposes when you have a consistent tokenizer.\n"
)


def _run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    code, out, err = run_cli(argv, stdin)
    return code, out.decode(), err.decode()


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    paths = {}
    for name, text in {
        "ref": "the cat sat on the mat\nit was 2022 .\n",
        "hyp": "the cat sat on a mat\nit was 2022 .\n",
        "other": "a dog ran\nnothing here\n",
    }.items():
        p = tmp_path / f"{name}.txt"
        p.write_text(text, encoding="utf-8")
        paths[name] = str(p)
    return paths


@pytest.mark.parametrize("name", ["multi-bleu", "multi-bleu-detok"])
def test_multi_bleu_reads_dash_i_as_the_hypotheses(name: str, files: dict[str, str]) -> None:
    want = _run(["--flavor", name, files["ref"]], Path(files["hyp"]).read_bytes())
    assert want[0] == 0 and want[1].startswith("BLEU = ")
    for argv in (
        [files["ref"], "-i", files["hyp"]],
        ["-i", files["hyp"], files["ref"]],
        [files["ref"], f"--input={files['hyp']}"],
    ):
        # Standard input (another file) is ignored when -i names the hypotheses.
        assert _run(["--flavor", name, *argv], Path(files["other"]).read_bytes()) == want


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["REF", "-lc"], "-lc must be the first argument"),
        (["REF", "-x"], "unknown option '-x'"),
        (["REF", "missing.txt"], "reference file 'missing.txt' does not exist"),
        (["REF", "-i"], "-i: expected a hypothesis file"),
    ],
)
def test_multi_bleu_refuses_what_the_script_skips(
    argv: list[str], message: str, files: dict[str, str]
) -> None:
    argv = [files["ref"] if a == "REF" else a for a in argv]
    code, out, err = _run(["--flavor", "multi-bleu", *argv], b"a b c\n")
    assert code != 0 and out == ""
    assert message in err and "Traceback" not in err


def test_multi_bleu_prints_the_scripts_advisory(files: dict[str, str]) -> None:
    code, _, err = _run(["--flavor", "multi-bleu", files["ref"], "-i", files["hyp"]])
    assert code == 0 and err == ADVISORY
    out, err2 = io.StringIO(), io.StringIO()
    moses.main([files["ref"]], False, b"the cat\n", out, err2)
    assert err2.getvalue() == ADVISORY


@pytest.mark.parametrize("name", ["mteval-v13a", "mteval-v14"])
def test_mteval_refuses_dash_i(name: str, files: dict[str, str]) -> None:
    code, out, err = _run(["--flavor", name, "-r", files["ref"], "-i", files["hyp"]])
    assert code == 2 and out == ""
    assert f"-i is not an option of {name}.pl" in err


def test_t2t_and_fairseq_take_dash_i_as_the_hypothesis(files: dict[str, str]) -> None:
    want = _run(["--flavor", "t2t", "--translation", files["hyp"], "--reference", files["ref"]])
    assert want[0] == 0 and "BLEU_cased" in want[1]
    assert _run(["--flavor", "t2t", "-i", files["hyp"], "--reference", files["ref"]]) == want
    want = _run(["--flavor", "fairseq", "-s", files["hyp"], "-r", files["ref"]])
    assert want[0] == 0
    assert _run(["--flavor", "fairseq", "-i", files["hyp"], "-r", files["ref"]]) == want


@pytest.mark.parametrize("name", flavor_names())
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_flavor_help_is_parbleus(name: str, flag: str) -> None:
    code, out, err = _run(["--flavor", name, flag])
    assert code == 0 and err == ""
    assert out.startswith(f"usage: parbleu --flavor {name} ")
    assert "-i" in out


@pytest.mark.parametrize("name", TOOL_FLAVORS)
def test_unknown_options_never_traceback(name: str, files: dict[str, str]) -> None:
    code, _, err = _run(["--flavor", name, "--no-such-option", files["ref"]])
    assert code != 0 and "Traceback" not in err


def test_fairseq_prints_the_namespace_line(files: dict[str, str]) -> None:
    code, out, _ = _run(["--flavor", "fairseq", "-s", files["hyp"], "-r", files["ref"], "-o", "3"])
    # fairseq_cli/score.py's parser (0.12.2), its print(args) on this Python.
    p = argparse.ArgumentParser(description="Command-line script for BLEU scoring.")
    p.add_argument("-s", "--sys", default="-", help="system output")
    p.add_argument("-r", "--ref", required=True, help="references")
    p.add_argument("-o", "--order", default=4, metavar="N", type=int)
    p.add_argument("--ignore-case", action="store_true")
    p.add_argument("--sacrebleu", action="store_true")
    p.add_argument("--sentence-bleu", action="store_true")
    args = p.parse_args(["-s", files["hyp"], "-r", files["ref"], "-o", "3"])
    line = fairseq.score_files(files["hyp"], files["ref"]).result_string(3)
    assert code == 0
    assert out == f"{args}\n{line}\n"
    # Python >= 3.9 prints a Namespace in the parser's order.
    assert out.startswith(f"Namespace(sys={files['hyp']!r}, ref={files['ref']!r}, order=3, ")


def test_t2t_keeps_the_carriage_return_of_crlf_files(tmp_path: Path) -> None:
    # tensor2tensor's tf.gfile read keeps '\r'; the original scores this pair 0.45782274.
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_bytes(b"it was 2022.\r\n")
    hyp.write_bytes(b"it was 2022.\n")
    assert t2t.bleu_wrapper(str(ref), str(hyp)) == pytest.approx(0.45782274, rel=1e-7)
    assert t2t.bleu_wrapper(str(hyp), str(hyp)) == 1.0


def test_coco_compute_score_takes_verbose(capsys: pytest.CaptureFixture[str]) -> None:
    gts = {1: ["a cat sat on the mat"], 2: ["a dog ran far"]}
    res = {1: ["a cat sat on a mat"], 2: ["a dog ran"]}
    quiet = coco.Bleu().compute_score(gts, res, verbose=0)
    assert capsys.readouterr().out == ""
    loud = coco.Bleu().compute_score(gts, res)
    assert "ratio:" in capsys.readouterr().out
    assert quiet == loud
