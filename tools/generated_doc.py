"""The command line every documentation generator shares: write the page, or ``--check`` it.

``python tools/gen_X.py`` rewrites its page; ``--check`` (CI) leaves it alone and exits 1 with
the first lines of a diff when the page in the tree differs from what the generator renders.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Callable
from pathlib import Path


def main(
    argv: list[str] | None,
    doc: Path,
    name: str,
    render: Callable[[], str],
    generator_file: str,
    generator_doc: str | None,
) -> int:
    """Run a generator: ``doc`` (shown as ``name``) gets ``render()``; returns the exit code.

    ``generator_file`` and ``generator_doc`` are the generator's ``__file__`` and ``__doc__``
    (the command to rerun it, and the help's description).
    """
    script = f"tools/{Path(generator_file).name}"
    description = (generator_doc or script).splitlines()[0]
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--check", action="store_true", help=f"fail if {name} is out of date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        current = doc.read_text(encoding="utf-8") if doc.is_file() else ""
        if current == text:
            return 0
        diff = difflib.unified_diff(
            current.splitlines(keepends=True),
            text.splitlines(keepends=True),
            name,
            "generated",
            n=1,
        )
        sys.stderr.writelines(list(diff)[:60])
        sys.stderr.write(f"{name} is out of date: run python {script}\n")
        return 1
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(text, encoding="utf-8")
    return 0
