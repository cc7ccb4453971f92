"""The native METEOR's compiled paraphrase table (``_meteor_native``'s cache).

A table loaded from the cache scores as the freshly parsed one (hypothesis, on small made-up
tables); a damaged, truncated or stale cache file is rebuilt; a folder that cannot be written
means no cache, not an error; ``PARBLEU_METEOR_CACHE=off`` turns it off. The tables are
made-up ``paraphrase-en.gz`` files beside a copy of the installed jar.
"""

from __future__ import annotations

import gzip
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import require

WORDS = ["a", "dog", "big", "sun", "set", "dusk", "kid", "young", "boy", "runs", "fast"]
SENTENCE = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join)
PHRASE = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)
RECORDS = st.lists(st.tuples(PHRASE, PHRASE), min_size=1, max_size=25)


def _gz(records: list[tuple[str, str]]) -> bytes:
    return gzip.compress("".join(f"0.5\n{a}\n{b}\n" for a, b in records).encode())


@contextmanager
def _installed(records: list[tuple[str, str]], cache: str | None) -> Iterator[Any]:
    """A meteor folder holding the jar and a table of ``records``; the cache in ``cache``."""
    require("pycocoevalcap", extra="coco")
    from parbleu.metrics.caption import _meteor_native

    real = _meteor_native.meteor_dir()
    with tempfile.TemporaryDirectory() as d, pytest.MonkeyPatch.context() as mp:
        base = Path(d)
        (base / "data").mkdir()
        shutil.copy(real / "meteor-1.5.jar", base / "meteor-1.5.jar")
        (base / "data" / "paraphrase-en.gz").write_bytes(_gz(records))
        mp.setattr(_meteor_native, "meteor_dir", lambda: base)
        mp.setattr(_meteor_native, "_cache", {})
        if cache is None:
            mp.delenv(_meteor_native.ENV_CACHE, raising=False)
        else:
            mp.setenv(_meteor_native.ENV_CACHE, cache.replace("{dir}", d))
        yield _meteor_native


def _fresh(m: Any) -> Any:
    """A scorer built anew (the per-process one dropped), through the cache if any."""
    m._cache.clear()
    return m.load_scorer()


def _cache_file(m: Any) -> Path:
    path = m.cache_path(m.meteor_dir() / m.PARAPHRASE)
    assert path is not None
    return Path(path)


def _results(scorer: Any, pairs: list[tuple[str, str]]) -> list[Any]:
    return [(scorer.alignment(t, r), scorer.stats([t], [[r]], 1)) for t, r in pairs]


@settings(max_examples=25, deadline=None)
@given(RECORDS, st.lists(st.tuples(SENTENCE, SENTENCE), min_size=1, max_size=6))
def test_a_cached_table_scores_as_a_freshly_parsed_one(
    records: list[tuple[str, str]], pairs: list[tuple[str, str]]
) -> None:
    with _installed(records, "off") as m:
        want = _results(_fresh(m), pairs)
    with _installed(records, "{dir}/cache") as m:
        first = _results(_fresh(m), pairs)
        assert _cache_file(m).is_file()
        m.gzip = None  # the cache alone: the table is not decompressed again
        try:
            again = _results(_fresh(m), pairs)
        finally:
            m.gzip = gzip
    assert first == want
    assert again == want


PAIR = ("the sun set fast", "dusk came fast")


def _paraphrased(scorer: Any) -> bool:
    return any(c[4] == 3 for c in scorer.alignment(*PAIR)[3])


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],
        lambda b: b[:-1],
        lambda b: b"",
        lambda b: b[:100] + bytes([b[100] ^ 4]) + b[101:],
        lambda b: b[:-3] + bytes([b[-3] ^ 1]) + b[-2:],
        lambda b: b"garbage" * 50,
    ],
    ids=["half", "short-by-one", "empty", "flipped-bit", "flipped-checksum", "garbage"],
)
def test_a_damaged_cache_is_rebuilt(damage: Any) -> None:
    with _installed([("sun set", "dusk")], "{dir}/cache") as m:
        assert _paraphrased(_fresh(m))
        path = _cache_file(m)
        good = path.read_bytes()
        path.write_bytes(damage(good))
        assert _paraphrased(_fresh(m))
        assert path.read_bytes() == good


def test_a_changed_table_invalidates_the_cache() -> None:
    with _installed([("sun set", "dusk")], "{dir}/cache") as m:
        assert _paraphrased(_fresh(m))
        source = m.meteor_dir() / m.PARAPHRASE
        before = _cache_file(m).read_bytes()
        source.write_bytes(_gz([("big dog", "kid")]))
        st_ = source.stat()
        os.utime(source, ns=(st_.st_atime_ns, st_.st_mtime_ns + 10**9))
        assert not _paraphrased(_fresh(m))
        assert _cache_file(m).read_bytes() != before
        # And back: rebuilt again.
        source.write_bytes(_gz([("sun set", "dusk")]))
        assert _paraphrased(_fresh(m))


@pytest.mark.parametrize("where", ["file", "missing-parent-is-a-file"])
def test_an_unwritable_cache_folder_means_no_cache(where: str) -> None:
    with _installed([("sun set", "dusk")], "{dir}/blocker") as m:
        blocker = m.meteor_dir() / "blocker"
        blocker.write_bytes(b"not a folder")
        if where == "missing-parent-is-a-file":
            os.environ[m.ENV_CACHE] = str(blocker / "sub")
        assert _paraphrased(_fresh(m))
        assert blocker.read_bytes() == b"not a folder"
        assert not [p for p in m.meteor_dir().rglob("*") if p.name.startswith(".paraphrase-")]


@pytest.mark.parametrize("value", ["off", "OFF", "0", ""])
def test_the_cache_can_be_turned_off(value: str) -> None:
    with _installed([("sun set", "dusk")], value) as m:
        assert m.cache_path(m.meteor_dir() / m.PARAPHRASE) is None
        assert _paraphrased(_fresh(m))
        written = [*Path(os.environ["SACREBLEU"]).rglob("*"), *m.meteor_dir().rglob("*.bin")]
        assert not [p for p in written if p.is_file()]


def test_the_cache_lives_in_parbleus_cache_folder_by_default() -> None:
    with _installed([("sun set", "dusk")], None) as m:
        _fresh(m)
        path = _cache_file(m)
        assert path.parent == Path(os.environ["SACREBLEU"]) / "meteor"
        assert path.is_file()
        assert path.name.endswith(f".v{m._core.MeteorParaphrases.FORMAT}.bin")
