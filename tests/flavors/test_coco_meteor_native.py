"""The native METEOR 1.5 (``coco.Meteor(backend="native")``) against the jar.

* Golden (no Java): ``tests/data/meteor/golden.json.xz`` holds the jar's statistics and scores of
  125,645 segments (COCO captions, WMT21 into English, crafted empty and punctuation-only
  lines; see ``tools/gen_meteor_golden.py``). The ``EVAL`` arithmetic must give the jar's
  printed score exactly for every segment and group, and the native statistics must be the
  jar's on every segment.
* Live (the coco CI step, with Java): random statistics through the jar's ``EVAL`` and the
  core's arithmetic, equal bit for bit (hypothesis).
* Bad input: each one clear parbleu error.

The native backend reads the installed pycocoevalcap's data, so these tests need the coco extra.
"""

from __future__ import annotations

import gzip
import json
import lzma
import math
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import is_required, require
from parbleu.errors import (
    InvalidOptionError,
    InvalidTextError,
    MissingDependencyError,
    ParbleuError,
)

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "meteor" / "golden.json.xz"
STATS = 23


def _scorer(paraphrase: bool = False) -> Any:
    require("pycocoevalcap", extra="coco")
    from parbleu.metrics.caption._meteor_native import load_scorer

    return load_scorer(paraphrase=paraphrase)


def _golden() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(lzma.decompress(GOLDEN.read_bytes()))
    return record


def test_eval_arithmetic_is_the_jars_on_every_golden_segment() -> None:
    scorer = _scorer()
    g = _golden()
    stats, scores = g["stats"], g["scores"]
    assert len(stats) == len(scores) > 100_000
    bad = [
        k
        for k, (s, v) in enumerate(zip(stats, scores))
        if s is not None and scorer.score(s) != float(v)
    ]
    # Known: Java's Math.pow and the C library's pow differ by one ulp at (6/23.5)**0.2, the
    # penalty of 6 chunks over 23.5 mean matches (78 segments); nothing else may differ.
    off = [
        k
        for k in bad
        if abs(scorer.score(stats[k]) - float(scores[k])) > 2 * math.ulp(float(scores[k]))
    ]
    assert not off, f"{len(off)} segments differ, first {off[:5]}"
    assert all(stats[k][20] * 47 == (stats[k][21] + stats[k][22]) * 6 for k in bad)
    assert len(bad) <= 100
    members: dict[str, list[list[int]]] = {}
    segs = _golden_inputs()
    for (group, _, _), s in zip(segs, stats):
        if s is not None:
            members.setdefault(group, []).append(s)
    from parbleu.metrics.caption.meteor import corpus_stats

    for group, rows in members.items():
        total = corpus_stats([[float(x) for x in r] for r in rows])
        assert scorer.score(total) == float(g["corpus"][group]), group
    assert len(members) > 90


def _golden_inputs() -> list[tuple[str, str, list[str]]]:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    import gen_meteor_golden
    import testdata

    segs = list(gen_meteor_golden.segments(testdata.root()))
    return segs[: gen_meteor_golden.LIMIT]


def test_native_statistics_are_the_jars_on_every_golden_segment() -> None:
    scorer = _scorer(paraphrase=True)
    g = _golden()
    segs = _golden_inputs()
    assert len(segs) == len(g["stats"])
    pick = [k for k in range(len(segs)) if g["stats"][k] is not None]
    assert len(pick) > 100_000
    tests = [segs[k][1].replace("|||", "").replace("  ", " ") for k in pick]
    flat = scorer.stats(tests, [segs[k][2] for k in pick], 2)
    rows = [[int(x) for x in flat[i : i + STATS]] for i in range(0, len(flat), STATS)]
    differ = [k for r, k in zip(rows, pick) if r != g["stats"][k]]
    assert not differ, f"{len(differ)} segments differ, first {differ[:10]}"


def _needs_java() -> None:
    require("pycocoevalcap", extra="coco")
    if shutil.which("java"):
        return
    if is_required("java"):
        pytest.fail("PARBLEU_REQUIRE names java, but there is no `java` on PATH")
    pytest.skip("no `java` on PATH (the live METEOR oracle is the jar)")


# A consistent row: per module matched test/reference content and function words (equal
# counts but for paraphrases, which may differ in length yet both be present), lengths at least
# the matches, chunks from 1 to the matches.
_stage = st.tuples(st.integers(0, 5), st.integers(0, 3))


@st.composite
def _row(draw: st.DrawFn) -> list[int]:
    stages: list[int] = []
    for k in range(4):
        c, f = draw(_stage)
        if k == 3 and c + f:
            rc, rf = draw(_stage.filter(lambda x: sum(x) > 0))
        else:
            rc, rf = c, f
        stages += [c, rc, f, rf]
    t_m = sum(stages[0::4]) + sum(stages[2::4])
    r_m = sum(stages[1::4]) + sum(stages[3::4])
    extra_t, extra_r = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    t_f = sum(stages[2::4]) + extra_t // 2
    r_f = sum(stages[3::4]) + extra_r // 2
    chunks = draw(st.integers(1, max(1, min(t_m, r_m)))) if t_m else 0
    return [t_m + extra_t, r_m + extra_r, t_f, r_f, *stages, chunks, t_m, r_m]


@settings(max_examples=10, deadline=None)
@given(st.lists(_row(), min_size=1, max_size=60))
def test_eval_matches_the_live_jar(lines: list[list[int]]) -> None:
    _needs_java()
    scorer = _scorer()
    from parbleu.metrics.caption._meteor_native import meteor_dir

    line = "EVAL ||| " + " ||| ".join(" ".join(f"{x}.0" for x in r) for r in lines)
    cmd = ["java", "-jar", "-Xmx2G", "meteor-1.5.jar", "-", "-", "-stdio", "-l", "en", "-a"]
    # An empty paraphrase table: EVAL never reads it, and the jar starts in a second.
    empty = Path(tempfile.gettempdir()) / "parbleu-meteor-empty-paraphrase.gz"
    if not empty.exists():
        empty.write_bytes(gzip.compress(b""))
    out = subprocess.run(
        [*cmd, str(empty)],
        input=line + "\n",
        capture_output=True,
        text=True,
        cwd=meteor_dir(),
        check=True,
        timeout=120,
    ).stdout.split()
    from parbleu.metrics.caption.meteor import corpus_stats

    want = [float(x) for x in out]
    got = [scorer.score([float(x) for x in r]) for r in lines]
    got.append(scorer.score(corpus_stats([[float(x) for x in r] for r in lines])))
    # Bit for bit, but where Java's Math.pow (HotSpot's Intel LIBM intrinsic) and the C
    # library's pow differ by one ulp in the fragmentation penalty (about 0.09% of its inputs;
    # docs/captioning.md), which moves the score by at most two ulps.
    assert all(g == w or abs(g - w) <= 2 * math.ulp(w) for g, w in zip(got, want)), (got, want)
    assert sum(g != w for g, w in zip(got, want)) <= max(1, len(want) // 10)


def _meteor(**kw: Any) -> Any:
    require("pycocoevalcap", extra="coco")
    from parbleu.metrics.caption.meteor import Meteor

    return Meteor(backend="native", **kw)


@pytest.mark.parametrize(
    "caption",
    ["a \ud800 dog", "a\x00dog", "a dog " * 200_000],
    ids=["surrogate", "nul", "1MB"],
)
def test_bad_captions_are_one_clear_error(caption: str) -> None:
    m = _meteor()
    with pytest.raises(InvalidTextError, match=r"res\[1\]"):
        m.compute_score({1: ["a dog"]}, {1: [caption]})


def test_separator_in_a_reference_is_refused() -> None:
    with pytest.raises(InvalidTextError, match=r"gts\[1\].*\|\|\|"):
        _meteor().compute_score({1: ["a ||| dog"]}, {1: ["a dog"]})


def test_separator_in_the_hypothesis_is_dropped_as_the_original_does() -> None:
    m = _meteor()
    assert m.compute_score({1: ["a dog runs"]}, {1: ["a ||| dog runs"]}) == m.compute_score(
        {1: ["a dog runs"]}, {1: ["a dog runs"]}
    )


def test_line_break_and_empty_references_are_refused() -> None:
    m = _meteor()
    with pytest.raises(ParbleuError, match="line break"):
        m.compute_score({1: ["a dog"]}, {1: ["a\ndog"]})
    with pytest.raises(ParbleuError):
        m.compute_score({1: []}, {1: ["a dog"]})


@pytest.mark.parametrize("backend", ["java", "", None])
def test_unknown_backend(backend: Any) -> None:
    require("pycocoevalcap", extra="coco")
    from parbleu.metrics.caption.meteor import Meteor

    with pytest.raises(InvalidOptionError, match="backend"):
        Meteor(backend=backend)


def _fake_meteor_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, para: bytes | None) -> None:
    from parbleu.metrics.caption import _meteor_native
    from parbleu.metrics.caption._meteor_native import meteor_dir

    real = meteor_dir()
    (tmp_path / "data").mkdir()
    shutil.copy(real / "meteor-1.5.jar", tmp_path / "meteor-1.5.jar")
    if para is not None:
        (tmp_path / "data" / "paraphrase-en.gz").write_bytes(para)
    monkeypatch.setattr(_meteor_native, "meteor_dir", lambda: tmp_path)


def test_missing_paraphrase_table_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _scorer()
    _fake_meteor_dir(tmp_path, monkeypatch, None)
    with pytest.raises(MissingDependencyError, match=r"paraphrase-en\.gz.*reinstall"):
        _meteor()


@pytest.mark.parametrize(
    "para",
    [b"not gzip", gzip.compress(b"0.5\nonly a phrase\n"), gzip.compress(b"x\na\nb\n")],
    ids=["not-gzip", "truncated-record", "bad-probability"],
)
def test_damaged_paraphrase_table_is_one_clear_error(
    para: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _scorer()
    _fake_meteor_dir(tmp_path, monkeypatch, para)
    with pytest.raises(ParbleuError, match="damaged"):
        _meteor()


def test_missing_jar_is_one_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _scorer()
    from parbleu.metrics.caption import _meteor_native

    monkeypatch.setattr(_meteor_native, "meteor_dir", lambda: tmp_path)
    with pytest.raises(MissingDependencyError, match=r"meteor-1\.5\.jar"):
        _meteor()


def test_jar_used_after_close_is_one_clear_error() -> None:
    _needs_java()
    from parbleu.metrics.caption.meteor import Meteor, MeteorError

    m = Meteor(backend="jar")
    m.close()
    with pytest.raises(MeteorError, match=r"close\(\)"):
        m.compute_score({1: ["a dog"]}, {1: ["a dog"]})
