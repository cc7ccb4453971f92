"""Run pycocoevalcap's METEOR 1.5 jar once over the golden segments; write tests/data/meteor/.

The segments come from the packed test data (``tests/testdata.py``), so the golden file holds
only where each segment comes from and the jar's numbers, never the text:

* COCO captions (coco-mini val2017 and train2017): each caption of an image as the hypothesis
  against the image's other captions (leave one out);
* WMT21 into English: every system output line against all references of its pair, and each
  reference against the other reference where there are two;
* crafted lines: empty and punctuation-only hypotheses and references.

The jar runs as pycocoevalcap runs it (``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en
-norm``): one ``SCORE`` line per segment (the hypothesis with ``|||`` removed and double spaces
collapsed once, as pycocoevalcap does), then one ``EVAL`` line per group (a COCO split, a WMT
system), which answers each segment's score and the group's corpus score.

Usage: ``python tools/gen_meteor_golden.py [--limit N]`` (needs Java and pycocoevalcap).
"""

from __future__ import annotations

import argparse
import json
import lzma
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
OUT = REPO / "tests" / "data" / "meteor" / "golden.json.xz"
#: Segments kept (the first ones in the order of segments()): over 100,000, in ~15 min.
LIMIT = 102_000

#: Crafted segments: (hypothesis, references).
CRAFTED: list[tuple[str, list[str]]] = [
    ("", ["a dog runs"]),
    ("a dog runs", [""]),
    ("", [""]),
    (".", ["a dog runs ."]),
    ("!!! ???", ["... , ; :"]),
    ("- -- ---", ["' \" `` ''"]),
    ("a dog runs", ["...", "a dog is running"]),
    ("Dogs are running!", ["The dog runs.", "a dog is running"]),
]


def segments(root: Path) -> Iterator[tuple[str, str, list[str]]]:
    """Yield (group, hypothesis, references), in a fixed order; the group names the source."""
    yield from (("crafted", h, rs) for h, rs in CRAFTED)
    for split in ("val2017", "train2017"):
        data = json.loads((root / f"data/captions/coco-mini/captions_{split}.json").read_text())
        caps: dict[int, list[str]] = {}
        for a in data["annotations"]:
            caps.setdefault(a["image_id"], []).append(a["caption"])
        for img in sorted(caps):
            cs = caps[img]
            for k, c in enumerate(cs):
                yield f"coco:{split}", c, cs[:k] + cs[k + 1 :]
    wmt = root / "data/wmt21"
    for pair in ("cs-en", "de-en", "ha-en", "is-en", "ja-en", "ru-en", "zh-en"):
        refs = [
            (wmt / "references" / f"newstest2021.{pair}.ref.{r}.en").read_text().split("\n")
            for r in ("A", "B")
            if (wmt / "references" / f"newstest2021.{pair}.ref.{r}.en").is_file()
        ]
        n = len(refs[0]) - 1
        if len(refs) == 2:
            for k in range(n):
                yield f"wmt:{pair}:refB", refs[1][k], [refs[0][k]]
        for hyp in sorted((wmt / "system-outputs").glob(f"newstest2021.{pair}.hyp.*.en")):
            lines = hyp.read_text().split("\n")
            system = hyp.name.split(".hyp.")[1][: -len(".en")]
            for k in range(n):
                yield f"wmt:{pair}:{system}", lines[k], [r[k] for r in refs]


def _breaks(c: str) -> bool:
    return any(b in c for b in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def score_line(h: str, refs: list[str]) -> str:
    """pycocoevalcap's ``Meteor._stat`` line."""
    h = h.replace("|||", "").replace("  ", " ")
    return " ||| ".join(("SCORE", " ||| ".join(refs), h))


def run_jar(lines: list[str], answers: int, jar_dir: Path) -> list[str]:
    """Feed ``lines`` to one jar (a writer thread) and read ``answers`` answers."""
    cmd = ["java", "-jar", "-Xmx2G", "meteor-1.5.jar", "-", "-", "-stdio", "-l", "en", "-norm"]
    p = subprocess.Popen(cmd, cwd=jar_dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert p.stdin is not None and p.stdout is not None

    def write() -> None:
        assert p.stdin is not None
        for line in lines:
            p.stdin.write((line + "\n").encode())
        p.stdin.flush()

    t = threading.Thread(target=write, daemon=True)
    t.start()
    out = [p.stdout.readline().decode().strip() for _ in range(answers)]
    t.join()
    p.stdin.close()
    p.wait()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=LIMIT, help="at most N segments")
    args = ap.parse_args()
    import testdata
    from parbleu.metrics.caption._meteor_native import meteor_dir

    root = testdata.root()
    segs = list(segments(root))
    if args.limit:
        segs = segs[: args.limit]
    # A line break splits a SCORE line in two and shifts every later answer (pycocoevalcap's
    # bug; parbleu refuses such captions): those segments are not sent.
    broken = {k for k, (_, h, rs) in enumerate(segs) if any(_breaks(c) for c in (h, *rs))}
    print(f"{len(segs)} segments", file=sys.stderr)
    jar_dir = meteor_dir()
    sent = [k for k in range(len(segs)) if k not in broken]
    answers_sent = run_jar([score_line(segs[k][1], segs[k][2]) for k in sent], len(sent), jar_dir)
    stats = ["Error: line break"] * len(segs)
    for k, a in zip(sent, answers_sent):
        stats[k] = a
    groups: dict[str, list[int]] = {}
    failed: list[int] = []
    for k, (g, _, _) in enumerate(segs):
        if not stats[k][:1].isdigit():  # the jar's "Error: ..." (pycocoevalcap then fails)
            failed.append(k)
            continue
        groups.setdefault(g, []).append(k)
    print(f"{len(failed)} segments the jar refuses: {failed[:20]}", file=sys.stderr)
    evals = ["EVAL ||| " + " ||| ".join(stats[k] for k in ks) for ks in groups.values()]
    answers = run_jar(evals, sum(len(ks) + 1 for ks in groups.values()), jar_dir)
    seg_scores: list[str] = [""] * len(segs)
    corpus: dict[str, str] = {}
    at = 0
    for g, ks in groups.items():
        for k in ks:
            seg_scores[k] = answers[at]
            at += 1
        corpus[g] = answers[at]
        at += 1
    record = {
        "how": "tools/gen_meteor_golden.py: pycocoevalcap 1.2's meteor-1.5.jar, -l en -norm",
        "groups": [[g, len(ks)] for g, ks in groups.items()],
        "failed": failed,
        "stats": [[int(float(x)) for x in s.split()] if s[:1].isdigit() else None for s in stats],
        "scores": seg_scores,
        "corpus": corpus,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(lzma.compress(json.dumps(record, separators=(",", ":")).encode(), preset=9))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
