"""``parbleu --flavor``, ``parbleu explain``, the generated docs page and the flavor tables."""

from __future__ import annotations

import importlib.util
import unicodedata
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from flavor_support import REPO, SHARED, read_lines, records, requires_shared, run_cli

from parbleu.cli.parser import build_parser
from parbleu.errors import FlavorError
from parbleu.flavors import explain, flavor_names, moses, mteval, nltk


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_docs_flavors_md_is_up_to_date() -> None:
    assert _tool("gen_flavor_docs").main(["--check"]) == 0, "run: python tools/gen_flavor_docs.py"


def test_flavor_tables_are_up_to_date() -> None:
    pin = _tool("unicode_pin")
    if unicodedata.unidata_version != pin.PINNED:
        pytest.skip(
            f"the flavor tables are pinned to Unicode {pin.PINNED} (CPython {pin.PINNED_PYTHON}), "
            f"this Python has {unicodedata.unidata_version}: --check runs under the pinned one"
        )
    assert _tool("gen_flavor_tables").main(["--check"]) == 0, (
        "run: python tools/gen_flavor_tables.py"
    )


def test_cli_flavor_names_are_the_registry() -> None:
    (action,) = [a for a in build_parser()._actions if a.dest == "flavor"]
    assert tuple(action.choices or ()) == flavor_names()


@requires_shared
@pytest.mark.parametrize(
    "rec",
    [r for r in records("edge_cases_others/edge_cases.jsonl") if ".moses." in r["id"]][::3]
    + list(records("moses/corpus.jsonl"))[:4],
    ids=lambda r: r["id"],
)
def test_cli_multi_bleu_prints_the_perl_line(rec: dict[str, Any]) -> None:
    name = "multi-bleu-detok" if rec["impl"].endswith("detok.perl") else "multi-bleu"
    argv = ["--flavor", name] + (["-lc"] if rec["options"]["lowercase"] else [])
    argv += [str(SHARED / r) for r in rec["refs"]]
    code, out, err = run_cli(argv, (SHARED / rec["hyp"]).read_bytes())
    assert code == rec["rc"]
    want = (rec["formatted"] + "\n") if rec.get("formatted") else ""
    assert out.decode() == want
    if code == 255:
        assert b"Illegal division by zero" in err


def _esc(x: str) -> str:
    return x.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _sgml(path: Path, kind: str, setid: str, sysid: str, lines: list[str]) -> None:
    attrs = {"src": 'srclang="en"', "ref": 'srclang="en" trglang="de" refid="ref"'}
    attrs["tst"] = 'srclang="en" trglang="de" sysid="sys"'
    segs = "\n".join(f'<seg id="{i + 1}">{_esc(x)}</seg>' for i, x in enumerate(lines))
    path.write_text(
        f'<{kind}set setid="{setid}" {attrs[kind]}>\n<doc docid="doc1" sysid="{sysid}">\n'
        f"{segs}\n</doc>\n</{kind}set>\n",
        encoding="utf-8",
    )


@requires_shared
def test_cli_mteval_matches_the_golden_score(tmp_path: Path) -> None:
    rec = next(
        r
        for r in records("mteval/mteval.jsonl")
        if r["options"]["flags"] == ["-c"] and r["options"]["input_format"] == "sgm"
    )
    hyps = list(read_lines(rec["hyp"]))
    _sgml(tmp_path / "src.sgm", "src", "t", "src", hyps)
    _sgml(tmp_path / "tst.sgm", "tst", "t", "sys", hyps)
    refs = [list(read_lines(p)) for p in rec["refs"]]
    body = []
    for k, r in enumerate(refs):
        segs = "\n".join(f'<seg id="{i + 1}">{_esc(x)}</seg>' for i, x in enumerate(r))
        body.append(
            f'<refset setid="t" srclang="en" trglang="de" refid="r{k}">\n'
            f'<doc docid="doc1" sysid="r{k}">\n{segs}\n</doc>\n</refset>'
        )
    (tmp_path / "ref.sgm").write_text("\n".join(body), encoding="utf-8")
    argv = [
        "--flavor",
        "mteval-v13a",
        "-r",
        str(tmp_path / "ref.sgm"),
        "-s",
        str(tmp_path / "src.sgm"),
        "-t",
        str(tmp_path / "tst.sgm"),
        "-c",
    ]
    code, out, _ = run_cli(argv)
    assert code == 0
    line = rec["score_line"].replace(f'"{rec["score_line"].split(chr(34))[1]}"', '"sys"')
    assert line in out.decode()


@requires_shared
def test_cli_library_flavors(tmp_path: Path) -> None:
    hyp = SHARED / "golden/edge_cases_others/inputs/zero_4gram_matches/hyp.txt"
    ref = SHARED / "golden/edge_cases_others/inputs/zero_4gram_matches/ref0.txt"
    code, out, _ = run_cli(["--flavor", "nltk", str(ref), "-i", str(hyp), "--smooth", "1"])
    h = [x.split() for x in read_lines(str(hyp.relative_to(SHARED)))]
    r = [[x.split()] for x in read_lines(str(ref.relative_to(SHARED)))]
    assert code == 0
    assert (
        out.decode()
        == f"{nltk.corpus_bleu(r, h, smoothing_function=nltk.SmoothingFunction().method1)!r}\n"
    )
    code, out, _ = run_cli(["--flavor", "coco", str(ref), "-i", str(hyp)])
    assert code == 0 and b"ratio:" in out and b"Bleu_4: " in out
    for name in ("tfnmt", "hf-bleu", "torchmetrics", "torchmetrics-sacre"):
        code, out, _ = run_cli(["--flavor", name, str(ref), "-i", str(hyp)])
        assert code == 0 and out
    code, out, _ = run_cli(["--flavor=t2t", "--translation", str(hyp), "--reference", str(ref)])
    assert code == 0 and out.startswith(b"BLEU_uncased = ")
    code, out, _ = run_cli(["--flavor", "fairseq", "-s", str(hyp), "-r", str(ref)])
    assert code == 0 and out.split(b"\n")[1].startswith(b"BLEU4 = ")


def test_cli_flavor_errors_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "h").write_text("\n", encoding="utf-8")
    (tmp_path / "r").write_text("a b\n", encoding="utf-8")
    code, out, err = run_cli(["--flavor", "tfnmt", str(tmp_path / "r"), "-i", str(tmp_path / "h")])
    assert code == 1 and out == b""
    assert err.decode().startswith("parbleu: error: tfnmt: ") and err.count(b"\n") == 1
    code, _, err = run_cli(["--flavor", "nonesuch"])
    assert code == 2 and b"unknown flavor" in err


@requires_shared
@pytest.mark.parametrize("flavor", flavor_names())
def test_explain_ends_at_the_flavor_score(flavor: str) -> None:
    hyps = list(read_lines("data/compare-mt/ted.sys1.eng"))[:300]
    refs = [list(read_lines("data/compare-mt/ted.ref.eng"))[:300]]
    e = explain(hyps, refs, flavor)
    assert e.steps[-1].factor == "exact arithmetic"
    assert e.steps[-1].score == e.flavor_score
    text = e.render()
    assert f"{e.base_score:.4f}" in text and f"{e.flavor_score:.4f}" in text


def test_explain_shows_tokenization_examples() -> None:
    hyps = ["Hello, world!", "the cat"]
    refs = [["Hello , world !", "the cat"]]
    e = explain(hyps, refs, "nltk")
    assert e.steps[0].factor == "tokenization"
    assert e.hyp_tokens == (4, 2 + 2) or e.hyp_tokens[0] > e.hyp_tokens[1]
    assert e.examples and e.examples[0][0] == 0


def test_explain_refuses_input_the_flavor_cannot_score() -> None:
    with pytest.raises(FlavorError):
        explain([""], [["a b"]], "tfnmt")


@requires_shared
def test_cli_explain() -> None:
    hyp = SHARED / "data/compare-mt/ted.sys1.eng"
    ref = SHARED / "data/compare-mt/ted.ref.eng"
    code, out, _ = run_cli(["explain", str(ref), "-i", str(hyp), "--flavor", "multi-bleu"])
    assert code == 0
    text = out.decode()
    assert "tokenization" in text and "exact arithmetic" in text
    res = moses.multi_bleu(
        list(read_lines("data/compare-mt/ted.sys1.eng")),
        [list(read_lines("data/compare-mt/ted.ref.eng"))],
    )
    assert f"{res.score:.4f}" in text


def test_mteval_tokenize_api() -> None:
    assert mteval.tokenize("Hello, World.") == ["hello", ",", "world", "."]
    assert mteval.tokenize("Hello, World.", case_sensitive=True)[0] == "Hello"
