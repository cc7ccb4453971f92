"""Shared test utilities: where ../shared is, how golden files read their inputs."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
GOLDEN = SHARED / "golden"

requires_shared = pytest.mark.skipif(
    not SHARED.is_dir(), reason="../shared (golden data) is not beside the checkout"
)


@functools.lru_cache(maxsize=512)
def read_lines(rel: str) -> tuple[str, ...]:
    """Read a file as the golden records did: UTF-8, split on '\\n', last empty piece dropped."""
    # Bytes first: read_text() would translate CRLF (the golden records keep '\r').
    text = (SHARED / rel).read_bytes().decode("utf-8")
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return tuple(parts)


def records(rel: str) -> Iterator[dict[str, Any]]:
    """JSON Lines records of a golden file."""
    with open(GOLDEN / rel, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


_VERSION_RE = re.compile(r"(version|v):parbleu-[0-9A-Za-z.+-]+")


def sacre_version(text: str) -> str:
    """Replace parbleu's version field with SacreBLEU 2.6.0's, for byte comparisons."""
    return _VERSION_RE.sub(lambda m: f"{m.group(1)}:2.6.0", text)


def load_refs(rec: dict[str, Any]) -> list[list[str | None]]:
    """Reference streams of a record (lines listed in ``refs_none_lines`` become None)."""
    streams: list[list[str | None]] = [list(read_lines(r)) for r in rec["refs"]]
    none_lines = rec.get("refs_none_lines")
    if none_lines:
        # {stream letter: [line indices]}; the letter names the file ref.<letter>.txt
        for key, idxs in none_lines.items():
            k = next(j for j, p in enumerate(rec["refs"]) if f"ref.{key}." in p)
            for i in idxs:
                streams[k][i] = None
    return streams


def require(module: str) -> None:
    """Import an optional test dependency: skip locally if missing, but fail under CI.

    CI installs every extra (README test command), so a skip there would hide a broken install.
    """
    import importlib
    import os

    if os.environ.get("CI"):
        importlib.import_module(module)
    else:
        pytest.importorskip(module)


def require_extra(module: str, extra: str) -> None:
    """Import a dependency of a heavy extra that CI installs in a later step of its own.

    Locally: skip if missing. Under CI: fail if missing in a step that installed ``extra``
    (``PARBLEU_CI_EXTRAS=torch,evaluate`` in ``.ci/run``), skip in the steps before it.
    """
    import importlib
    import os

    if os.environ.get("CI") and extra in os.environ.get("PARBLEU_CI_EXTRAS", "").split(","):
        importlib.import_module(module)
    else:
        pytest.importorskip(module, reason=f"{module} (extra {extra!r}) is not installed")
