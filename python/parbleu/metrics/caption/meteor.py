"""METEOR 1.5 as pycocoevalcap 1.2 computes it: parbleu's core (default) or the jar.

By default (``backend="native"``) it is parbleu's re-implementation in the Rust core, with no
Java and no jar start-up, reading the installed pycocoevalcap's data. Its statistics are the
jar's on every one of the 101,990 golden segments; a score can differ in its last bit where
Java's ``Math.pow`` and the C library's differ (docs/captioning.md).

``backend="jar"``: :class:`Meteor` starts the jar from the installed pycocoevalcap package
exactly as the original does (``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en -norm``, in the
jar's directory) and speaks the same protocol: one ``SCORE ||| ref ||| ... ||| hyp`` line per
image (the hypothesis with ``|||`` removed and double spaces collapsed once, as the original),
then one ``EVAL ||| stats ||| ...`` line, answered by one score per image and the corpus score.
The numbers are the jar's. The only change: the ``SCORE`` lines are written by a thread while
their answers are read, instead of one round trip per image, so it is not slower than the
original. Java or the package absent, or the jar failing, is one clear error (with the jar's
stderr).

"""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Mapping, Sequence
from typing import IO, Any

from ... import _core
from ...errors import FlavorError, InvalidOptionError, InvalidTextError
from .checks import FLAVOR, captions, check_workers
from .java import java, package_dir

__all__ = ["Meteor", "MeteorError"]

METEOR_JAR = "meteor-1.5.jar"
BACKENDS = ("jar", "native")


class MeteorError(FlavorError, RuntimeError):
    """The METEOR jar failed (exited, or answered something that is not a number)."""


class Meteor:
    """pycocoevalcap's ``Meteor``: loads its data (or starts the jar) once; scores often.

    Parameters
    ----------
    backend
        ``"native"`` (parbleu's core, no Java) or ``"jar"`` (pycocoevalcap's jar, Java).
    workers
        Threads of the native backend (< 1: all cores, as the other COCO scorers; the numbers
        are the same at any count).
    """

    def __init__(self, backend: str = "native", workers: int = -1) -> None:
        if backend not in BACKENDS:
            raise InvalidOptionError(
                f"METEOR: backend={backend!r}: expected one of {', '.join(BACKENDS)}"
            )
        self.backend = backend
        self.closed = False
        self.workers = check_workers(workers)
        self.lock = threading.Lock()
        if backend == "native":
            from ._meteor_native import load_scorer

            self.native = load_scorer()
            return
        jar_dir = package_dir("METEOR") / "meteor"
        if not (jar_dir / METEOR_JAR).is_file():
            raise MeteorError(
                FLAVOR,
                f"METEOR: {jar_dir / METEOR_JAR} is missing from the pycocoevalcap package "
                "(reinstall pycocoevalcap 1.2)",
            )
        self.meteor_cmd = [java("METEOR"), "-jar", "-Xmx2G", METEOR_JAR]
        self.meteor_cmd += ["-", "-", "-stdio", "-l", "en", "-norm"]
        self.meteor_p = subprocess.Popen(
            self.meteor_cmd,
            cwd=jar_dir,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[float, list[float]]:
        """METEOR of ``res`` against ``gts``: ``(corpus score, [score per image])``."""
        ids, hyps, refs = captions(gts, res, "METEOR")
        if self.backend == "native":
            # One call does it all when every caption is acceptable; else nothing is scored
            # and the checks below raise their usual error.
            done = self.native.evaluate(hyps, refs, MAX_CHARS, self.workers)
            if done is not None:
                return done
        _check_lines(ids, hyps, refs)
        _check_surrogates(ids, hyps, refs)
        if self.backend == "native":
            return self._native(ids, hyps, refs)
        lines = [_score_line(h, r) for h, r in zip(hyps, refs)]
        if self.closed:
            raise MeteorError(FLAVOR, "METEOR: the jar was stopped (close()); make a new Meteor")
        with self.lock:
            stats = self._exchange(lines, len(lines))
            eval_line = "EVAL" + "".join(f" ||| {s.decode().strip()}" for s in stats)
            answers = self._exchange([eval_line], len(lines) + 1)
        values = [self._number(v, eval_line) for v in answers]
        return values[-1], values[:-1]

    def _native(
        self, ids: Sequence[Any], hyps: Sequence[str], refs: Sequence[Sequence[str]]
    ) -> tuple[float, list[float]]:
        """Compute in the core: per image the ``SCORE`` statistics, then ``EVAL``.

        What ``MeteorScorer.evaluate`` computes in one call; run when it declines a batch
        (a caption it does not take as it is), after the checks.
        """
        _check_native(ids, hyps, refs)
        # The original's SCORE line drops ``|||`` from the hypothesis and collapses double
        # spaces once; references holding ``|||`` are refused by _check_native.
        tests = [h.replace("|||", "").replace("  ", " ") for h in hyps]
        flat = self.native.stats(tests, [list(r) for r in refs], self.workers)
        rows = [flat[k : k + STATS] for k in range(0, len(flat), STATS)]
        scores = [self.native.score(r) for r in rows]
        return self.native.score(corpus_stats(rows)), scores

    def method(self) -> str:
        """Return the metric's name."""
        return "METEOR"

    def _exchange(self, lines: list[str], answers: int) -> list[bytes]:
        """Write ``lines`` and read ``answers`` lines back.

        A thread writes, so the jar's answers never fill the pipe while it blocks.
        """
        p = self.meteor_p
        stdin, stdout = _pipe(p.stdin), _pipe(p.stdout)
        failed: list[BaseException] = []

        def write() -> None:
            try:
                for line in lines:
                    stdin.write(f"{line}\n".encode())
                stdin.flush()
            except (OSError, UnicodeError) as e:  # reported below, with the jar's stderr
                failed.append(e)
                with contextlib.suppress(OSError):
                    stdin.close()  # the jar sees the end of its input: no wait for ever

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        out = []
        for _ in range(answers):
            v = stdout.readline()
            if not v:
                break
            out.append(v)
        writer.join()
        if len(out) < answers or failed:
            self._fail()
        return out

    def _number(self, v: bytes, eval_line: str) -> float:
        try:
            return float(v.strip())
        except ValueError:
            raise MeteorError(
                FLAVOR,
                f"METEOR: the jar answered {v.decode(errors='replace').strip()!r}, not a score "
                f"(EVAL line starts {eval_line[:200]!r})",
            ) from None

    def _fail(self) -> None:
        p = self.meteor_p
        p.kill()
        p.wait()
        err = _pipe(p.stderr).read().decode(errors="replace").strip()
        _close_pipes(p)
        raise MeteorError(
            FLAVOR,
            f"METEOR: `{' '.join(self.meteor_cmd)}` exited with status {p.returncode}"
            + (f": {err[-2000:]}" if err else ""),
        )

    def close(self) -> None:
        """Stop the jar (also done when the object is collected)."""
        p: subprocess.Popen[bytes] | None = getattr(self, "meteor_p", None)
        if p is None:
            return
        with self.lock:
            self.closed = True
            if p.poll() is None:
                p.kill()
                p.wait()
            _close_pipes(p)

    def __del__(self) -> None:
        self.close()


def _score_line(hypothesis: str, references: Sequence[str]) -> str:
    """Return the original's ``SCORE`` line (``Meteor._stat``)."""
    hypothesis = hypothesis.replace("|||", "").replace("  ", " ")
    return " ||| ".join(("SCORE", " ||| ".join(references), hypothesis))


def _check_lines(ids: Sequence[Any], hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> None:
    """Refuse a caption holding a line break.

    The jar reads it as two lines, so every later answer belongs to another image (the
    original then crashes or scores the wrong images).
    """
    for img, h, rs in zip(ids, hyps, refs):
        for side, c in (("res", h), *(("gts", r) for r in rs)):
            if "\n" in c or "\r" in c:
                raise MeteorError(
                    FLAVOR,
                    f"METEOR: {side}[{img!r}] holds a line break ({c[:60]!r}); the jar reads "
                    "lines, so the original pairs every later score with the wrong image. "
                    "Tokenize first (the PTB tokenizer replaces line breaks) or remove them",
                )


STATS = 23
#: Longest caption the native backend takes, in characters (the jar has no limit but its
#: 2 GB heap; a line this long is a mistake, refused rather than aligned for minutes).
MAX_CHARS = 100_000


def _check_native(ids: Sequence[Any], hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> None:
    """Refuse what the jar would misread or choke on.

    ``|||`` in a reference (the jar splits it into more references), NUL, and captions over
    :data:`MAX_CHARS`.
    """
    for img, h, rs in zip(ids, hyps, refs):
        for side, c in (("res", h), *(("gts", r) for r in rs)):
            where = f"METEOR: {side}[{img!r}]"
            if side == "gts" and "|||" in c:
                raise InvalidTextError(
                    f"{where} holds '|||', the jar's field separator ({c[:60]!r}); the "
                    "original splits it into more references. Remove it"
                )
            if "\0" in c:
                raise InvalidTextError(f"{where} holds a NUL character ({c[:60]!r})")
            if len(c) > MAX_CHARS:
                raise InvalidTextError(f"{where} is {len(c)} characters long (at most {MAX_CHARS})")


def corpus_stats(rows: Sequence[Sequence[float]]) -> list[float]:
    """Sum segment statistics as the jar's ``EVAL`` does.

    Observed on every golden group: a segment matched entirely in one chunk (whose penalty is
    0) adds no chunk to the sum.
    """
    return _core.MeteorScorer.corpus_stats(rows)


def _check_surrogates(
    ids: Sequence[Any], hyps: Sequence[str], refs: Sequence[Sequence[str]]
) -> None:
    """Refuse a lone surrogate: the original fails to encode it (the jar path used to hang)."""
    for img, h, rs in zip(ids, hyps, refs):
        for side, c in (("res", h), *(("gts", r) for r in rs)):
            try:
                c.encode()
            except UnicodeEncodeError:
                raise InvalidTextError(
                    f"METEOR: {side}[{img!r}] holds a lone surrogate ({c[:60]!r}); the "
                    "original cannot encode it either"
                ) from None


def _close_pipes(p: subprocess.Popen[bytes]) -> None:
    for f in (p.stdin, p.stdout, p.stderr):
        if f is not None:
            with contextlib.suppress(OSError):  # a pipe the jar closed first (EPIPE on flush)
                f.close()


def _pipe(f: IO[bytes] | None) -> IO[bytes]:
    if f is None:  # never: the process is started with all three pipes
        raise MeteorError(FLAVOR, "METEOR: the jar's pipes are closed")
    return f
