"""The command line the pinned generators share (``gen_unicode_tables.py``,
``gen_flavor_tables.py``, ``gen_rouge_tables.py``, ``gen_tokenizer_fixture.py``): write the
generated file, or with ``--check`` compare it with what would be written.

What they write depends on the interpreter's Unicode version, so both are guarded by
``unicode_pin.guard``.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import unicode_pin


def main(
    script: str,
    description: str,
    out: Path,
    render: Callable[[], str],
    argv: Sequence[str] | None = None,
) -> int:
    """Run one generator's command line.

    Parameters
    ----------
    script
        The generator's file name (``tools/<script>``), for messages.
    description
        The ``--help`` description.
    out
        The file it writes (``--output`` overrides it).
    render
        Builds the file's whole text.
    argv
        The arguments; ``None`` for ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status: 0 written or up to date, 1 out of date (the start of the difference
        on stdout), 2 refused under another Unicode version (see ``unicode_pin.guard``).
    """
    ap = argparse.ArgumentParser(prog=script, description=description)
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    ap.add_argument("--output", type=Path, default=out, help=f"default: {out}")
    args = ap.parse_args(argv)
    skip = unicode_pin.guard(script, args.check)
    if skip is not None:
        return skip
    text = render()
    target: Path = args.output
    if args.check:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current == text:
            print(f"{target} is up to date")
            return 0
        diff = difflib.unified_diff(
            current.splitlines(True), text.splitlines(True), "committed", "generated", n=1
        )
        sys.stdout.writelines(list(diff)[:200])
        print(f"\n{target} is out of date: run python tools/{script}", file=sys.stderr)
        return 1
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")
    return 0
