"""multi-bleu.perl's reference stem: ``STEM0, STEM1, ...``, then ``STEM``, and ``STEM.ref0...``
when neither ``STEM`` nor ``STEM0`` exists (the file list and the missing-reference error)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from parbleu.flavors import moses


@pytest.mark.parametrize(
    ("present", "want"),
    [
        (["x0", "x1", "x"], ["x0", "x1", "x"]),
        (["x.ref0", "x.ref1"], ["x.ref0", "x.ref1"]),
        (["x", "x.ref0"], ["x"]),  # STEM exists: .ref0 is not looked for
        (["x0", "x.ref0"], ["x0"]),
    ],
)
def test_read_ref_files(tmp_path: Path, present: list[str], want: list[str]) -> None:
    for name in present:
        (tmp_path / name).write_text("a b c\n")
    got = moses.read_ref_files([str(tmp_path / "x")])
    assert got == [str(tmp_path / name) for name in want]


@pytest.mark.parametrize("detok", [False, True])
def test_empty_ref_stem_error_names_the_ref_stem(tmp_path: Path, detok: bool) -> None:
    (tmp_path / "x.ref0").write_text("")
    err = io.StringIO()
    status = moses.main([str(tmp_path / "x")], detok, b"a b c\n", io.StringIO(), err)
    script = "multi-bleu-detok.perl" if detok else "multi-bleu.perl"
    line = 42 if detok else 32
    want = f"ERROR: could not find reference file {tmp_path / 'x.ref'} at {script} line {line}.\n"
    assert err.getvalue() == want
    assert status == 2  # STEM.ref itself does not exist: ENOENT
