"""Every Python and shell snippet of README.md and docs/*.md runs as written.

Each fenced ```python block runs alone, in a namespace of its own (a reader pastes one block,
not the page: a block may not use what an earlier one defined), in a temporary folder holding
the sample files the docs name (``ref.de``, ``hyp.de``, ``sys1.de``, ``out/*.de``, ...; see
:func:`_sample_folder`).
```bash / ```sh blocks run in bash there, ``parbleu`` being this interpreter's command.

An HTML comment on the line before a block (blank lines between are allowed) says what the
block needs; several go in one comment, separated by ``;``:

    <!-- snippet: skip REASON -->           not run; the reason is the skip's reason
    <!-- snippet: requires MODULE ... -->    run when the modules are installed, else skipped
                                            (failed under PARBLEU_REQUIRE, as helpers.require)
    <!-- snippet: given NAME, ... -->        names taken from the sample data (SAMPLE_NAMES)
                                            instead of defined in the docs' text
    <!-- snippet: continues -->             a step of a worked example whose text says so:
                                            runs after the page's earlier Python blocks

``>>>`` transcripts are refused: they cannot be pasted. A statement that shows an error is
followed by a comment ``# raises SomeError: message``; it must raise that error, with that
message (``...`` matches anything). A block that installs packages or creates a venv must be
marked ``skip``: the test refuses to run it (it would change the shared environment).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import parbleu
from helpers import REPO, SHARED, require

SAMPLE = Path(parbleu.__file__).parent / "sample"
SYSTEMS = ("Online-W", "Facebook-AI", "VolcTrans-GLAT")
#: Lines of each sample file used: enough for every statistic, fast enough for every snippet.
LINES = 60

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
MARKER = re.compile(r"<!--\s*snippet:(.*?)-->", re.S)
LANGUAGES = {"python": "python", "bash": "shell", "sh": "shell", "shell": "shell"}
#: Words of a shell block that would change the environment: refused unless marked skip.
INSTALLS = re.compile(r"\bpip3? install\b|\bpython3? -m (venv|pip)\b|\bapt-get\b|\bcargo install\b")


#: The extra that installs each module a snippet may require (for the skip's reason, and so
#: that PARBLEU_REQUIRE=extra makes the snippet fail rather than skip in that CI step).
EXTRAS = {
    "torch": "torch",
    "torchmetrics": "torch",
    "evaluate": "evaluate",
    "dask": "dask",
    "distributed": "dask",
    "matplotlib": "report",
    "sentencepiece": "spm",
    "pycocoevalcap": "coco",
    "pycocotools": "coco",
}


@dataclass
class Snippet:
    """One fenced block: where it is, its language and code, and its markers."""

    path: Path
    line: int
    kind: str
    code: str
    skip: str | None = None
    requires: list[str] = field(default_factory=list)
    given: list[str] = field(default_factory=list)
    continues: bool = False

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def _markers(text: str, start: int) -> list[str]:
    """The snippet directives of the comment right before offset ``start`` (blank lines allowed)."""
    before = text[:start].rstrip()
    if not before.endswith("-->"):
        return []
    begin = before.rfind("<!--")
    m = MARKER.fullmatch(before[begin:])
    if m is None:
        return []
    # ";" separates directives; inside a reason it is kept (no directive word follows it).
    parts = re.split(r";\s*(?=(?:skip|requires|given|continues)\b)", m.group(1))
    return [d.strip() for d in parts if d.strip()]


def snippets(path: Path, text: str | None = None) -> list[Snippet]:
    """The Python and shell blocks of one Markdown file (or of ``text``), with their markers."""
    if text is None:
        text = path.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        kind = LANGUAGES.get(m.group(1))
        if kind is None:
            continue
        s = Snippet(path, text.count("\n", 0, m.start()) + 1, kind, m.group(2))
        for directive in _markers(text, m.start()):
            word, _, rest = directive.partition(" ")
            if word == "skip":
                s.skip = rest.strip() or "marked skip"
            elif word == "requires":
                s.requires += rest.replace(",", " ").split()
            elif word == "given":
                s.given += rest.replace(",", " ").split()
            elif word == "continues" and not rest.strip():
                s.continues = True
            else:
                raise ValueError(f"{s.id}: unknown snippet directive {directive!r}")
        out.append(s)
    return out


ALL = [s for path in DOCS for s in snippets(path)]


def _read(name: str) -> list[str]:
    return (SAMPLE / name).read_text(encoding="utf-8").splitlines()[:LINES]


class _Tokenizer:
    """What the token-id snippets read from a Hugging Face tokenizer."""

    pad_token_id = 0


def sample_names() -> dict[str, Any]:
    """The values ``<!-- snippet: given ... -->`` may name (sample systems and references)."""
    import numpy as np

    ref = _read("ref.A.de")
    sys1, sys2, sys3 = (_read(f"{n}.de") for n in SYSTEMS)
    rng = np.random.default_rng(0)
    ids = rng.integers(1, 50, size=(8, 12))
    names: dict[str, Any] = {
        "hyps": sys1,
        "hyps2": sys2,
        "refs": ref,
        "refs_a": ref,
        "refs_b": sys3,  # a second reference stream: another system will do
        "base_hyps": sys1,
        "new_hyps": sys2,
        "sys1": sys1,
        "sys2": sys2,
        "sys3": sys3,
        "a": sys1,
        "b": sys2,
        "c_": sys3,
        "cands": sys1[:16],
        "sample_ids": ids,
        "label_ids": ids[::-1].copy(),
        "hyp_ids": ids,
        "ref_ids": ids[::-1].copy(),
        "tokenizer": _Tokenizer(),
    }
    return names


#: The names ``given`` may use.
SAMPLE_NAMES = frozenset(sample_names())


def _sample_folder(root: Path) -> None:
    """The files the docs' commands name, cut from the bundled WMT21 en-de sample."""
    ref = "\n".join(_read("ref.A.de")) + "\n"
    hyps = ["\n".join(_read(f"{n}.de")) + "\n" for n in SYSTEMS]
    files = {
        "ref.de": ref, "ref.txt": ref, "ref.A.txt": ref, "ref.B.txt": hyps[2],
        "hyp.de": hyps[0], "hyp.txt": hyps[0], "system.de": hyps[0], "out.de": hyps[0],
        "out.txt": hyps[0], "sys1.de": hyps[0], "sys2.de": hyps[1], "sys3.de": hyps[2],
        "base.de": hyps[0], "new.de": hyps[1], "other.de": hyps[2],
        "out/part1.de": hyps[0], "out/part2.de": hyps[1],
        "ref/part1.de": ref, "ref/part2.de": ref,
        "refA/part1.de": ref, "refA/part2.de": ref,
        "refC/part1.de": hyps[2], "refC/part2.de": hyps[2],
        "src.en": ref,  # a source file: any text with as many lines
        **{f"wmt/newstest2021.hyp.{n}.de": h for n, h in zip(SYSTEMS, hyps)},
    }  # fmt: skip
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    for n in SYSTEMS:
        shutil.copy(SAMPLE / f"{n}.de", root / f"{n}.de")
    shutil.copy(SAMPLE / "ref.A.de", root / "ref.A.de")
    # The WMT21 data of the test data (docs/meta-evaluation.md's example reads its DA files).
    (root / "wmt21").symlink_to(SHARED / "data" / "wmt21", target_is_directory=True)


def _check_ready(s: Snippet) -> None:
    if s.skip is not None:
        pytest.skip(f"{s.id}: {s.skip}")
    for module in s.requires:
        require(module, EXTRAS.get(module))
    unknown = set(s.given) - SAMPLE_NAMES
    assert not unknown, f"{s.id}: 'given' names no sample value {sorted(unknown)}"


#: The comment after a statement that must raise: ``# raises SomeError: message``.
RAISES = re.compile(r"^\s*# raises ([\w.]+(?:Error|Exception|Warning)): (.*)$")


def _expected_error(lines: list[str], stmt_end: int, next_start: int) -> re.Match[str] | None:
    """The ``# raises`` comment between a statement's last line and the next statement."""
    for line in lines[stmt_end:next_start]:
        m = RAISES.match(line)
        if m is not None:
            return m
    return None


def _run_python(s: Snippet, namespace: dict[str, Any]) -> None:
    """Run a block statement by statement; a statement with ``# raises`` must raise that."""
    import ast

    assert not any(line.startswith(">>>") for line in s.code.splitlines()), (
        f"{s.id}: a >>> transcript cannot be pasted; write plain code, and show an error with "
        "a '# raises SomeError: message' comment after the statement"
    )
    names = sample_names()
    for name in s.given:
        namespace[name] = names[name]
    lines = s.code.splitlines()
    body = ast.parse(s.code, s.id).body
    for i, stmt in enumerate(body):
        next_start = body[i + 1].lineno - 1 if i + 1 < len(body) else len(lines)
        m = _expected_error(lines, stmt.end_lineno or stmt.lineno, next_start)
        code = compile(ast.Module(body=[stmt], type_ignores=[]), s.id, "exec")
        if m is None:
            exec(code, namespace)
            continue
        with pytest.raises(Exception) as e:
            exec(code, namespace)
        kind = type(e.value)
        assert m.group(1) in (kind.__name__, f"{kind.__module__}.{kind.__qualname__}"), (
            f"{s.id}: expected {m.group(1)}, got {kind.__name__}: {e.value}"
        )
        pattern = ".*".join(re.escape(p) for p in m.group(2).split("..."))
        assert re.fullmatch(pattern, str(e.value), re.S), f"{s.id}: message {e.value}"


@pytest.fixture
def sample_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary working folder with the sample files the snippets name."""
    _sample_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("snippet", [s for s in ALL if s.kind == "python"], ids=lambda s: s.id)
def test_python_snippet(snippet: Snippet, sample_dir: Path) -> None:
    _check_ready(snippet)
    # A namespace of its own: the block must run when pasted alone (or, marked continues,
    # after the earlier blocks of its page).
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    if snippet.continues:
        import importlib.util

        for earlier in [s for s in ALL if s.path == snippet.path and s.kind == "python"]:
            if earlier is snippet:
                break
            if earlier.skip is None and all(importlib.util.find_spec(m) for m in earlier.requires):
                _run_python(earlier, namespace)
    _run_python(snippet, namespace)


@pytest.mark.parametrize("snippet", [s for s in ALL if s.kind == "shell"], ids=lambda s: s.id)
def test_shell_snippet(snippet: Snippet, sample_dir: Path) -> None:
    if snippet.skip is None:
        assert not INSTALLS.search(snippet.code), (
            f"{snippet.id} installs or builds: mark it <!-- snippet: skip REASON --> "
            "(the test environment is shared)"
        )
    _check_ready(snippet)
    bin_dir = sample_dir / ".bin"
    bin_dir.mkdir()
    # `parbleu` and `python` are this interpreter's, with this checkout's package.
    (bin_dir / "parbleu").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m parbleu "$@"\n')
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
        "NO_COLOR": "1",
    }
    script = "set -euo pipefail\n" + snippet.code
    run = subprocess.run(
        ["bash", "-c", script],
        cwd=sample_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 0, f"{snippet.id} failed ({run.returncode}):\n{run.stderr[-3000:]}"
    assert "Traceback" not in run.stderr, run.stderr[-3000:]


def test_markers_are_understood() -> None:
    # A typo in a directive must not silently run (or skip) a block.
    md = "<!-- snippet: skip no network; requires dask -->\n\n```bash\nparbleu --list\n```\n"
    (s,) = snippets(REPO / "docs" / "x.md", md)
    assert (s.kind, s.skip, s.requires, s.line) == ("shell", "no network", ["dask"], 3)
    with pytest.raises(ValueError, match="unknown snippet directive 'skipp x'"):
        snippets(REPO / "docs" / "x.md", "<!-- snippet: skipp x -->\n```python\npass\n```\n")
    assert snippets(REPO / "x.md", "<!-- a comment -->\n```python\npass\n```\n")[0].skip is None


def test_blocks_run_alone_and_raises_comments_are_checked() -> None:
    def run(code: str) -> None:
        (s,) = snippets(REPO / "docs" / "x.md", f"```python\n{code}```\n")
        _run_python(s, {"__builtins__": __builtins__})

    run("x = 1\nint('a')\n# raises ValueError: invalid literal ...\nprint(x)\n")
    with pytest.raises(AssertionError, match="message"):
        run("int('a')\n# raises ValueError: something else\n")
    with pytest.raises(pytest.fail.Exception):
        run("int('1')\n# raises ValueError: ...\n")  # did not raise
    with pytest.raises(AssertionError, match="cannot be pasted"):
        run(">>> 1 + 1\n2\n")
    with pytest.raises(NameError):
        run("print(x)\n")  # nothing left over from another block


def test_every_doc_is_scanned() -> None:
    assert {p.name for p in DOCS} >= {"README.md", "quickstart.md", "distributed.md"}
    assert any(s.kind == "python" for s in ALL) and any(s.kind == "shell" for s in ALL)
