"""A toy metric that subclasses nothing but the contract works on every surface.

``toy_metric.py`` holds the whole metric (the class, its capabilities and option schema in
its registry entry). Registered, it is a ``-m`` choice with its generated options in
``parbleu --help`` and ``parbleu metrics``, and it runs through significance, ``parbleu
compare``, ``--paired-bs``, the report, streaming, Dask and ``compute_metrics``; a surface it
lacks a capability for (``pairwise``) refuses it by name. The last tests count, from the code
itself, what such an addition takes.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import toy_metric
from toy_metric import NAME, ToyF1

import parbleu
from helpers import require
from parbleu.cli import main
from parbleu.errors import InvalidOptionError
from parbleu.metrics.registry import get_metric, make_metric, metric_names

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "python" / "parbleu" / "sample"
N = 120
REFS = (SAMPLE / "ref.A.de").read_text(encoding="utf-8").splitlines()[:N]
SYS = {
    name: (SAMPLE / f"{name}.de").read_text(encoding="utf-8").splitlines()[:N]
    for name in ("Online-W", "Facebook-AI")
}
HYPS = SYS["Online-W"]


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    toy_metric.register()
    yield
    toy_metric.unregister()


def _expected(hyps: list[str], lowercase: bool = False) -> float:
    m = ToyF1(lowercase=lowercase)
    segs = [m.segment_score(h, [r]) for h, r in zip(hyps, REFS)]
    total = 0.0
    for s in segs:  # row after row, as the metric adds its rows (sum() compensates since 3.12)
        total += s
    return total / len(segs)


def _files(tmp_path: Path) -> tuple[str, str, str]:
    out = []
    for name, lines in (("ref.de", REFS), ("a.de", HYPS), ("b.de", SYS["Facebook-AI"])):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(str(tmp_path / name))
    return out[0], out[1], out[2]


def test_registered_with_its_declarations(capsys: pytest.CaptureFixture[str]) -> None:
    assert NAME in metric_names() and isinstance(make_metric(NAME), ToyF1)
    assert ToyF1().capabilities is get_metric(NAME).capabilities
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert NAME in out and "ToyF1 related arguments" in out and "--toyf1-lowercase" in out
    assert main(["metrics", "-f", "json"]) == 0
    row = next(r for r in json.loads(capsys.readouterr().out) if r["name"] == NAME)
    assert row["capabilities"]["resample"] and not row["capabilities"]["pairwise"]


def test_corpus_score_is_the_mean_and_the_option_reaches_it(tmp_path: Path) -> None:
    assert ToyF1().corpus_score(HYPS, [REFS]).score == _expected(HYPS)
    ref, a, _ = _files(tmp_path)
    assert parbleu.score_files(a, ref, [NAME])[NAME].score == _expected(HYPS)
    with pytest.raises(InvalidOptionError, match=r"^lowercase='yes': expected True or False"):
        ToyF1(lowercase="yes")  # type: ignore[arg-type]


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, a, _ = _files(tmp_path)
    assert main([ref, "-i", a, "-m", NAME, "-b", "-w", "6"]) == 0
    assert float(capsys.readouterr().out) == round(_expected(HYPS), 6)
    assert main([ref, "-i", a, "-m", NAME, "--toyf1-lowercase", "-b", "-w", "6"]) == 0
    assert float(capsys.readouterr().out) == round(_expected(HYPS, lowercase=True), 6)


def test_streaming_gives_the_in_memory_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ref, a, _ = _files(tmp_path)
    assert main([ref, "-i", a, "-m", NAME, "bleu"]) == 0
    in_memory = capsys.readouterr().out
    monkeypatch.setenv("PARBLEU_STREAM_MIN_BYTES", "0")
    assert main([ref, "-i", a, "-m", NAME, "bleu"]) == 0
    assert capsys.readouterr().out == in_memory
    acc = ToyF1().accumulator()
    for i in range(0, N, 37):
        acc.update(HYPS[i : i + 37], [REFS[i : i + 37]])
    assert acc.result().score == ToyF1().corpus_score(HYPS, [REFS]).score


def test_significance_resamples_it_in_the_core() -> None:
    from parbleu.significance import compare_all, confidence_interval

    m = ToyF1()
    ci = confidence_interval(m, HYPS, [REFS], n=200, seed=3)
    assert ci.score == _expected(HYPS) and ci.low < ci.score < ci.high
    comp = compare_all(m, SYS, [REFS], n=200)
    mc = comp.metrics[0]
    assert mc.metric == "ToyF1" and len(mc.pairs) == 1 and set(mc.intervals) == set(SYS)
    assert mc.scores["Facebook-AI"] == _expected(SYS["Facebook-AI"])
    same = compare_all(m, {"a": HYPS, "b": list(HYPS)}, [REFS], n=200, test="ar")
    assert same.metrics[0].pairs[0].p_value == 1.0  # identical systems


def test_compare_and_paired_tests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, a, b = _files(tmp_path)
    assert main(["compare", ref, "-i", a, b, "-m", NAME, "--n", "100"]) == 0
    assert "ToyF1 (higher is better)" in capsys.readouterr().out
    assert main([ref, "-i", a, b, "-m", NAME, "--paired-bs", "--paired-bs-n", "100"]) == 0
    assert "ToyF1" in capsys.readouterr().out


def test_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = parbleu.report([REFS], SYS, metrics=[ToyF1()], n=100, flavors=[]).data
    (sec,) = data["scores"]
    assert sec["metric"] == "ToyF1" and set(sec["ci"]) == set(SYS) and len(sec["pairs"]) == 1
    assert data["sentence"][0]["scores"]["Online-W"][0] == ToyF1().segment_score(HYPS[0], [REFS[0]])
    ref, a, b = _files(tmp_path)
    out = tmp_path / "r.html"
    argv = ["report", ref, "-i", a, b, "-o", str(out), "--n", "50", "-m", NAME, "bleu", "-q"]
    assert main(argv) == 0, capsys.readouterr().err
    page = re.search(r'id="parbleu-data"[^>]*>(.*?)</script>', out.read_text(), re.S)
    assert page is not None
    assert [m["metric"] for m in json.loads(page.group(1))["scores"]] == ["ToyF1", "BLEU"]


def test_meta(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``parbleu meta -m toyf1`` correlates the toy's own scores with human scores, as the API."""
    from parbleu.metaeval import agreement, computed_scores, human_from_mtme

    systems = {
        name: (SAMPLE / f"{name}.de").read_text(encoding="utf-8").splitlines()[:N]
        for name in ("Online-W", "Facebook-AI", "VolcTrans-GLAT")
    }
    rng = np.random.default_rng(3)
    human = tmp_path / "human.seg.score"
    human.write_text(
        "".join(f"{s}\t{rng.normal():.6f}\n" for s in systems for _ in range(N)), encoding="utf-8"
    )
    ref = tmp_path / "ref.de"
    ref.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    hyps = []
    for s, lines in systems.items():
        (tmp_path / f"{s}.de").write_text("\n".join(lines) + "\n", encoding="utf-8")
        hyps.append(f"{s}={tmp_path / f'{s}.de'}")
    argv = ["meta", "--human-seg", str(human), "-r", str(ref), "-i", *hyps, "-m", NAME, "bleu"]
    assert main([*argv, "--k", "5", "--bootstrap", "3", "-f", "json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert set(table["seg"]["metrics"]) == {"ToyF1", "BLEU"}
    scores = computed_scores({"ToyF1": make_metric(NAME)}, systems, [REFS])["ToyF1"]
    direct = agreement(human_from_mtme(str(human)), {"ToyF1": scores})
    assert direct["seg"]["metrics"]["ToyF1"] == table["seg"]["metrics"]["ToyF1"]
    assert direct["sys"]["metrics"]["ToyF1"] == table["sys"]["metrics"]["ToyF1"]


def test_compute_metrics() -> None:
    from parbleu.integrations.evaluate import compute_metrics

    vocab = sorted({w for line in HYPS[:20] + REFS[:20] for w in line.split()})
    ids = {w: i + 1 for i, w in enumerate(vocab)}

    class Tok:
        pad_token_id = 0

        def batch_decode(self, rows: object, skip_special_tokens: bool = True) -> list[str]:
            return [" ".join(vocab[i - 1] for i in row if i > 0) for row in rows]  # type: ignore[attr-defined]

    def encode(lines: list[str]) -> np.ndarray:  # type: ignore[type-arg]
        width = max(len(x.split()) for x in lines)
        out = np.zeros((len(lines), width), dtype=np.int64)
        for k, line in enumerate(lines):
            row = [ids[w] for w in line.split()]
            out[k, : len(row)] = row
        return out

    got = compute_metrics(Tok(), [NAME])((encode(HYPS[:20]), encode(REFS[:20])))
    hyps = [" ".join(h.split()) for h in HYPS[:20]]
    assert got == {
        NAME: ToyF1().corpus_score(hyps, [[" ".join(r.split()) for r in REFS[:20]]]).score
    }


def test_dask(tmp_path: Path) -> None:
    require("distributed", "dask")
    from distributed import Client, LocalCluster

    from parbleu.distributed import score_files

    ref, a, _ = _files(tmp_path)
    with (
        LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        got = score_files(a, ref, [ToyF1()], scheduler=client, part_lines=25)
    assert next(iter(got.values())).score == ToyF1().corpus_score(HYPS, [REFS]).score


def test_a_surface_it_cannot_serve_says_so() -> None:
    with pytest.raises(InvalidOptionError, match=r"^pairwise: metric ToyF1 lacks the 'pairwise'"):
        parbleu.pairwise(HYPS[:3], REFS[:3], NAME)


# --- what the addition took, counted from the code ------------------------------------------
def _code_files() -> list[Path]:
    return [
        p
        for top in ("python", "tests", "tools", "benchmarks")
        for p in sorted((REPO / top).rglob("*.py"))
    ]


def test_the_addition_is_at_most_five_hand_written_files() -> None:
    """Every code file naming the toy (its module, registry name or class) is part of it."""
    pattern = re.compile(r"\b(toy_metric|ToyF1|toyf1)\b")
    naming = sorted(
        str(p.relative_to(REPO))
        for p in _code_files()
        if pattern.search(p.read_text(encoding="utf-8", errors="replace"))
    )
    assert naming == ["tests/unit/test_toy_metric.py", "tests/unit/toy_metric.py"]
    assert len(naming) <= 5
    assert not [f for f in naming if f.startswith("python/")]  # parbleu itself is not edited


def test_a_metric_needs_only_the_contract_and_the_registry() -> None:
    """The toy's module imports of parbleu: the contract it subclasses and the registry."""
    tree = ast.parse((REPO / "tests" / "unit" / "toy_metric.py").read_text(encoding="utf-8"))
    used = {
        n.module
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("parbleu")
    }
    assert used == {"parbleu.metrics.contract", "parbleu.metrics.registry"}
    bases = [ast.unparse(b) for n in ast.walk(tree) if isinstance(n, ast.ClassDef) for b in n.bases]
    assert bases == ["SegmentMean"]
