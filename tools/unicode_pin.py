"""The Unicode version of parbleu's generated tables, and the generators' guard.

parbleu's tokenizer and flavor tables are fixed data: CPython 3.11's ``unicodedata``
(Unicode 14.0.0, also Perl 5.36's, the version of the mteval golden runs). SacreBLEU, NLTK and
tensor2tensor use the running interpreter's ``unicodedata`` instead, so on another version they
differ from parbleu on the characters whose properties changed (measured in
docs/differences-from-sacrebleu.md). The generators brute-force the tables through the running
interpreter, so they only write under the pinned version; elsewhere ``--check`` is skipped with
the reason, since its answer would be about the interpreter, not about the tables.
"""

from __future__ import annotations

import sys
import unicodedata

#: ``unicodedata.unidata_version`` the tables are generated with.
PINNED = "14.0.0"
#: A CPython whose ``unicodedata`` is :data:`PINNED`.
PINNED_PYTHON = "3.11"


def guard(tool: str, check: bool) -> int | None:
    """``None`` when this interpreter has the pinned Unicode version; otherwise print why the
    generator does not run and return its exit status: 0 for ``--check`` (skipped), 2 for a
    write (refused: it would silently change the pinned data)."""
    have = unicodedata.unidata_version
    if have == PINNED:
        return None
    what = "--check skipped" if check else "not written"
    print(
        f"{tool}: {what}: the tables are pinned to Unicode {PINNED} (CPython {PINNED_PYTHON}'s "
        f"unicodedata), this Python {sys.version.split()[0]} has Unicode {have}; run it with "
        f"CPython {PINNED_PYTHON}",
        file=sys.stderr,
    )
    return 0 if check else 2
