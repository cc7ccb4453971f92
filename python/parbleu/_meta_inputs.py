"""Human scores for ``parbleu meta``: WMT's DA files and a plain TSV.

WMT DA (``ad-seg-scores-XX-YY.csv``, ``ad-sys-scores-XX-YY.csv``, as in WMT21's
``humaneval/newstest2021-toen``): space-separated, with a header. A segment row is
``SYS SID RAW.SCR Z.SCR N``, a system row ``RAW.SCR Z.SCR N SYS N.ALL``. ``SYS`` is the system
name plus ``.<index>`` (``Online-A.12``), removed here. ``SID`` k is not line k: it is the k-th
segment when the test set's documents are sorted by document id (plain string order), segments
in text order inside each document, so mapping SIDs to lines needs the test set's document ids
(a ``docs`` file: one ``DOMAIN DOCID`` line per text line, MTME's ``documents/*.docs``).

Plain TSV: ``system<TAB>segment<TAB>score`` (segment: 1-based line of the test set) for
segment scores, ``system<TAB>score`` for system scores; a (system, segment) without a line
has no human score.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from parbleu.errors import InvalidOptionError
from parbleu.metrics.imported import score_value

__all__ = ["HumanScores", "read_da", "read_docs", "read_human_tsv", "sid_to_line"]

Scores = dict[str, "list[float | None]"]

_INDEX = re.compile(r"\.\d+$")
_SEG_HEADER = ("SYS", "SID", "RAW.SCR", "Z.SCR", "N")
_SYS_HEADER = ("RAW.SCR", "Z.SCR", "N", "SYS", "N.ALL")


@dataclasses.dataclass
class HumanScores:
    """Human scores per system: segment scores (``None``: not judged) and system scores.

    Attributes
    ----------
    seg : dict or None
        System to its segment scores, one per test-set line.
    sys : dict or None
        System to ``[score]``.
    source : str
        Where they came from (files), for messages and the JSON output.
    """

    seg: Scores | None
    sys: Scores | None
    source: str


def _lines(path: str) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise InvalidOptionError(f"{path}: cannot read ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise InvalidOptionError(f"{path}: not UTF-8 text ({e.reason})") from None


def read_docs(path: str) -> list[str]:
    """Document id of every test-set line (MTME's ``*.docs``: ``DOMAIN DOCID`` per line)."""
    docs = []
    for no, line in enumerate(_lines(path), 1):
        parts = line.split()
        if len(parts) != 2:
            raise InvalidOptionError(f"{path}:{no}: expected 'DOMAIN DOCID', got {line!r}")
        docs.append(parts[1])
    if not docs:
        raise InvalidOptionError(f"{path}: no lines (empty file)")
    return docs


def sid_to_line(docs: list[str]) -> list[int]:
    """0-based text line of each WMT DA segment id (``result[sid - 1]``).

    Documents sorted by id (plain string order, so ``text_10 < text_105 < text_11``), segments
    in text order inside each document.
    """
    return sorted(range(len(docs)), key=lambda i: (docs[i], i))


def _system(name: str) -> str:
    return _INDEX.sub("", name)


def _header(path: str, lines: list[str]) -> tuple[str, ...]:
    if not lines:
        raise InvalidOptionError(f"{path}: no lines (empty file)")
    head = tuple(lines[0].split())
    if head not in (_SEG_HEADER, _SYS_HEADER):
        raise InvalidOptionError(
            f"{path}:1: not a WMT DA file: expected the header {' '.join(_SEG_HEADER)!r} "
            f"(segment scores) or {' '.join(_SYS_HEADER)!r} (system scores), got {lines[0]!r}"
        )
    return head


def _da_seg(
    path: str, lines: list[str], column: int, mapping: list[int] | None, include_human: bool
) -> Scores:
    cells: dict[str, dict[int, float]] = {}
    n_seg = len(mapping) if mapping is not None else None
    for no, line in enumerate(lines[1:], 2):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 5:
            raise InvalidOptionError(
                f"{path}:{no}: expected 5 fields 'SYS SID RAW.SCR Z.SCR N', got {line!r}"
            )
        name = _system(parts[0])
        if name == "HUMAN" and not include_human:
            continue
        try:
            sid = int(parts[1])
        except ValueError:
            raise InvalidOptionError(f"{path}:{no}: SID {parts[1]!r} is not an integer") from None
        if sid < 1 or (n_seg is not None and sid > n_seg):
            raise InvalidOptionError(
                f"{path}:{no}: SID {sid} is outside 1..{n_seg} (the lines of the docs file)"
            )
        line_no = mapping[sid - 1] if mapping is not None else sid - 1
        row = cells.setdefault(name, {})
        if line_no in row:
            raise InvalidOptionError(f"{path}:{no}: system {name} has SID {sid} twice")
        row[line_no] = score_value(parts[column], f"{path}:{no}")
    if not cells:
        raise InvalidOptionError(f"{path}: no segment scores")
    total = n_seg if n_seg is not None else max(max(r) for r in cells.values()) + 1
    return {s: [row.get(i) for i in range(total)] for s, row in sorted(cells.items())}


def _da_sys(path: str, lines: list[str], column: int, include_human: bool) -> Scores:
    out: Scores = {}
    for no, line in enumerate(lines[1:], 2):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 5:
            raise InvalidOptionError(
                f"{path}:{no}: expected 5 fields 'RAW.SCR Z.SCR N SYS N.ALL', got {line!r}"
            )
        name = _system(parts[3])
        if name == "HUMAN" and not include_human:
            continue
        if name in out:
            raise InvalidOptionError(f"{path}:{no}: system {name} given twice")
        out[name] = [score_value(parts[column], f"{path}:{no}")]
    if not out:
        raise InvalidOptionError(f"{path}: no system scores")
    return dict(sorted(out.items()))


def _da_files(path: str, langpair: str | None) -> list[str]:
    p = Path(path)
    if not p.is_dir():
        return [path]
    if langpair is None:
        raise InvalidOptionError(
            f"--human-da {path}: a folder needs the language pair (-l XX-YY) to pick "
            "ad-seg-scores-XX-YY.csv and ad-sys-scores-XX-YY.csv"
        )
    found = [str(p / f"ad-{k}-scores-{langpair}.csv") for k in ("seg", "sys")]
    found = [f for f in found if Path(f).is_file()]
    if not found:
        raise InvalidOptionError(
            f"--human-da {path}: no ad-seg-scores-{langpair}.csv or ad-sys-scores-{langpair}.csv"
        )
    return found


def read_da(
    paths: list[str],
    *,
    docs: str | None = None,
    langpair: str | None = None,
    score: str = "z",
    include_human: bool = False,
) -> HumanScores:
    """Human scores from WMT DA files.

    Parameters
    ----------
    paths : list of str
        DA files (segment and/or system scores, told apart by their header) or folders holding
        ``ad-seg-scores-<langpair>.csv`` and ``ad-sys-scores-<langpair>.csv``.
    docs : str, optional
        The test set's document ids (``DOMAIN DOCID`` per line): maps segment ids to lines.
        Without it, segment scores give system scores only (their means).
    langpair : str, optional
        ``XX-YY``, to find the files in a folder.
    score : str
        ``'z'`` (``Z.SCR``, WMT's standardised scores, the default) or ``'raw'`` (``RAW.SCR``).
    include_human : bool
        Keep ``HUMAN`` (a human translation judged like a system); MTME leaves it out.

    Returns
    -------
    HumanScores
        Segment scores (with ``docs``), system scores (from a system file, else the means of
        the segment scores).
    """
    if score not in ("z", "raw"):
        raise InvalidOptionError(f"--da-score: {score!r} is not 'z' or 'raw'")
    files = [f for p in paths for f in _da_files(p, langpair)]
    mapping = sid_to_line(read_docs(docs)) if docs is not None else None
    seg: Scores | None = None
    sys_: Scores | None = None
    for f in files:
        lines = _lines(f)
        head = _header(f, lines)
        col = head.index("Z.SCR" if score == "z" else "RAW.SCR")
        if head == _SEG_HEADER:
            if seg is not None:
                raise InvalidOptionError(f"{f}: a second DA segment-score file")
            seg = _da_seg(f, lines, col, mapping, include_human)
        else:
            if sys_ is not None:
                raise InvalidOptionError(f"{f}: a second DA system-score file")
            sys_ = _da_sys(f, lines, col, include_human)
    if sys_ is None and seg is not None:
        sys_ = {s: [_mean(v)] for s, v in seg.items()}
    if seg is not None and sys_ is not None and set(seg) != set(sys_):
        raise InvalidOptionError(
            f"{', '.join(files)}: the segment and system files have different systems "
            f"({', '.join(sorted(set(seg) ^ set(sys_)))})"
        )
    return HumanScores(seg if mapping is not None else None, sys_, ", ".join(files))


def read_human_tsv(path: str, n_segments: int | None = None) -> HumanScores:
    """Human scores from a plain TSV file.

    Parameters
    ----------
    path : str
        ``system<TAB>segment<TAB>score`` lines (segment: 1-based line), or
        ``system<TAB>score`` lines (system scores); not both kinds in one file.
    n_segments : int, optional
        Lines of the test set (default: the largest segment number).

    Returns
    -------
    HumanScores
        Segment scores (``None`` where no line gives one) or system scores.
    """
    cells: dict[str, dict[int, float]] = {}
    sys_: Scores = {}
    width = 0
    for no, line in enumerate(_lines(path), 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) not in (2, 3) or (width and len(parts) != width):
            want = {0: "2 or 3", 2: "2", 3: "3"}[width]
            raise InvalidOptionError(
                f"{path}:{no}: expected {want} tab-separated fields "
                f"(system, [segment,] score), got {line!r}"
            )
        width = len(parts)
        name, value = parts[0], score_value(parts[-1], f"{path}:{no}")
        if width == 2:
            if name in sys_:
                raise InvalidOptionError(f"{path}:{no}: system {name} given twice")
            sys_[name] = [value]
            continue
        try:
            seg = int(parts[1])
        except ValueError:
            raise InvalidOptionError(
                f"{path}:{no}: segment {parts[1]!r} is not a line number"
            ) from None
        if seg < 1 or (n_segments is not None and seg > n_segments):
            top = "" if n_segments is None else f"..{n_segments}"
            raise InvalidOptionError(f"{path}:{no}: segment {seg} is outside 1{top}")
        row = cells.setdefault(name, {})
        if seg - 1 in row:
            raise InvalidOptionError(f"{path}:{no}: system {name} has segment {seg} twice")
        row[seg - 1] = value
    if width == 0:
        raise InvalidOptionError(f"{path}: no scores (empty file)")
    if width == 2:
        return HumanScores(None, dict(sorted(sys_.items())), path)
    total = n_segments if n_segments is not None else max(max(r) for r in cells.values()) + 1
    seg_scores: Scores = {s: [r.get(i) for i in range(total)] for s, r in sorted(cells.items())}
    return HumanScores(seg_scores, {s: [_mean(v)] for s, v in seg_scores.items()}, path)


def _mean(v: list[float | None]) -> float | None:
    vals = [x for x in v if x is not None]
    return sum(vals) / len(vals) if vals else None
