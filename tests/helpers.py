"""Shared test utilities: where the golden data is, how golden files read their inputs.

``SHARED`` is the data tree (``golden/``, ``data/``) extracted from ``tests/data/testdata.tar.xz``
by :mod:`testdata` (once per archive, at the first import); golden records name their inputs
relative to it. Tests build no other data path.
"""

from __future__ import annotations

import csv
import functools
import importlib
import importlib.util
import io
import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import pytest

import testdata

REPO = testdata.REPO
SHARED = testdata.root()
GOLDEN = SHARED / "golden"
#: The CPython that computed the golden records (their ``env.python``). Its ``sum()`` of floats
#: is in SacreBLEU's BLEU and NLTK's chrF, and CPython 3.12 changed it: tests/conftest.py makes
#: the golden tests sum as this version does (tests/unit/test_golden_python.py checks it).
GOLDEN_PYTHON = (3, 11)


@contextmanager
def golden_sum() -> Iterator[None]:
    """Inside: the core sums floats as :data:`GOLDEN_PYTHON`'s ``sum()`` did, so scores
    compare with golden records to the bit on any interpreter."""
    from parbleu import _core

    was = _core.set_compensated_sum(GOLDEN_PYTHON >= (3, 12))
    try:
        yield
    finally:
        _core.set_compensated_sum(was)


#: Kept for the tests that mark themselves with it: the data is in the repository now, so this
#: never skips (a missing archive is an error at import, not a skip).
requires_shared = pytest.mark.skipif(not GOLDEN.is_dir(), reason="no golden data")


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


def metric_records(rel: str, metric: str) -> dict[str, dict[str, Any]]:
    """The records of one metric in a golden file, by id (a missing file is an error)."""
    return {r["id"]: r for r in records(rel) if r["metric"] == metric}


class _HasSignature(Protocol):
    def get_signature(self) -> Any: ...


def check_signature(rec: dict[str, Any], m: _HasSignature) -> None:
    """The metric's long and short signatures equal the record's (version field aside)."""
    sig = m.get_signature()
    assert sacre_version(sig.format()) == rec["signature"]
    assert sacre_version(sig.format(short=True)) == rec["signature_short"]


@contextmanager
def parbleu_logging_off() -> Iterator[None]:
    """Silence the ``parbleu`` logger (per-segment loops would warn once a segment)."""
    logger = logging.getLogger("parbleu")
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = False


#: The official WMT21 test data: system outputs and references.
WMT21 = SHARED / "data" / "wmt21"


def wmt21_table(metric_prefix: str) -> list[dict[str, str]]:
    """Rows of ``golden/wmt21_official_vs_sacrebleu.tsv`` whose metric starts with the prefix."""
    path = GOLDEN / "wmt21_official_vs_sacrebleu.tsv"
    if not path.exists():
        return []
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [r for r in rows if r["metric"].startswith(metric_prefix)]


def wmt21_file(kind: str, pair: str, name: str) -> str:
    """The one WMT21 file of a system (``system-outputs``) or reference, relative to SHARED."""
    tag = "hyp" if kind == "system-outputs" else "ref"
    found = sorted((WMT21 / kind).glob(f"*.{pair}.{tag}.{name}.*"))
    assert len(found) == 1, (kind, pair, name, found)
    return str(Path(found[0]).relative_to(SHARED))


def wmt21_row_id(row: dict[str, str]) -> str:
    """Test id of a WMT21 table row."""
    return f"{row['pair']}:{row['system']}:{row['metric']}"


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


#: The user's real home, read when the test session starts, before tests/conftest.py points
#: HOME elsewhere (tests/unit/test_isolated_home.py checks that it stays untouched).
REAL_HOME = Path(os.path.expanduser("~")).resolve()

#: Environment variables that name a home, cache or config folder, and where each points
#: inside a test's temporary home (tests/conftest.py, ``_isolated_home``).
HOME_VARIABLES = {
    "HOME": ".",
    "USERPROFILE": ".",
    "SACREBLEU": ".sacrebleu",
    "PARBLEU_METEOR_CACHE": ".sacrebleu/meteor",
    "XDG_CACHE_HOME": ".cache",
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_STATE_HOME": ".local/state",
    "HF_HOME": ".cache/huggingface",
    "HF_DATASETS_CACHE": ".cache/huggingface/datasets",
    "TORCH_HOME": ".cache/torch",
}

#: Modules of the default test install (``.[test,ja,ko]``): under CI a missing one fails.
DEFAULT_INSTALL = frozenset(
    {
        "sacrebleu",
        "nltk",
        "regex",
        "hypothesis",
        "MeCab",
        "mecab_ko",
        "sentencepiece",
    }
)


def required() -> frozenset[str]:
    """Extras and modules this run must exercise: ``PARBLEU_REQUIRE`` (comma-separated).

    The CI step that installs an extra names it there (``PARBLEU_REQUIRE=coco,mkl``), so the
    tests that need it fail instead of skipping when the install is broken.
    """
    names = os.environ.get("PARBLEU_REQUIRE", "")
    return frozenset(n.strip() for n in names.split(",") if n.strip())


#: The NLTK release that parbleu's NLTK flavor and the ROUGE engine's Porter stemmer reproduce
#: (the ``test`` extra pins it on Python >= 3.10; Python 3.9 cannot install it).
NLTK_REPRODUCED = "3.10.4"


def require_reproduced_nltk() -> None:
    """Skip unless the installed NLTK is :data:`NLTK_REPRODUCED`: another release is another
    oracle (NLTK 3.9.2 stems ``DYING`` as ``dy``, not ``die``, and its chrF scores a line of
    ``\\x1c`` differently). Fails instead under CI on Python >= 3.10, where the pin should hold.
    """
    import nltk

    if nltk.__version__ == NLTK_REPRODUCED:
        return
    why = f"parbleu reproduces NLTK {NLTK_REPRODUCED}; NLTK {nltk.__version__} is installed"
    if os.environ.get("CI") and sys.version_info >= (3, 10):
        pytest.fail(why)
    pytest.skip(why, allow_module_level=True)


def is_required(*names: str) -> bool:
    """Whether any of ``names`` (an extra, or a module) is listed in ``PARBLEU_REQUIRE``."""
    return any(n in required() for n in names)


def require(module: str, extra: str | None = None) -> None:
    """Import an optional test dependency, or skip with a reason naming its extra.

    Fails instead of skipping when the module (or its ``extra``) is listed in
    ``PARBLEU_REQUIRE``, and, under CI, when it belongs to the default test install
    (:data:`DEFAULT_INSTALL`): there a skip would hide a broken install.
    """
    if importlib.util.find_spec(module.split(".")[0]) is not None:
        importlib.import_module(module)
        return
    if is_required(module, *([extra] if extra else [])) or (
        os.environ.get("CI") and module in DEFAULT_INSTALL
    ):
        pytest.fail(f"{module} is required here (PARBLEU_REQUIRE or CI) but not installed")
    how = f"pip install -e '.[{extra}]'" if extra else f"install {module}"
    pytest.skip(f"{module} is not installed ({how})", allow_module_level=True)


def default_sigint() -> None:
    """``preexec_fn`` for a child that a test interrupts with SIGINT.

    A shell without job control starts background jobs with SIGINT ignored, and children inherit
    that: Python then installs no KeyboardInterrupt handler and the test's Ctrl-C is lost. The
    child gets the default disposition back before it starts, however the suite was launched.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def sigint_child(code: str, *args: str) -> Iterator[subprocess.Popen[str]]:
    """``python -c code *args`` with the default SIGINT disposition and stdout as a text pipe;
    killed on the way out, whatever the test did."""
    with subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    ) as p:
        try:
            yield p
        finally:
            p.kill()


def child_cpu(p: subprocess.Popen[str]) -> float:
    """CPU seconds (user + system, all threads) the child has used so far, from /proc.

    Tests of how soon a call stops bound this rather than wall time: on a loaded machine the
    wall time from a signal to its handling stretches with the load, the work done does not.
    """
    stat = Path(f"/proc/{p.pid}/stat")
    if not stat.exists():
        pytest.skip("no /proc: the child's CPU time cannot be read here")
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def interrupt_when_ready(p: subprocess.Popen[str], settle: float) -> float:
    """Wait for the child's ``ready`` line, let it run ``settle`` seconds into its work, then
    send SIGINT; returns when it was sent (``time.monotonic()``)."""
    assert p.stdout is not None
    assert p.stdout.readline().strip() == "ready"
    time.sleep(settle)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    return t0


def train_spm_model(path: Path, corpus: list[str], vocab_size: int) -> bytes:
    """A small unigram SentencePiece model trained on ``corpus``, written to ``path``; its bytes.

    Skips the test when sentencepiece is not installed.
    """
    spm = pytest.importorskip("sentencepiece")
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus), model_writer=model, vocab_size=vocab_size,
        character_coverage=1.0, model_type="unigram", minloglevel=2,
    )  # fmt: skip
    path.write_bytes(model.getvalue())
    return model.getvalue()
