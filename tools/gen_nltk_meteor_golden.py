#!/usr/bin/env python3
"""Golden scores of NLTK 3.10.4's ``meteor_score`` for ``tests/flavors/test_nltk_meteor_golden.py``.

Runs the real NLTK (with WordNet 3.0 installed by ``tools/build_nltk_wordnet.py``, never
``nltk.download``) on the segments :func:`segments` builds from the shared test data, and
writes ``tests/data/nltk_meteor/golden.f64.xz``: the scores as little-endian float64, in
segment order, xz-compressed. The test rebuilds the same segments and compares bit for bit.

Segments (``str.split`` tokens: evaluate's ``word_tokenize`` needs punkt, a download):

* WMT21 into English: every system output of every ``*-en`` pair, line by line, against
  reference A and, where there is one, B (``meteor_score``'s max over references);
* COCO captions (the val2017 leave-one-out set, and coco-mini's train2017 and val2017 captions
  left out one at a time): each held-out caption against the other captions of its image.

    NLTK_DATA=/tmp/nltk_data python tools/gen_nltk_meteor_golden.py [--shared DIR]

The data is the test archive's (tests/data/testdata.tar.xz), so a plain clone regenerates it.
"""

from __future__ import annotations

import argparse
import json
import lzma
import struct
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "data" / "nltk_meteor" / "golden.f64.xz"


def _lines(p: Path) -> list[str]:
    return p.read_text(encoding="utf-8").split("\n")[:-1]


def segments(shared: Path) -> list[tuple[list[list[str]], list[str]]]:
    """``(references, hypothesis)`` token lists, in the golden file's order."""
    out: list[tuple[list[list[str]], list[str]]] = []
    wmt = shared / "data" / "wmt21"
    for ref_a in sorted((wmt / "references").glob("newstest2021.*-en.ref.A.en")):
        pair = ref_a.name.split(".")[1]
        refs = [_lines(ref_a)]
        ref_b = ref_a.with_name(f"newstest2021.{pair}.ref.B.en")
        if ref_b.exists():
            refs.append(_lines(ref_b))
        for hyp in sorted((wmt / "system-outputs").glob(f"newstest2021.{pair}.hyp.*.en")):
            for i, h in enumerate(_lines(hyp)):
                out.append(([r[i].split() for r in refs], h.split()))
    caps = shared / "data" / "captions" / "derived"
    hyps = json.loads((caps / "val2017.loo.hyp.json").read_text(encoding="utf-8"))
    refs_by = json.loads((caps / "val2017.loo.refs.json").read_text(encoding="utf-8"))
    for key in sorted(hyps, key=str):
        for h in hyps[key]:
            out.append(([r.split() for r in refs_by[key]], h.split()))
    for split in ("train2017", "val2017"):
        data = json.loads(
            (shared / "data" / "captions" / "coco-mini" / f"captions_{split}.json").read_text(
                encoding="utf-8"
            )
        )
        by_image: dict[int, list[str]] = {}
        for a in sorted(data["annotations"], key=lambda a: a["id"]):
            by_image.setdefault(a["image_id"], []).append(a["caption"])
        for image in sorted(by_image):
            caps_i = by_image[image]
            for k in range(len(caps_i) if len(caps_i) > 1 else 0):
                others = caps_i[:k] + caps_i[k + 1 :]
                out.append(([r.split() for r in others], caps_i[k].split()))
    return out


def pack(scores: list[float]) -> bytes:
    return lzma.compress(struct.pack(f"<{len(scores)}d", *scores), preset=9 | lzma.PRESET_EXTREME)


def unpack(data: bytes) -> list[float]:
    raw = lzma.decompress(data)
    return list(struct.unpack(f"<{len(raw) // 8}d", raw))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, help="data tree (default: tests/data's, extracted)")
    args = ap.parse_args()
    if args.shared is None:
        sys.path.insert(0, str(REPO / "tests"))
        import testdata

        args.shared = testdata.root()
    from nltk.translate.meteor_score import meteor_score

    segs = segments(args.shared)
    scores = [meteor_score(r, h) for r, h in segs]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(pack(scores))
    print(f"{OUT}: {len(scores)} segments", file=sys.stderr)


if __name__ == "__main__":
    main()
