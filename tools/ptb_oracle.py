"""Run pycocoevalcap's Stanford CoreNLP 3.4.1 PTBTokenizer (Java) on lines, as pycocoevalcap does.

Shared by ``tools/gen_ptb_tables.py``, ``tools/gen_ptb_golden.py`` and the live-oracle tests:
``-preserveLines -lowerCase``, one caption a line, then pycocoevalcap's punctuation removal.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

#: pycocoevalcap's list, removed after tokenization (upper-case brackets: never produced)
PUNCTUATIONS = frozenset(
    [
        "''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-",
        ".", "?", "!", ",", ":", "-", "--", "...", ";",
    ]
)  # fmt: skip
#: what the jar takes as a line break (a caption holding one would split in two)
BREAKS = "\n\r\u2028\u2029\x0b\x0c\x85"


def jar_path() -> Path:
    """The jar inside the installed pycocoevalcap."""
    import pycocoevalcap.tokenizer.ptbtokenizer as ptb

    return Path(ptb.__file__).with_name(ptb.STANFORD_CORENLP_3_4_1_JAR)


def run_jar(lines: Sequence[str], raw: bool = False) -> list[str]:
    """Tokenize ``lines`` (no line breaks inside) with the jar; ``raw``: keep punctuation."""
    for i, line in enumerate(lines):
        if any(b in line for b in BREAKS):
            raise ValueError(f"line {i} holds a line break: {line!r}")
    with tempfile.NamedTemporaryFile("wb", delete=False, suffix=".txt") as f:
        f.write("\n".join(lines).encode("utf-8"))
    try:
        cmd = ["java", "-cp", str(jar_path()), "edu.stanford.nlp.process.PTBTokenizer"]
        out = subprocess.run(
            [*cmd, "-preserveLines", "-lowerCase", f.name], capture_output=True, check=True
        ).stdout.decode("utf-8")
    finally:
        os.remove(f.name)
    got = out.split("\n")[: len(lines)]
    got += [""] * (len(lines) - len(got))
    if raw:
        return got
    return [" ".join(w for w in g.rstrip().split(" ") if w not in PUNCTUATIONS) for g in got]
