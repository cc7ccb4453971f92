"""What a one-command user pays: numpy is imported only where arrays are returned."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import parbleu
from parbleu.metrics import base

SAMPLE = Path(parbleu.__file__).parent / "sample"


def _modules_after(code: str) -> set[str]:
    """Modules loaded by a fresh interpreter that ran ``code``."""
    prog = code + "\nimport sys; print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    run = subprocess.run(
        [sys.executable, "-c", prog], capture_output=True, text=True, check=True, cwd=SAMPLE
    )
    return set(run.stderr.split("\n")[-2].split())


def test_import_parbleu_does_not_import_numpy() -> None:
    assert "numpy" not in _modules_after("import parbleu")


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_cli_scoring_does_not_import_numpy(metric: str) -> None:
    # Regression: numpy was imported to sum the statistics rows (about 60% of the wall time
    # of `parbleu REF -i HYP -m bleu -b`).
    code = (
        "from parbleu.cli import main\n"
        f"assert main(['ref.A.de', '-i', 'Online-W.de', 'Facebook-AI.de', '-m', '{metric}',"
        " '-q']) == 0"
    )
    assert "numpy" not in _modules_after(code)


def test_corpus_score_does_not_import_numpy() -> None:
    code = (
        "import parbleu\n"
        "h = open('Online-W.de').read().splitlines(); r = open('ref.A.de').read().splitlines()\n"
        "for m in (parbleu.BLEU(), parbleu.CHRF(word_order=2), parbleu.TER()):\n"
        "    m.corpus_score(h, [r])\n"
        "parbleu.corpus_bleu(h, [r]); parbleu.sentence_bleu(h[0], [r[0]])"
    )
    assert "numpy" not in _modules_after(code)


def test_extract_stats_still_returns_arrays() -> None:
    import numpy as np

    stats = parbleu.BLEU().extract_stats(["a b c"], [["a b c"]])
    assert isinstance(stats, np.ndarray) and stats.dtype == np.int64 and stats.shape == (1, 10)


@pytest.mark.parametrize("metric", [parbleu.BLEU(), parbleu.CHRF(word_order=2), parbleu.TER()])
def test_sums_without_numpy_equal_numpy_sums(
    metric: base.Metric,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[type-arg]
) -> None:
    hyps = (SAMPLE / "Online-W.de").read_text(encoding="utf-8").splitlines()
    refs = [(SAMPLE / "ref.A.de").read_text(encoding="utf-8").splitlines()]
    rows = metric.extract_stats(hyps, refs)
    expected = metric.score_from_stats(rows)
    small = metric.corpus_score(hyps, refs)
    monkeypatch.setattr(base, "_PY_SUM_MAX_CELLS", 0)  # the numpy branch
    large = metric.corpus_score(hyps, refs)
    assert small.score == large.score == expected.score
    assert str(small) == str(large) == str(expected)
