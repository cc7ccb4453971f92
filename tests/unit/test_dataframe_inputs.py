"""Columns as data libraries hold them: pyarrow arrays, polars and pandas Series.

The libraries are the ``frames`` extra (not in the light test install): without them these tests
skip with the reason; ``.ci/run`` installs it in a step of its own with PARBLEU_REQUIRE=frames.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import sacrebleu

import parbleu
from helpers import require

SAMPLE = Path(parbleu.__file__).parent / "sample"
HYPS = (SAMPLE / "Online-W.de").read_text(encoding="utf-8").splitlines()[:200]
REFS = (SAMPLE / "ref.A.de").read_text(encoding="utf-8").splitlines()[:200]
METRICS = [parbleu.BLEU, parbleu.CHRF, parbleu.TER]
ORACLES = [sacrebleu.BLEU, sacrebleu.CHRF, sacrebleu.TER]


def _columns() -> list[tuple[str, Any, Any]]:
    """(name, hypotheses column, references column) for every installed library."""
    out: list[tuple[str, Any, Any]] = []
    require("pyarrow", extra="frames")
    import pyarrow as pa

    out.append(("pyarrow.Array", pa.array(HYPS), pa.array(REFS)))
    out.append(("pyarrow.large_string", pa.array(HYPS, pa.large_string()), pa.array(REFS)))
    chunked = pa.chunked_array([HYPS[:70], HYPS[70:]])
    out.append(("pyarrow.ChunkedArray", chunked, pa.chunked_array([REFS[:3], REFS[3:]])))
    out.append(("pyarrow.dictionary", pa.array(HYPS).dictionary_encode(), pa.array(REFS)))
    require("polars", extra="frames")
    import polars as pl

    out.append(("polars.Series", pl.Series(HYPS), pl.Series(REFS)))
    require("pandas", extra="frames")
    import pandas as pd

    out.append(("pandas.Series", pd.Series(HYPS), pd.Series(REFS)))
    out.append(
        ("pandas.Series[string]", pd.Series(HYPS, dtype="string"), pd.Series(REFS, dtype="string"))
    )
    return out


@pytest.mark.parametrize("index", range(len(METRICS)))
def test_columns_score_as_lists(index: int) -> None:
    # Regression: pyarrow arrays were refused ("got ChunkedArray; expected a sequence").
    expected = ORACLES[index]().corpus_score(HYPS, [REFS]).score
    metric = METRICS[index]()
    assert metric.corpus_score(HYPS, [REFS]).score == expected
    for name, hyps, refs in _columns():
        assert metric.corpus_score(hyps, [refs]).score == expected, name
        cached = METRICS[index](references=[refs])
        assert cached.corpus_score(hyps, None).score == expected, name
        sentences = metric.sentence_scores(hyps, [refs])
        assert len(sentences) == len(HYPS), name


def test_huggingface_style_table_columns() -> None:
    require("pyarrow", extra="frames")
    import pyarrow as pa

    table = pa.table({"hyp": HYPS, "ref": REFS})
    got = parbleu.corpus_bleu(table["hyp"], [table["ref"]]).score
    assert got == sacrebleu.corpus_bleu(HYPS, [REFS]).score


def test_non_string_arrow_array_is_refused() -> None:
    require("pyarrow", extra="frames")
    import pyarrow as pa

    with pytest.raises(parbleu.InputTypeError, match=r"hypotheses: a pyarrow array of int64"):
        parbleu.BLEU().corpus_score(pa.array([1, 2]), [["a", "b"]])


def test_one_column_as_references_is_refused_with_the_fix() -> None:
    require("pyarrow", extra="frames")
    import pyarrow as pa

    with pytest.raises(parbleu.InputTypeError, match=r"pass \[column\]"):
        parbleu.BLEU().corpus_score(HYPS, pa.array(REFS))


def _missing_hyps() -> list[tuple[str, Any, str]]:
    out: list[tuple[str, Any, str]] = []
    require("pyarrow", extra="frames")
    import pyarrow as pa

    out.append(("pyarrow", pa.array(["a b", None, "c"]), "None"))
    require("polars", extra="frames")
    import polars as pl

    out.append(("polars", pl.Series(["a b", None, "c"]), "None"))
    require("pandas", extra="frames")
    import pandas as pd

    out.append(("pandas object", pd.Series(["a b", math.nan, "c"]), "NaN"))
    out.append(("pandas string", pd.Series(["a b", None, "c"], dtype="string"), "pandas.NA"))
    return out


@pytest.mark.parametrize("metric", METRICS)
def test_missing_hypothesis_names_row_and_fix(metric: type) -> None:
    for name, hyps, kind in _missing_hyps():
        with pytest.raises(parbleu.InputTypeError) as e:
            metric().corpus_score(hyps, [["a", "b", "c"]])
        message = str(e.value)
        assert f"hypotheses[1] is {kind}, a missing value" in message, name
        assert "dropna" in message and "fill_null" in message, name


def test_missing_reference_names_stream_row_and_fix() -> None:
    require("pandas", extra="frames")
    import pandas as pd

    refs = pd.Series(["a", "b", math.nan])
    for metric in METRICS:
        with pytest.raises(parbleu.InputTypeError, match=r"references\[0\]\[2\] is NaN") as e:
            metric().corpus_score(["a", "b", "c"], [refs])
        assert "use None where a segment has no reference" in str(e.value)


def test_null_reference_is_a_missing_reference() -> None:
    # None in a reference stream means "no reference here" (SacreBLEU's convention); an
    # Arrow null reads as None.
    require("pyarrow", extra="frames")
    import pyarrow as pa

    hyps, r1, r2 = ["a b c", "d e f"], ["a b c", None], ["x", "d e f"]
    got = parbleu.BLEU().corpus_score(hyps, [pa.array(r1), pa.array(r2)]).score
    assert got == parbleu.BLEU().corpus_score(hyps, [r1, r2]).score
