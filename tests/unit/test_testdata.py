"""The test data comes from the repository (tests/data), complete, and helpers.require's rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import testdata
from helpers import GOLDEN, REPO, SHARED, is_required, require


def test_data_is_the_repository_archive() -> None:
    if os.environ.get("PARBLEU_TESTDATA"):
        pytest.skip("PARBLEU_TESTDATA points the tests at another tree")
    assert SHARED.is_relative_to(testdata.CACHE)
    assert (SHARED / ".complete").is_file()
    # Extracted exactly: every manifest file with its content, nothing else.
    manifest = testdata.read_manifest()
    on_disk = {p.relative_to(SHARED).as_posix() for p in SHARED.rglob("*") if p.is_file()} - {
        ".complete"
    }
    assert on_disk == set(manifest)
    for rel in list(manifest)[::50]:
        assert testdata.digest(SHARED / rel) == manifest[rel], rel


def test_every_input_a_golden_record_names_is_there() -> None:
    missing = set()
    for path in GOLDEN.rglob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").split("\n"):
            rec = json.loads(line) if line.strip() else {}
            names = [rec.get("hyp"), rec.get("file"), *(rec.get("refs") or [])]
            for name in names:
                if isinstance(name, str) and "/" in name and not (SHARED / name).exists():
                    missing.add(f"{path.relative_to(SHARED)}: {name}")
    assert not missing, sorted(missing)[:20]


def test_pack_check_passes() -> None:
    # The same check as .ci/run's generated-files step (works without ../shared).
    out = subprocess.run(
        [
            sys.executable,
            str(REPO / "tools" / "pack_test_data.py"),
            "--check",
            "--shared",
            "/nonexistent",
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr


def test_extraction_is_reused() -> None:
    # A second call finds the completed tree; it does not extract again.
    first = testdata.root()
    mtime = (first / ".complete").stat().st_mtime_ns
    assert testdata.root() == first
    assert (first / ".complete").stat().st_mtime_ns == mtime


def test_override_must_be_a_data_tree(
    monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike[str]
) -> None:
    monkeypatch.setenv("PARBLEU_TESTDATA", str(tmp_path))
    with pytest.raises(testdata.TestDataError, match="no golden/ directory"):
        testdata.root()


def test_require_skips_with_the_extra_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PARBLEU_REQUIRE", raising=False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"pip install -e '\.\[coco\]'"):
        require("parbleu_no_such_module", extra="coco")
    # CI alone does not turn a missing extra into a failure (the README command runs light).
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.skip.Exception):
        require("parbleu_no_such_module", extra="coco")


def test_require_fails_where_the_extra_is_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARBLEU_REQUIRE", "torchmetrics-exact, coco")
    assert is_required("coco") and is_required("x", "torchmetrics-exact")
    assert not is_required("torch")
    with pytest.raises(pytest.fail.Exception, match="required"):
        require("parbleu_no_such_module", extra="coco")
    monkeypatch.setenv("PARBLEU_REQUIRE", "parbleu_no_such_module")
    with pytest.raises(pytest.fail.Exception):
        require("parbleu_no_such_module")


def test_require_fails_under_ci_for_the_default_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PARBLEU_REQUIRE", raising=False)
    monkeypatch.setenv("CI", "1")
    monkeypatch.setattr("helpers.DEFAULT_INSTALL", frozenset({"parbleu_no_such_module"}))
    with pytest.raises(pytest.fail.Exception):
        require("parbleu_no_such_module")
    require("json")  # present: imported, no skip
