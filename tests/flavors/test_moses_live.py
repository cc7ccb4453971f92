"""The Moses perl scripts as live oracles, when a copy is available.

Set ``MOSES_SCRIPTS`` to a directory holding ``multi-bleu.perl`` and ``multi-bleu-detok.perl``
(mosesdecoder's ``scripts/generic``); the scripts are not part of this repository. Generated
inputs mix ASCII and Unicode whitespace (NBSP, U+001C, CR), case pairs with non-ASCII letters
(``Σ``, ``İ``, ``Ä``) and entities, where the Perl semantics matter.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parbleu.flavors import moses

SCRIPTS = Path(os.environ.get("MOSES_SCRIPTS", "/nonexistent"))
pytestmark = pytest.mark.skipif(
    not (SCRIPTS / "multi-bleu.perl").is_file() or shutil.which("perl") is None,
    reason="set MOSES_SCRIPTS to mosesdecoder's scripts/generic to run the perl oracle",
)

WORDS = ["a", "b", "ΟΔΟΣ", "οδος", "İ", "Ä", "ä", "x\x1cy", "3.5", "5-6", "&amp;", "&lt;", "U.S."]
word = st.sampled_from(WORDS)
sep = st.sampled_from([" ", "  ", "\t", "\u00a0", "\r", " \x1c "])
line = st.lists(st.tuples(word, sep), max_size=7).map(lambda ws: "".join(w + s for w, s in ws))


def _check_against_perl(refs: list[str], hyp: bytes, lc: bool, detok: bool) -> None:
    """multi-bleu(-detok).perl and ``moses.main`` on the same files: same code and output."""
    script = SCRIPTS / ("multi-bleu-detok.perl" if detok else "multi-bleu.perl")
    argv = (["-lc"] if lc else []) + refs
    perl = subprocess.run(["perl", str(script), *argv], input=hyp, capture_output=True)
    out, err = io.StringIO(), io.StringIO()
    code = moses.main(argv, detok, hyp, out, err)
    assert code == perl.returncode
    assert out.getvalue().encode() == perl.stdout
    if code == 0 and not detok:
        # The advisory multi-bleu.perl prints on stderr, word for word (and Perl's warnings,
        # which name the script as it was run).
        assert err.getvalue().encode() == perl.stderr.replace(
            str(script).encode(), script.name.encode()
        )
    if code in (2, 255) and detok:
        # Perl died: same message (which names the script as it was run). multi-bleu.perl's
        # line numbers are those of mosesdecoder 34452895, which a local copy may not be.
        assert err.getvalue().encode() == perl.stderr.replace(
            str(script).encode(), script.name.encode()
        )


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.tuples(line, line, line), min_size=1, max_size=4),
    st.booleans(),
    st.booleans(),
)
def test_against_perl(
    tmp_path: Path, rows: list[tuple[str, str, str]], lc: bool, detok: bool
) -> None:
    hyp = "".join(h + "\n" for h, _, _ in rows).encode()
    refs = []
    for k in (1, 2):
        p = tmp_path / f"ref{k}"
        p.write_bytes("".join(r[k] + "\n" for r in rows).encode())
        refs.append(str(p))
    _check_against_perl(refs, hyp, lc, detok)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(line, max_size=5),
    st.lists(st.lists(line, max_size=5), min_size=1, max_size=2),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_against_perl_ragged_files(
    tmp_path: Path, hyps: list[str], refs: list[list[str]], final_nl: bool, lc: bool, detok: bool
) -> None:
    # Files of different lengths (a missing reference line counts 9999 words), with or without
    # a final newline (chop then eats a real character), one or two references.
    def data(lines: list[str]) -> bytes:
        text = "\n".join(lines) + ("\n" if final_nl and lines else "")
        return text.encode()

    paths = []
    for k, r in enumerate(refs):
        p = tmp_path / f"ref{k}"
        p.write_bytes(data(r))
        paths.append(str(p))
    _check_against_perl(paths, data(hyps), lc, detok)
