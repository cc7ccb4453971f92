"""ImportedScores and its score-file readers: formats, and one clear line per bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parbleu.errors import InvalidOptionError
from parbleu.imported import ImportedScores, imported_from_files, read_scores_file


def _write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_formats(tmp_path: Path) -> None:
    plain = _write(tmp_path, "a.txt", "0.5\n0.25\n")
    assert read_scores_file(plain) == {"": [0.5, 0.25]}
    tsv = _write(tmp_path, "b.tsv", "s1\t1\t2.0\ns1\t0\t1.0\ns2\t0\t3\ns2\t1\t4\n")
    assert read_scores_file(tsv) == {"s1": [1.0, 2.0], "s2": [3.0, 4.0]}
    mtme = _write(tmp_path, "COMET-refA.seg.score", "s1\t0.1\ns1\t0.2\n")
    assert read_scores_file(mtme) == {"s1": [0.1, 0.2]}
    jsonl = _write(tmp_path, "m.jsonl", '{"prediction": 3.5}\n{"prediction": 1}\n')
    assert read_scores_file(jsonl) == {"": [3.5, 1.0]}
    comet = _write(
        tmp_path,
        "c.json",
        json.dumps({"sys.de": [{"src": "a", "COMET": 0.7}, {"COMET": 0.8}]}, indent=2),
    )
    assert read_scores_file(comet) == {"sys.de": [0.7, 0.8]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0.5\nabc\n", r"b\.txt:2: 'abc' is not a number"),
        ("0.5\nnan\n", r"b\.txt:2: 'nan' is not a finite number"),
        ("0.5\ninf\n", r"b\.txt:2: 'inf' is not a finite number"),
        ("0.5\n\n", r"b\.txt:2: missing score"),
        ("", r"b\.txt: no scores \(empty file\)"),
        ("s\t0\t1\ns\t0\t2\n", r"b\.txt:2: duplicate score for system 's' segment 0"),
        ("s\t0\t1\ns\t2\t2\n", r"b\.txt: system 's' has no score for segment\(s\) 1"),
        ('{"score": null}\n', r"b\.txt:1: missing score"),
        ('{"x": 1}\n', r"b\.txt:1: no score field"),
    ],
)
def test_bad_files(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, "b.txt", text)
    with pytest.raises(InvalidOptionError, match=message):
        read_scores_file(path)


def test_from_files_checks_systems_and_counts(tmp_path: Path) -> None:
    a = _write(tmp_path, "a.txt", "1\n2\n")
    b = _write(tmp_path, "b.txt", "3\n4\n5\n")
    s = imported_from_files("X", [a], ["sysA"], 2, higher_is_better=True)
    assert s.scores == {"sysA": [1.0, 2.0]} and s.system_scores() == {"sysA": 1.5}
    with pytest.raises(InvalidOptionError, match=r"b\.txt: 3 scores for system 'sysB', expected 2"):
        imported_from_files("X", [a, b], ["sysA", "sysB"], 2, higher_is_better=True)
    with pytest.raises(InvalidOptionError, match="2 files for 3 systems"):
        imported_from_files("X", [a, b], ["s1", "s2", "s3"], 2, higher_is_better=True)
    keyed = _write(tmp_path, "k.tsv", "s1\t1\ns9\t2\n")
    with pytest.raises(InvalidOptionError, match="missing s2; unknown s9"):
        imported_from_files("X", [keyed], ["s1", "s2"], 1, higher_is_better=True)


def test_direction_is_required_and_signed() -> None:
    with pytest.raises(InvalidOptionError, match="higher_is_better must be given"):
        ImportedScores("MetricX", [1.0, 2.0])
    s = ImportedScores("MetricX", {"a": [1.0, 2.0]}, higher_is_better=False, info="metricx-24-xl")
    assert s.oriented() == {"a": [-1.0, -2.0]}
    assert s.signature() == "MetricX|imported|lower-is-better|metricx-24-xl"
    with pytest.raises(InvalidOptionError, match="segment 1"):
        ImportedScores("X", [1.0, None], higher_is_better=True)  # type: ignore[list-item]


def test_declares_itself_and_a_registered_namesake_changes_nothing() -> None:
    from parbleu.metrics.registry import (
        Capabilities,
        MetricEntry,
        register_metric,
        unregister_metric,
    )

    s = ImportedScores("COMET", {"a": [0.5]}, higher_is_better=True)
    caps = s.capabilities
    assert s.title == "COMET" and s.entry() is None
    assert caps.resample and caps.sentence_scores and not caps.streaming
    register_metric(MetricEntry(name="imported", factory=ImportedScores, help="x",
                                capabilities=Capabilities(resample=False)))  # fmt: skip
    try:
        assert s.capabilities == caps  # not the registered namesake's
    finally:
        unregister_metric("imported")


def test_signature_keeps_provenance_as_fields() -> None:
    s = ImportedScores(
        "X|Y", {"a": [0.5, 1.5]}, higher_is_better=False, info="https://m:1\n", files=["/d/a.txt"]
    )
    assert s.corpus_score(["h1", "h2"], None).score == 1.0
    sig = s.get_signature().format()
    assert sig.startswith("name:X%7CY|direction:lower|info:https%3A//m%3A1%0A|files:a.txt|version:")
    assert all(len(f.split(":")) == 2 for f in sig.split("|"))
    assert s.get_signature().format(short=True).startswith("n:X%7CY|d:lower|i:")


def test_same_outputs_with_different_scores_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="'a' and 'b' have the same hypotheses"):
        ImportedScores("X", {"a": [1.0], "b": [2.0]}, higher_is_better=True,
                       hypotheses={"a": ["x"], "b": ["x"]})  # fmt: skip
