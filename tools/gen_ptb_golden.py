"""Write tests/data/coco_ptb/golden.jsonl.xz: the Stanford jar's PTB tokenization (as
pycocoevalcap runs it) of COCO captions, WMT English lines and a fuzzed set.

Needs pycocoevalcap (extra coco), Java and ../shared (the captions and WMT21 English files).
Each record: ``{"set": ..., "text": ..., "jar": ...}`` where ``jar`` is pycocoevalcap's output
(tokens less its punctuation list) and ``differs`` is whether parbleu's native tokenizer gave
something else when the file was made (the documented rare cases).
Run: ``python tools/gen_ptb_golden.py``.
"""

from __future__ import annotations

import json
import lzma
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from parbleu.metrics.caption.ptb import ptb_tokenize
from ptb_oracle import BREAKS, run_jar

ROOT = Path(__file__).parents[1]
SHARED = ROOT.parent / "shared" if (ROOT.parent / "shared").is_dir() else Path("/work/shared")
OUT = ROOT / "tests/data/coco_ptb/golden.jsonl.xz"
N_WMT = 6000
N_FUZZ = 6000

FRAGMENTS = [
    "a dog",
    "The cat",
    "runs",
    "U.S.",
    "Mr.",
    "Dr. Smith",
    "e.g.",
    "etc.",
    "No. 5",
    "no.",
    "p.m.",
    "3.5",
    "1,000",
    "$5",
    "5%",
    "#1",
    "@user",
    "http://x.org/a?b=1",
    "www.coco.org",
    "a@b.com",
    "well-known",
    "state-of-the-art",
    "--",
    "-",
    "...",
    "..",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    '"',
    "'",
    "`",
    "``",
    "''",
    "can't",
    "won't",
    "I'm",
    "it's",
    "dogs'",
    "'90s",
    "o'clock",
    "rock'n'roll",
    "cannot",
    "gonna",
    "Café",
    "naïve",
    "Straße",
    "日本",
    "Ελλάδα",
    "Москва",
    "“",
    "”",
    "‘",
    "’",
    "–",
    "—",
    "…",
    "½",
    "€",
    "£",
    "¢",
    "&",
    "&amp;",
    "AT&T",
    "<b>",
    "</i>",
    "a.b.c",
    "x.com",
    "123.jpg",
    "3/4",
    "1/2/3",
    "12:30",
    "+7",
    "-5",
    ".5",
    "5th",
    "2nd",
    "!",
    "?",
    "!!!",
    "?!",
    ";",
    ":",
    ",",
    ".",
    "A.",
    "B.",
    "c.",
    "vs.",
    "Inc.",
    "Jan.",
    "St.",
    "ft.",
    "Calif.",
    "Y'all",
    "'tis",
    "d'oh",
    "Yu'e",
    "_",
    "__",
    "*",
    "+",
    "=",
    "/",
    "\\",
    "~",
    "^",
    "\xad",
    "\xa0",
    "\u200b",
    "\t",
    "ℕ",
    "𝔸",
    "😀",
    "é",
    "ñ",
    "ß",
    "İ",
    "ǅ",
    "Σ",
    "ς",
    "ﬁ",
]


def fuzz(rng: random.Random) -> str:
    parts = [rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 8))]
    out = ""
    for p in parts:
        out += rng.choice(["", " ", " ", " ", "  "]) + p
    return out.strip(" ") or "a"


def captions() -> list[str]:
    caps: set[str] = set()
    for f in sorted((SHARED / "data/captions").rglob("*.json")):
        stack = [json.loads(f.read_text(encoding="utf-8"))]
        while stack:
            x = stack.pop()
            if isinstance(x, str):
                caps.add(x)
            elif isinstance(x, dict):
                stack.extend(x.values())
            elif isinstance(x, list):
                stack.extend(x)
    return sorted(c.replace("\n", " ") for c in caps if c.strip())


def wmt(rng: random.Random) -> list[str]:
    lines: set[str] = set()
    wmt21 = SHARED / "data/wmt21"
    files = sorted(wmt21.glob("references/*.en")) + sorted(wmt21.glob("system-outputs/*-en.*.en"))
    for f in files:
        lines.update(x for x in f.read_text(encoding="utf-8").split("\n") if x.strip())
    return rng.sample(sorted(lines), N_WMT)


def main() -> None:
    rng = random.Random(36)
    sets = {
        "coco": captions(),
        "wmt": wmt(rng),
        "fuzz": sorted({fuzz(rng) for _ in range(N_FUZZ)}),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(OUT, "wt", encoding="utf-8") as out:
        for name, lines in sets.items():
            lines = [x for x in lines if not any(b in x for b in BREAKS)]
            for text, jar in zip(lines, run_jar(lines)):
                rec = {"set": name, "text": text, "jar": jar, "differs": ptb_tokenize(text) != jar}
                out.write(json.dumps(rec) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
