"""The Java side of coco: METEOR 1.5 (pycocoevalcap's jar), the PTB tokenizer, ``COCOEvalCap``
and ``evaluate`` against live pycocoevalcap, and one clear error when Java or the jar fails.

Java: the tests that run the real jars need ``java`` on PATH and skip with the reason where it
is missing, even under ``PARBLEU_REQUIRE=coco``; ``PARBLEU_REQUIRE=java`` (set by CI's coco
step, which has Java) makes them fail instead. The failure tests fake ``java`` and the jar, so
they run everywhere.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from helpers import SHARED, is_required, require, requires_shared
from parbleu.errors import MissingDependencyError, TokenizerNotAvailableError
from parbleu.flavors import coco
from parbleu.metrics.caption import meteor as meteor_mod

HAVE_ORIGINAL = importlib.util.find_spec("pycocoevalcap") is not None


def _needs_java() -> None:
    """Run pycocoevalcap's jars: the package and Java, or skip (fail if required)."""
    require("pycocoevalcap", extra="coco")
    if shutil.which("java"):
        return
    if is_required("java"):
        pytest.fail("PARBLEU_REQUIRE names java, but there is no `java` on PATH")
    pytest.skip("no `java` on PATH (METEOR and the PTB tokenizer are Java programs)")


def _captions(count: int) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    root = SHARED / "data" / "captions" / "derived"
    res = json.loads((root / "val2017.loo.hyp.json").read_text(encoding="utf-8"))
    gts = json.loads((root / "val2017.loo.refs.json").read_text(encoding="utf-8"))
    keys = list(gts)[:count]

    def clean(c: str) -> str:
        # Roughly what the PTB tokenizer leaves; it also removes the line breaks that two of
        # these COCO captions hold (test_meteor_refuses_real_line_breaks).
        return " ".join(c.lower().rstrip(" .").split())

    return {k: [clean(c) for c in gts[k]] for k in keys}, {k: [clean(res[k][0])] for k in keys}


@requires_shared
def test_meteor_is_the_originals() -> None:
    _needs_java()
    from pycocoevalcap.meteor.meteor import Meteor

    gts, res = _captions(25)
    gts2 = {k: v for k, v in list(gts.items())[:5]}
    res2 = {k: res[k] for k in gts2}
    orig = Meteor()
    try:
        want, want2 = orig.compute_score(gts, res), orig.compute_score(gts2, res2)
    finally:
        _stop(orig.meteor_p)
    ours = coco.Meteor(backend="jar")
    assert ours.compute_score(gts, res) == want
    # The jar stays up: a second call on another set is the original's too.
    assert ours.compute_score(gts2, res2) == want2
    ours.close()
    # The default, native backend (no Java) gives the same numbers.
    native = coco.Meteor()
    assert native.backend == "native"
    assert native.compute_score(gts, res) == want
    assert native.compute_score(gts2, res2) == want2


def _stop(p: subprocess.Popen[bytes]) -> None:
    """Stop the original's jar and close its pipes (its __del__ leaves them open)."""
    p.kill()
    p.wait()
    for f in (p.stdin, p.stdout, p.stderr):
        if f is not None:
            f.close()


@requires_shared
def test_meteor_refuses_real_line_breaks() -> None:
    # COCO val2017 caption 99053 ends in a line break: the original's SCORE/EVAL exchange then
    # reads a statistics line as a score (ValueError) or pairs later scores with the wrong
    # images. parbleu refuses the caption before writing anything.
    _needs_java()
    root = SHARED / "data" / "captions" / "derived"
    gts = json.loads((root / "val2017.loo.refs.json").read_text(encoding="utf-8"))
    res = json.loads((root / "val2017.loo.hyp.json").read_text(encoding="utf-8"))
    m = coco.Meteor(backend="jar")
    with pytest.raises(meteor_mod.MeteorError, match=r"line break"):
        m.compute_score(gts, res)
    m.close()


class _Coco:
    """A pycocotools ``COCO`` stand-in: ``getImgIds()`` and ``imgToAnns``."""

    def __init__(self, anns: dict[Any, list[dict[str, Any]]]) -> None:
        self.imgToAnns = anns

    def getImgIds(self) -> list[Any]:
        return list(self.imgToAnns)


def _quiet_call(f: Any) -> Any:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return f()


@requires_shared
def test_cocoevalcap_and_evaluate_are_the_originals(monkeypatch: pytest.MonkeyPatch) -> None:
    _needs_java()
    import pycocoevalcap.eval as orig_eval

    class NoSpice:  # SPICE needs CoreNLP models downloaded at run time: left out of both
        def compute_score(self, gts: Any, res: Any) -> tuple[float, list[float]]:
            return 0.0, [0.0] * len(gts)

        def method(self) -> str:
            return "SPICE"

    started: list[Any] = []

    class Meteor(orig_eval.Meteor):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            started.append(self.meteor_p)

    monkeypatch.setattr(orig_eval, "Spice", NoSpice)
    monkeypatch.setattr(orig_eval, "Meteor", Meteor)
    root = SHARED / "data" / "captions" / "derived"
    res = json.loads((root / "val2017.mismatch.hyp.json").read_text(encoding="utf-8"))
    gts = json.loads((root / "val2017.mismatch.refs.json").read_text(encoding="utf-8"))
    keys = list(gts)[:30]
    g = _Coco({int(k): [{"image_id": int(k), "caption": c} for c in gts[k]] for k in keys})
    r = _Coco({int(k): [{"image_id": int(k), "caption": res[k][0]}] for k in keys})

    orig = orig_eval.COCOEvalCap(g, r)
    try:
        _quiet_call(orig.evaluate)
    finally:
        for p in started:
            _stop(p)
    del orig.eval["SPICE"]
    for v in orig.imgToEval.values():
        del v["SPICE"]

    ours = coco.COCOEvalCap(g, r, verbose=False)
    ours.evaluate()
    assert ours.eval == orig.eval
    assert ours.imgToEval == orig.imgToEval
    assert ours.evalImgs == orig.evalImgs
    assert list(ours.eval) == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr"]

    scores, per_image = coco.evaluate(
        {int(k): gts[k] for k in keys}, {int(k): res[k] for k in keys}
    )
    assert scores == orig.eval and per_image == orig.imgToEval


@requires_shared
def test_evaluate_pretokenized_without_java(monkeypatch: pytest.MonkeyPatch) -> None:
    # tokenize=False and no METEOR: no Java at all, the original's scorers' numbers.
    require("pycocoevalcap", extra="coco")
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    monkeypatch.setenv("PATH", "")
    gts, res = _captions(40)
    scores, per_image = coco.evaluate(
        gts, res, metrics=["CIDEr", "Bleu", "ROUGE_L"], tokenize=False
    )
    assert list(scores) == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr"]
    b, bs = _quiet_call(lambda: Bleu(4).compute_score(gts, res))
    c, cs = Cider().compute_score(gts, res)
    rl, rls = Rouge().compute_score(gts, res)
    assert [scores[f"Bleu_{k}"] for k in range(1, 5)] == b
    assert scores["CIDEr"] == c and scores["ROUGE_L"] == rl
    for i, img in enumerate(gts):
        row = per_image[img]
        assert row["image_id"] == img and row["CIDEr"] == cs[i] and row["ROUGE_L"] == rls[i]
        assert [row[f"Bleu_{k}"] for k in range(1, 5)] == [s[i] for s in bs]


# --- Java absent, or the jar failing: one clear error --------------------------------------


@pytest.fixture
def no_java(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))


def _fake_package(monkeypatch: pytest.MonkeyPatch, root: Path, jar: bool = True) -> None:
    (root / "meteor").mkdir(parents=True)
    if jar:
        (root / "meteor" / "meteor-1.5.jar").write_bytes(b"")
    monkeypatch.setattr(meteor_mod, "package_dir", lambda what: root)


def _fake_java(monkeypatch: pytest.MonkeyPatch, bindir: Path, script: str) -> None:
    bindir.mkdir()
    java = bindir / "java"
    java.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    java.chmod(java.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}/usr/bin{os.pathsep}/bin")


def test_meteor_without_java(
    no_java: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _fake_package(monkeypatch, tmp_path / "pkg")
    with pytest.raises(MissingDependencyError, match="METEOR runs a Java program and no `java`"):
        coco.Meteor(backend="jar")


def test_evaluate_without_java_fails_before_any_work(
    no_java: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _fake_package(monkeypatch, tmp_path / "pkg")
    with pytest.raises(MissingDependencyError, match="java"):
        coco.evaluate({1: ["a dog"]}, {1: ["a dog"]}, tokenize=False, java_meteor=True)


def test_ptb_tokenizer_without_java(no_java: None) -> None:
    with pytest.raises(TokenizerNotAvailableError):
        coco.PTBTokenizer(java=True).tokenize({1: [{"caption": "A dog."}]})
    # The default needs no Java: the whole suite but SPICE runs (METEOR natively, from the
    # installed pycocoevalcap's data).
    scores, _ = coco.evaluate({1: ["A dog."]}, {1: ["a dog"]}, metrics=["Bleu", "CIDEr"])
    assert scores["Bleu_1"] > 0.99
    if importlib.util.find_spec("pycocoevalcap") is not None:
        scores, _ = coco.evaluate({1: ["A dog."], 2: ["two cats"]}, {1: ["a dog"], 2: ["a cat"]})
        assert list(scores) == [
            "Bleu_1",
            "Bleu_2",
            "Bleu_3",
            "Bleu_4",
            "METEOR",
            "ROUGE_L",
            "CIDEr",
        ]
        assert 0 < scores["METEOR"] <= 1


def test_meteor_jar_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _fake_package(monkeypatch, tmp_path / "pkg", jar=False)
    with pytest.raises(meteor_mod.MeteorError, match=r"meteor-1\.5\.jar is missing"):
        coco.Meteor(backend="jar")


def test_meteor_package_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    with pytest.raises(MissingDependencyError, match=r"parbleu\[coco\]"):
        coco.Meteor(backend="jar")


@pytest.mark.parametrize(
    ("script", "match"),
    [
        (
            "echo 'Error: Unable to access jarfile' >&2; exit 1",
            "exited with status 1: Error: Unable",
        ),
        (
            "while read l; do echo 'not a number'; echo 'not a number'; done",
            "answered 'not a number', not a score",
        ),
        ("read l; exit 3", "exited with status 3"),
    ],
    ids=["exits 1", "answers nonsense", "dies mid-way"],
)
def test_meteor_jar_failing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, script: str, match: str
) -> None:
    _fake_package(monkeypatch, tmp_path / "pkg")
    _fake_java(monkeypatch, tmp_path / "bin", script)
    m = coco.Meteor(backend="jar")
    with pytest.raises(meteor_mod.MeteorError, match=match) as ei:
        m.compute_score({1: ["a dog"], 2: ["a cat"]}, {1: ["a dog"], 2: ["a cat"]})
    assert str(ei.value).startswith("coco:")
    m.close()


def test_meteor_refuses_line_breaks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The jar reads lines: a caption with a line break would shift every later answer.
    _fake_package(monkeypatch, tmp_path / "pkg")
    _fake_java(monkeypatch, tmp_path / "bin", "while read l; do echo 0.5; done")
    m = coco.Meteor(backend="jar")
    with pytest.raises(meteor_mod.MeteorError, match="line break"):
        m.compute_score({1: ["a\ndog"]}, {1: ["a dog"]})
    m.close()


# --- issue 36's adversarial battery (METEOR) ------------------------------------------------


def test_meteor_lone_surrogate_is_an_error_not_a_hang() -> None:
    # Was: the writer thread died with UnicodeEncodeError and the main thread waited for ever.
    _needs_java()
    from parbleu.errors import InvalidTextError

    m = coco.Meteor(backend="jar")
    try:
        with pytest.raises(InvalidTextError, match=r"res\[1\].*surrogate"):
            m.compute_score({1: ["a dog"]}, {1: ["a \ud800 dog"]})
        assert m.compute_score({1: ["a dog"]}, {1: ["a dog"]})[0] == 1.0  # still usable
    finally:
        m.close()


def test_meteor_after_close_is_one_clear_error() -> None:
    _needs_java()
    m = coco.Meteor(backend="jar")
    m.close()
    with pytest.raises(meteor_mod.MeteorError, match=r"close\(\)"):
        m.compute_score({1: ["a dog"]}, {1: ["a dog"]})
    m.close()  # twice is fine
