"""Where pycocoevalcap's Java parts live: the installed package's directory and ``java``.

METEOR, SPICE and the PTB tokenizer are the original's jars, run as the original runs them;
parbleu never approximates them. Each missing piece is one clear error naming what to install.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from ...errors import MissingDependencyError

__all__ = ["java", "package_dir"]


def package_dir(what: str) -> Path:
    """Return the directory of the installed ``pycocoevalcap`` package, or raise.

    Parameters
    ----------
    what
        What needs it (``"METEOR"``, ...), for the message.
    """
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependencyError(
            f"coco: {what} runs pycocoevalcap's jar; install it with `pip install "
            "'parbleu[coco]'` (pycocoevalcap 1.2) and Java"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def java(what: str) -> str:
    """Return the path of the ``java`` executable, or raise naming ``what`` needs it."""
    exe = shutil.which("java")
    if exe is None:
        raise MissingDependencyError(
            f"coco: {what} runs a Java program and no `java` is on PATH; install a Java runtime "
            "(e.g. `apt-get install default-jre-headless`)"
        )
    return exe
