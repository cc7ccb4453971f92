"""``parbleu -m rouge``: options through the metric registry, numbers as rouge-score, errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from cli_support import run_main

import parbleu
from helpers import require

require("rouge_score", "rouge")

from rouge_score import rouge_scorer  # noqa: E402

HYP = ["the cat sat on the mat <n> it was happy", "stocks fell sharply on monday", "a b c"]
REF = ["a cat was sitting on the mat <n> the cat looked happy", "shares fell on monday", "a c"]


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    hyp, ref = tmp_path / "sum.hyp", tmp_path / "sum.ref"
    hyp.write_text("\n".join(HYP) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REF) + "\n", encoding="utf-8")
    return str(hyp), str(ref)


def _mean(types: list[str], stem: bool, newline: bool) -> dict[str, float]:
    sc = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    fix = (lambda t: t.replace("<n>", "\n")) if newline else (lambda t: t)
    per = [sc.score(fix(r), fix(h)) for h, r in zip(HYP, REF)]
    return {t: float(np.mean([p[t].fmeasure for p in per])) for t in types}


@pytest.mark.parametrize("stem", [False, True])
def test_rouge_json_equals_rouge_score(
    files: tuple[str, str], monkeypatch: pytest.MonkeyPatch, stem: bool
) -> None:
    hyp, ref = files
    argv = [ref, "-m", "rouge", "-i", hyp, "-b", "-w", "6", "--rouge-newline", "<n>"]
    run = run_main(argv + (["--rouge-stemmer"] if stem else []), monkeypatch)
    assert run.code == 0, run.err
    want = _mean(["rouge1", "rouge2", "rougeL", "rougeLsum"], stem, True)
    assert float(run.out) == round(100 * want["rouge1"], 6)
    run = run_main(
        [ref, "-m", "rouge", "-i", hyp, "--rouge-types", "rouge2", "rougeL", "-f", "json"]
        + (["--rouge-stemmer"] if stem else []),
        monkeypatch,
    )
    assert run.code == 0, run.err
    out = json.loads(run.out)
    assert out["name"] == "ROUGE" and out["types"] == "rouge2+rougeL"
    assert out["stem"] == ("yes" if stem else "no") and out["tok"] == "default"
    assert out["score"] == round(100 * _mean(["rouge2"], stem, False)["rouge2"], 1)


def test_rouge_beside_bleu_and_sentence_level(
    files: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hyp, ref = files
    run = run_main([ref, "-m", "bleu", "rouge", "-i", hyp, "-f", "text"], monkeypatch)
    assert run.code == 0, run.err
    lines = [line.strip() for line in run.out.decode().splitlines()]
    assert lines[0].startswith("BLEU|") and lines[1].startswith("ROUGE|")
    run = run_main([ref, "-m", "rouge", "-i", hyp, "--sentence-level", "-b"], monkeypatch)
    assert run.code == 0, run.err
    sc = rouge_scorer.RougeScorer(["rouge1"])
    want = [round(100 * sc.score(r, h)["rouge1"].fmeasure, 1) for h, r in zip(HYP, REF)]
    assert [float(x) for x in run.out.split()] == want


#: Bad ``-m rouge`` options and words of their one-line message.
BAD_OPTIONS = {
    "--rouge-types rouge10": "-m rouge: rouge type 'rouge10'",
    "--rouge-types rougeX": "rougeX",
    "--rouge-tokenize bogus": "--rouge-tokenize",
    "--rouge-seed -3": "seed",
    "--rouge-seed 99999999999": "seed",
}


@pytest.mark.parametrize(("args", "words"), [(a.split(), w) for a, w in BAD_OPTIONS.items()])
def test_bad_options_are_one_line(
    files: tuple[str, str], monkeypatch: pytest.MonkeyPatch, args: list[str], words: str
) -> None:
    hyp, ref = files
    run = run_main([ref, "-m", "rouge", "-i", hyp, *args], monkeypatch)
    err = run.err.decode()
    assert run.code not in (0, 70), err
    assert words in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.startswith("parbleu: error")]) == 1


def test_mismatched_and_empty_input_are_one_line(
    files: tuple[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _, ref = files
    short = tmp_path / "short.hyp"
    short.write_text("a\n", encoding="utf-8")
    empty = tmp_path / "empty.hyp"
    empty.write_text("", encoding="utf-8")
    for h in (short, empty):
        run = run_main([ref, "-m", "rouge", "-i", str(h)], monkeypatch)
        assert run.code not in (0, 70) and b"Traceback" not in run.err
        assert run.err.count(b"parbleu: error") == 1, run.err


def test_paired_tests_report_each_rouge_type(
    files: tuple[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    hyp, ref = files
    other = tmp_path / "other.hyp"
    other.write_text("\n".join(reversed(HYP)) + "\n", encoding="utf-8")
    for test in ("--paired-bs", "--paired-ar"):
        argv = [ref, "-m", "rouge", "-i", hyp, str(other), test, f"{test}-n", "50", "-f", "json"]
        run = run_main(argv, monkeypatch)
        assert run.code == 0, run.err
        rows = json.loads(run.out)
        types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        assert [k for k in rows[1] if k != "system"] == types
        # Each column's score is that type's mean F-measure, as -m rouge prints it.
        whole = parbleu.ROUGE().corpus_score(list(reversed(HYP)), [REF])
        for t in types:
            assert rows[1][t]["score"] == 100 * whole.mean[t].fmeasure
            assert rows[1][t]["p_value"] is not None


def test_confidence_uses_rouge_bootstrap(
    files: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hyp, ref = files
    argv = [ref, "-m", "rouge", "-i", hyp, "--confidence", "--rouge-seed", "7", "-f", "json"]
    one = json.loads(run_main(argv, monkeypatch).out)
    two = json.loads(run_main(argv, monkeypatch).out)
    assert one == two and "confidence" in one and one["seed"] == "7"


def test_report_has_a_column_per_rouge_type_with_significance(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rng = np.random.default_rng(0)
    words = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "far", "away", "fast", "slow"]
    lines = [" ".join(rng.choice(words, 8)) for _ in range(60)]
    ref = tmp_path / "r.txt"
    ref.write_text("\n".join(lines) + "\n", encoding="utf-8")
    systems = []
    for k in range(2):
        p = tmp_path / f"s{k}.txt"
        p.write_text("\n".join(" ".join(rng.choice(words, 8)) for _ in lines) + "\n")
        systems.append(str(p))
    out = tmp_path / "rep.html"
    argv = ["report", str(ref), "-i", *systems, "--metrics", "bleu", "rouge", "-o", str(out)]
    run = run_main(argv, monkeypatch)
    assert run.code == 0, run.err
    html = out.read_text(encoding="utf-8")
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        assert f"{t} (higher is better)" in html or f">{t}<" in html, t
    data = parbleu.report(
        [lines],
        {f"s{k}": Path(s).read_text(encoding="utf-8").splitlines() for k, s in enumerate(systems)},
        metrics=[parbleu.ROUGE()],
        n=100,
        flavors=[],
    ).data
    cols = data["scores"]
    assert [c["metric"] for c in cols] == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    for c in cols:
        assert set(c["ci"]) == {"s0", "s1"} and len(c["pairs"]) == 1
