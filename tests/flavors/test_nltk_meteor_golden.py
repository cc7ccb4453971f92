"""parbleu's ``meteor_score`` against NLTK 3.10.4's recorded scores, bit for bit (light install).

``tests/data/nltk_meteor/golden.f64.xz`` holds NLTK's ``meteor_score`` of every segment
``tools/gen_nltk_meteor_golden.py`` builds from the test data (WMT21 into-English system
outputs against one or two references, COCO captions left out one at a time): more than
100,000 segments, scored here with parbleu's shipped WordNet table, no NLTK needed.
"""

from __future__ import annotations

import struct
import sys

from helpers import REPO, SHARED
from parbleu.flavors.nltk.meteor_score import meteor_scores

# tools/ on the path only for this import: left there, its modules would shadow later imports.
sys.path.insert(0, str(REPO / "tools"))
try:
    import gen_nltk_meteor_golden as gen
finally:
    sys.path.remove(str(REPO / "tools"))


def test_golden_bit_exact() -> None:
    segs = gen.segments(SHARED)
    want = gen.unpack(gen.OUT.read_bytes())
    assert len(segs) == len(want) > 100_000
    got = meteor_scores([r for r, _ in segs], [h for _, h in segs], wordnet="parbleu")
    bits = struct.Struct("<d").pack
    bad = [i for i, (a, b) in enumerate(zip(got, want)) if bits(a) != bits(b)]
    assert not bad, [(i, segs[i], got[i], want[i]) for i in bad[:3]]
    # Not a constant: the set has a spread of scores.
    assert len(set(want)) > 10_000
