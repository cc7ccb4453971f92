"""Reading files and standard input exactly as SacreBLEU's command line does."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parbleu.cli.errors import CliError, ExitCode
from parbleu.cli.io import read_file_lines, read_ref_streams, read_stdin_systems

sb_utils = pytest.importorskip("sacrebleu.utils")

# Line separators of every kind (only "\n" ends a line in files), whitespace that rstrip()
# removes, tabs (stdin columns, --num-refs fields), ordinary and non-ASCII text.
PIECES = ["a", "b c", "é", "中", " ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85",
          "\u2028", "\u2029", "\xa0", "\u3000", "", "."]  # fmt: skip
text = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


def _sacrebleu_file_lines(path: Path) -> list[str]:
    # sacrebleu.py: `for line in smart_open(ref_file, encoding=...): line.rstrip()`
    with sb_utils.smart_open(str(path)) as f:
        return [line.rstrip() for line in f]


def _sacrebleu_stdin_systems(data: bytes) -> list[list[str]]:
    # sacrebleu.py's loop over io.TextIOWrapper(sys.stdin.buffer, encoding=...), minus the
    # field-count check.
    inputfh = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    fields = inputfh.readline().rstrip().split("\t")
    systems = [[s] for s in fields]
    for line in inputfh:
        fields = line.rstrip().split("\t")
        if len(fields) != len(systems):
            raise ValueError("field count")
        for i, sent in enumerate(fields):
            systems[i].append(sent.rstrip())
    return systems


@settings(max_examples=300, deadline=None)
@given(content=text)
def test_file_lines_as_sacrebleu(content: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("io") / "f.txt"
    path.write_bytes(content.encode("utf-8"))
    assert read_file_lines(str(path), "utf-8", "reference file") == _sacrebleu_file_lines(path)


@settings(max_examples=300, deadline=None)
@given(content=text)
def test_stdin_systems_as_sacrebleu(content: str) -> None:
    data = content.encode("utf-8")
    try:
        expected = _sacrebleu_stdin_systems(data)
    except ValueError:
        expected = None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        if expected is None:
            with pytest.raises(CliError) as err:
                read_stdin_systems("utf-8")
            assert err.value.code == ExitCode.BAD_FIELDS
        else:
            assert read_stdin_systems("utf-8") == expected


@settings(max_examples=200, deadline=None)
@given(content=text, n=st.integers(2, 3))
def test_tab_separated_references_as_sacrebleu(
    content: str, n: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("io") / "refs.tsv"
    path.write_bytes(content.encode("utf-8"))
    expected: list[list[str]] | None = [[] for _ in range(n)]
    for line in _sacrebleu_file_lines(path):
        refs = line.split(sep="\t", maxsplit=n - 1)
        if len(refs) != n:
            expected = None
            break
        assert expected is not None
        for k, ref in enumerate(refs):
            expected[k].append(ref)
    if expected is None:
        with pytest.raises(CliError) as err:
            read_ref_streams([str(path)], n, "utf-8")
        assert err.value.code == ExitCode.BAD_FIELDS
    else:
        assert read_ref_streams([str(path)], n, "utf-8") == expected


def test_gzip_is_read_like_plain_text(tmp_path: Path) -> None:
    import gzip

    content = "one\r\ntwo\u2028three \n\nfour"
    # Path.write_text takes newline= from Python 3.10 on; open() does on 3.9 too.
    with open(tmp_path / "x.txt", "w", encoding="utf-8", newline="") as f:
        f.write(content)
    with gzip.open(tmp_path / "x.txt.gz", "wt", encoding="utf-8", newline="") as f:
        f.write(content)
    plain = read_file_lines(str(tmp_path / "x.txt"), "utf-8", "reference file")
    assert plain == ["one", "two\u2028three", "", "four"]
    assert read_file_lines(str(tmp_path / "x.txt.gz"), "utf-8", "reference file") == plain
    assert _sacrebleu_file_lines(tmp_path / "x.txt.gz") == plain
