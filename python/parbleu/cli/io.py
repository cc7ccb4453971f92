r"""Reading references and hypotheses exactly as SacreBLEU 2.6's command line does.

Files (``smart_open``: ``open(path, encoding=..., newline="\n")``, or ``gzip.open`` for a
name ending in ``.gz``):

* lines are separated by ``"\n"`` only. ``"\r"``, ``"\x0b"``, ``"\x0c"``, ``"\x1c"``-``"\x1e"``,
  ``"\x85"``, ``"\u2028"`` and ``"\u2029"`` do not end a line (``str.splitlines`` would split on
  them); a final ``"\n"`` ends the last line and does not start an empty one;
* every line is then ``str.rstrip()``-ed: trailing Unicode whitespace goes, including a
  ``"\r"`` of a CRLF file, trailing tabs and no-break spaces;
* with ``--num-refs N`` the stripped line is split on tabs into at most N fields (the last one
  keeps any further tabs); a line with fewer fields is an error (exit code 17).

Standard input (``io.TextIOWrapper(sys.stdin.buffer, encoding=...)``, universal newlines):

* lines end at ``"\n"``, ``"\r\n"`` or a lone ``"\r"``;
* each stripped line is split on tabs, one column per system; all lines must have as many
  fields as the first one (exit code 17);
* fields of every line but the first are ``rstrip()``-ed once more (SacreBLEU does not strip
  the fields of the first line: trailing spaces before a tab survive there);
* empty input is one empty hypothesis (SacreBLEU's reading) when the references have one line;
  against more it is reported as empty, as an empty hypothesis file is.

Unlike SacreBLEU, which stops with a traceback, bytes that do not decode are reported with
the file name and the line number, and the hint names the option for that kind of file
(``--ref-encoding``/``--hyp-encoding``: ``-e`` re-decodes every file, the UTF-8 references
too, and silently changes the score). Two warnings (``parbleu:``, standard error; standard
output unchanged) flag a decoding that SacreBLEU performs without a word:

* a file read in a non-UTF-8 encoding (``-e latin-1``) that is valid UTF-8 with non-ASCII
  characters: almost surely UTF-8, and its accented letters become two characters each;
* a file read as ``utf-8`` that starts with a byte order mark: the mark stays in the first
  segment (as in SacreBLEU) and changes its score; ``utf-8-sig`` drops it.
"""

from __future__ import annotations

import codecs
import re
import sys
import zlib
from typing import BinaryIO

from .._lazylog import get_logger
from .errors import CliError, ExitCode

__all__ = [
    "STDIN_NAME",
    "check_encoding",
    "hint_if_terminal",
    "read_file_lines",
    "read_ref_streams",
    "read_stdin_systems",
    "same_files",
    "split_file_lines",
    "split_stdin_lines",
    "warn_decoding",
]

#: How standard input is named in messages.
STDIN_NAME = "standard input"

#: The option that sets the encoding of each kind of input, for the hints.
_ENCODING_OPTION = {
    "reference file": "--ref-encoding",
    "hypothesis file": "--hyp-encoding",
    STDIN_NAME: "--hyp-encoding",
}

_log = get_logger("parbleu.cli")
#: ``extra=`` of parbleu's own notes: ``parbleu:`` on standard error (see ``parbleu.cli``).
_OWN = {"parbleu_own": True}

_UNIVERSAL_NEWLINE = re.compile(r"\r\n|\r|\n")


def check_encoding(encoding: str, option: str = "--encoding") -> None:
    """Fail with a one-line error if Python does not know ``encoding``.

    Parameters
    ----------
    encoding
        A codec name, as given to ``option``.
    option
        The option that gave it, for the message.
    """
    try:
        text = getattr(codecs.lookup(encoding), "_is_text_encoding", True)
    except LookupError:
        raise CliError(f"{option}: unknown encoding {encoding!r}") from None
    if not text:
        # hex, base64, rot13, zlib...: codecs that do not turn bytes into text.
        raise CliError(f"{option}: {encoding!r} is not a text encoding")


def _encoding_option(what: str) -> str:
    return next((o for k, o in _ENCODING_OPTION.items() if what.startswith(k)), "--encoding")


def _decode(data: bytes, encoding: str, what: str, universal_newlines: bool = False) -> str:
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        prefix = data[: e.start].decode(encoding, errors="replace")
        if universal_newlines:
            line = len(_UNIVERSAL_NEWLINE.findall(prefix)) + 1
        else:
            line = prefix.count("\n") + 1
        bad = " ".join(f"0x{b:02x}" for b in data[e.start : min(e.end, e.start + 4)])
        option = _encoding_option(what)
        hint = (
            f"use {option} ENCODING to read it in another encoding (-e/--encoding changes "
            "every file)"
            if option != "--encoding"
            else "use --encoding to read another encoding"
        )
        raise CliError(
            f"{what}: line {line}: not valid {encoding} ({bad} at byte offset {e.start}: "
            f"{e.reason}); {hint}"
        ) from None
    _warn_suspect_decoding(data, encoding, what)
    return text


def _is_utf8(encoding: str) -> bool:
    return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")


def _warn_suspect_decoding(data: bytes, encoding: str, what: str) -> None:
    """Warn about a byte order mark kept, or UTF-8 text read in another encoding."""
    if _is_utf8(encoding):
        if codecs.lookup(encoding).name == "utf-8" and data.startswith(codecs.BOM_UTF8):
            _log.warning(
                f"{what} starts with a UTF-8 byte order mark: it is kept in the first segment, "
                "as SacreBLEU keeps it, and changes that segment's score; read the file as "
                f"utf-8-sig ({_encoding_option(what)} utf-8-sig or -e utf-8-sig) to drop it",
                extra=_OWN,
            )
        return
    if data.isascii():
        return
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return
    _log.warning(
        f"{what} is read as {encoding} but is valid UTF-8 with non-ASCII characters, which "
        f"{encoding} reads as other characters; if it is UTF-8, add {_encoding_option(what)} "
        "utf-8 (-e/--encoding applies to every file)",
        extra=_OWN,
    )


#: Bytes of a file that the streamed path reads for the decoding warnings.
_HEAD_BYTES = 1 << 20


def warn_decoding(path: str, encoding: str, what: str) -> None:
    """Warn as the in-memory reading does, from the first MiB of ``path`` only.

    The streamed path reads files block by block: a byte order mark kept, or UTF-8 read in
    another encoding, is judged on the file's start (the whole file when it is smaller).

    Parameters
    ----------
    path
        File name (``.gz`` is decompressed).
    encoding
        Its encoding.
    what
        ``"reference file"`` or ``"hypothesis file"``, for the message.
    """
    try:
        codecs.lookup(encoding)
        if path.endswith(".gz"):
            import gzip  # only for .gz files

            with gzip.open(path, "rb") as gz:
                head = gz.read(_HEAD_BYTES + 1)
        else:
            with open(path, "rb") as f:
                head = f.read(_HEAD_BYTES + 1)
    except (LookupError, OSError, EOFError, zlib.error):
        return  # the reading reports it
    if len(head) > _HEAD_BYTES:
        # Cut at a line end so that a character split by the cut is not taken for bad UTF-8.
        head = head[: head.rfind(b"\n", 0, _HEAD_BYTES) + 1] or head[:_HEAD_BYTES]
    _warn_suspect_decoding(head, encoding, f"{what} {path!r}")


class _BadGzip(Exception):
    """A ``.gz`` file that does not decompress (gzip's own error is the argument)."""


def _gunzip(path: str) -> bytes:
    import gzip  # only for .gz files

    try:
        with gzip.open(path, "rb") as gz:
            return gz.read()
    except (gzip.BadGzipFile, EOFError, zlib.error) as e:
        raise _BadGzip(e) from None


def _read_bytes(path: str, what: str) -> bytes:
    name = f"{what} {path!r}"
    try:
        if path.endswith(".gz"):
            return _gunzip(path)
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise CliError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{name}: is a directory, not a file") from None
    except PermissionError:
        raise CliError(f"{name}: permission denied") from None
    except _BadGzip as e:
        raise CliError(f"{name}: not a valid gzip file ({e})") from None
    except OSError as e:
        raise CliError(f"{name}: cannot read: {e.strerror or e}") from None


def split_file_lines(text: str) -> list[str]:
    r"""Split a decoded file into stripped lines, as SacreBLEU's file reading does.

    Parameters
    ----------
    text
        The whole decoded file.

    Returns
    -------
    list of str
        One ``rstrip()``-ed string per ``"\n"``-terminated line (the last may lack it).
    """
    if not text:
        return []
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return [p.rstrip() for p in parts]


def split_stdin_lines(text: str) -> list[str]:
    """Split decoded standard input on universal newlines (not stripped).

    Parameters
    ----------
    text
        Everything read from standard input.

    Returns
    -------
    list of str
        The lines without their terminators; ``[""]`` for empty input (SacreBLEU's
        ``readline()`` of an empty stream gives one empty line).
    """
    if not text:
        return [""]
    parts = _UNIVERSAL_NEWLINE.split(text)
    if parts[-1] == "":
        parts.pop()
    return parts


def read_file_lines(path: str, encoding: str, what: str) -> list[str]:
    """Read one reference or hypothesis file.

    Parameters
    ----------
    path
        File name, as given on the command line (``.gz`` is decompressed).
    encoding
        Text encoding.
    what
        ``"reference file"`` or ``"hypothesis file"``, for messages.

    Returns
    -------
    list of str
        The file's lines, split and stripped as described in the module docstring.
    """
    data = _read_bytes(path, what)
    return split_file_lines(_decode(data, encoding, f"{what} {path!r}"))


def read_ref_streams(paths: list[str], num_refs: int, encoding: str) -> list[list[str]]:
    """Read the reference files into reference streams.

    Parameters
    ----------
    paths
        Reference files; with ``num_refs > 1`` exactly one.
    num_refs
        Tab-separated references per line of the single file (1: one reference per file).
    encoding
        Text encoding.

    Returns
    -------
    list of list of str
        ``max(len(paths), num_refs)`` streams.
    """
    if num_refs == 1:
        return [read_file_lines(path, encoding, "reference file") for path in paths]
    streams: list[list[str]] = []
    for path in paths:
        lines = read_file_lines(path, encoding, "reference file")
        # Lists are made once a line has shown that many fields: a huge --num-refs costs
        # nothing before it is refused.
        for lineno, line in enumerate(lines, 1):
            fields = line.split("\t", num_refs - 1)
            if len(fields) != num_refs:
                raise CliError(
                    f"reference file {path!r}: line {lineno}: expected {num_refs} "
                    f"tab-separated fields (--num-refs), but found {len(fields)}",
                    ExitCode.BAD_FIELDS,
                )
            if not streams:
                streams = [[] for _ in range(num_refs)]
            for k, field in enumerate(fields):
                streams[k].append(field)
    # An empty file: SacreBLEU's num_refs empty streams (a huge count stays bounded; such a
    # file is refused downstream as empty whatever the count).
    return streams or [[] for _ in range(max(len(paths), min(num_refs, 1 << 10)))]


def hint_if_terminal(what: str = "hypotheses") -> None:
    """Say on standard error that ``what`` is awaited when standard input is a terminal.

    Forgetting ``-i`` (``parbleu REF HYP``) otherwise waits on the keyboard without a word.
    Only a person at a terminal sees this line, so it is written even with ``-q``; a pipe or a
    file on standard input never gets it, and standard output is untouched.

    Parameters
    ----------
    what
        What is read from standard input, for the message.
    """
    stdin = sys.stdin
    isatty = getattr(stdin, "isatty", None)
    try:
        tty = bool(isatty and isatty())
    except (OSError, ValueError):  # a closed or detached stream
        tty = False
    if tty:
        sys.stderr.write(
            f"parbleu: reading {what} from standard input (the terminal), one segment per "
            "line; end with Ctrl-D (Ctrl-Z Enter on Windows), cancel with Ctrl-C; files go "
            "after -i/--input\n"
        )
        sys.stderr.flush()


def same_files(paths: list[str]) -> tuple[str, str] | None:
    """Return the first two of ``paths`` that name one file under different spellings.

    ``hyp.de`` and ``./hyp.de`` (or a symbolic or hard link) would be scored as two systems
    with equal scores. Identical spellings are left to the callers' own messages; names that
    do not exist are left to the reading, which reports them.

    Parameters
    ----------
    paths
        File names as given.

    Returns
    -------
    tuple of str or None
        ``(first spelling, second spelling)``, or ``None`` when every file differs.
    """
    import os

    seen: dict[object, str] = {}
    for path in paths:
        try:
            st = os.stat(path)
            key: object = (st.st_dev, st.st_ino)
        except (OSError, ValueError):
            key = os.path.realpath(path)
        first = seen.setdefault(key, path)
        if first != path:
            return first, path
    return None


def _stdin_bytes() -> bytes:
    stdin = sys.stdin
    if stdin is None:
        raise CliError("no hypotheses: standard input is closed and no -i/--input was given")
    hint_if_terminal()
    buf: BinaryIO | None = getattr(stdin, "buffer", None)
    if buf is not None:
        return buf.read()
    return stdin.read().encode("utf-8", errors="surrogateescape")


def read_stdin_systems(encoding: str, ref_lines: int | None = None) -> list[list[str]]:
    """Read hypotheses from standard input, one system per tab-separated column.

    Parameters
    ----------
    encoding
        Text encoding.
    ref_lines
        Lines of the references, when known. Empty input is one empty hypothesis, as in
        SacreBLEU, which only fits references of one line: against any other count it is
        reported as empty (a forgotten pipe or ``-i``) rather than as a length mismatch.

    Returns
    -------
    list of list of str
        One list of segments per system.
    """
    data = _stdin_bytes()
    if not data and ref_lines is not None and ref_lines != 1:
        raise CliError(
            f"{STDIN_NAME} is empty: there is nothing to score (pipe the hypotheses in, or "
            "pass them with -i HYP)"
        )
    lines = split_stdin_lines(_decode(data, encoding, STDIN_NAME, True))
    first = lines[0].rstrip().split("\t")
    systems: list[list[str]] = [[field] for field in first]
    n = len(first)
    for lineno, line in enumerate(lines[1:], 2):
        fields = line.rstrip().split("\t")
        if len(fields) != n:
            raise CliError(
                f"{STDIN_NAME}: line {lineno}: found {len(fields)} tab-separated fields but the "
                f"first line has {n}; every line needs one field per system",
                ExitCode.BAD_FIELDS,
            )
        for column, sent in zip(systems, fields):
            column.append(sent.rstrip())
    return systems
