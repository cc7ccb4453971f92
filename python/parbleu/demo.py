"""Score the bundled WMT21 en-de sample: ``python -m parbleu.demo``.

Runs the command-line interface on three systems against one reference, the way a user
would compare systems: a multi-system table with the signature. Standard error first says
what is scored and the ``parbleu`` command that does the same, to copy.
"""

from __future__ import annotations

import os
import shlex
import sys
from importlib import resources

SYSTEMS = ("Facebook-AI", "Online-W", "VolcTrans-GLAT")


def main(argv: list[str] | None = None) -> int:
    """Run ``parbleu REF -i SYS... -m bleu chrf ter`` on the sample; extra arguments are appended.

    Parameters
    ----------
    argv
        Extra command-line arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The CLI's exit code.
    """
    from .cli import main as cli_main

    extra = list(sys.argv[1:] if argv is None else argv)
    root = resources.files("parbleu") / "sample"
    with resources.as_file(root) as d:
        # Relative names, so the table shows system names rather than install paths.
        cwd = os.getcwd()
        os.chdir(d)
        try:
            args = ["ref.A.de", "-i", *[f"{s}.de" for s in SYSTEMS]]
            args += ["-m", "bleu", "chrf", "ter", "-f", "text", *extra]
            sys.stderr.write(
                "parbleu: demo: the first 500 lines of WMT21 en-de (newstest2021), reference A, "
                f"and {len(SYSTEMS)} submitted systems ({', '.join(SYSTEMS)}); the same "
                f"command:\n  cd {shlex.quote(str(d))} && {shlex.join(['parbleu', *args])}\n"
            )
            sys.stderr.flush()
            return cli_main(args)
        finally:
            os.chdir(cwd)


if __name__ == "__main__":
    raise SystemExit(main())
