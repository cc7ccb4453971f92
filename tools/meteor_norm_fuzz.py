"""Compare the native METEOR ``-norm`` words with the live jar's on random tricky lines.

    python tools/meteor_norm_fuzz.py [--n N] [--seed S] [--lines FILE] [--stdio]
        [--no-new-capitals]

Builds N random lines from tricky pieces (abbreviations, hyphens, apostrophes, quotes, dashes,
numbers, URLs, CJK, Latin-extended and Cyrillic letters, symbols, non-BMP characters,
combining marks, odd spaces), runs the jar once on them (``-l en -norm -m exact
-writeAlignments``, whose alignment file prints each line's normalised words) and prints every
line whose words differ from the native normaliser's. ``--lines`` reads the lines from a file
(one per line) instead. Needs Java and pycocoevalcap.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

PIECES = [
    "U.S.",
    "U.S.-led",
    "e.g.",
    "i.e.,",
    "Mr.",
    "Dr.",
    "No.",
    "no.",
    "p.m.",
    "a.m",
    "etc.",
    "St.",
    "Jan.",
    "Inc.",
    "vs.",
    "A.",
    "b.",
    "x.y",
    ".",
    "..",
    "...",
    "....",
    ". .",
    "?",
    "!",
    "-",
    "--",
    "---",
    "- -",
    "-x",
    "x-",
    "a-b",
    "a-b-c",
    "1-2",
    "-1",
    "1-",
    "A-1",
    "x.-y",
    "'",
    "''",
    "'s",
    "'S",
    "n't",
    "N'T",
    "'ll",
    "'re",
    "'ve",
    "'m",
    "'d",
    "O'Neil",
    "rock'n'roll",
    "goin'",
    "90's",
    "'90s",
    "`",
    "``",
    "´",
    "\u2018",
    "\u2019",
    "\u201a",
    "\u201b",
    "\u201c",
    "\u201d",
    "\u201e",
    '"',
    "«",
    "»",
    "‹",
    "›",
    "\u2013",
    "\u2014",
    "\u2010",
    "\u2011",
    "\u2212",
    "…",
    "1,000",
    "1,000,000",
    "3.14",
    "1.000,50",
    ",",
    ",,",
    "5,",
    ",5",
    "a,b",
    "1,a",
    "a,1",
    "$5",
    "5%",
    "£3",
    "€",
    "½",
    "3½",
    "²",
    "°C",
    "http://www.x.com/a-b?q=1&r=2",
    "www.example.org.",
    "foo@bar.com",
    "#tag",
    "@user",
    "東京",
    "タワー",
    "中国",
    "。",
    "、",
    "ả",
    "Việt",
    "Ɗ",
    "ƙ",
    "ɗ",
    "ſ",
    "ß",
    "é",
    "Ĳ",
    "ŉ",
    "Ω",
    "σς",
    "Σ",
    "Привет",
    "ёЁ",
    "ﬁ",
    "İ",
    "ǅ",
    "ﬀ",
    "e\u0301",
    "a\u0308",
    "\u0301",
    "😀",
    "😀x",
    "𝐀",
    "𐐀",
    "\U0001f1fa",
    "\u00a0",
    "\u2009",
    "\u3000",
    "\t",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x01",
    "\u200b",
    "\u00ad",
    "\ufeff",
    "_",
    "a_b",
    "·",
    "/",
    "\\",
    "|",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "&",
    "&amp;",
    "&quot;",
    "&lt;",
    "&#39;",
    "*",
    "+",
    "=",
    "~",
    "^",
    ";",
    ":",
    "Ab",
    "aB",
    "THE",
    "The",
    "the",
    "a",
    "A",
    "I",
    "x",
    "1",
    "12",
    "2020",
    "Hello",
    "world",
    "it",
    "dog",
    "1.2.",
    ".x.",
    "x.y.",
    "A.B.",
    "Inc.,",
    "p.m.-",
    "'.'",
    "'-'",
    "1.-",
    "-.",
    ".-",
    "x.'",
    "\x1f",
    "\x7f",
    "\x85",
    "\u1680",
    "\u2028",
    "\u2007",
    "\u205f",
    "\u202f",
    "\u200a",
    "Ж",
    "ӧ",
    "\u0527",
    "\u0528",
    "\u1cff",
    "ᴀ",
    "\u1d7f",
    "\u1d80",
    "\ua640",
    "\ua66e",
    "\ua66f",
    "\ua67d",
    "\ua67e",
    "\ua697",
    "\ua698",
    "\xbf",
    "À",
    "Ö",
    "×",
    "ö",
    "÷",
    "ø",
    "ž",
    "\u03ff",
    "٣",
    "١٢",
    "¹",
    "ⅷ",
    "ǈ",
    "ǉ",
    "ȷ",
]
LOW = "".join(map(chr, range(33)))
SEPS = [" ", " ", " ", "", "", "  "]


def any_char(rng: random.Random, cased: bool = True) -> str:
    """Any code point but a surrogate or a line break, mostly from the first planes.

    ``cased=False`` leaves out capitals and code points this Python does not know: their lower
    case depends on the Unicode version of the jar's Java (docs/captioning.md).
    """
    while True:
        c = rng.randrange(rng.choice([0x80, 0x800, 0x10000, 0x110000]))
        if c in (10, 13) or 0xD800 <= c < 0xE000:
            continue
        if cased or unicodedata.category(chr(c)) not in ("Lu", "Lt", "Cn"):
            return chr(c)


def random_line(rng: random.Random, cased: bool = True) -> str:
    """A line of 1-4, 1-12 or 1-40 pieces or random characters, joined by spaces or nothing."""
    n = rng.randint(1, rng.choice([4, 12, 40]))
    out = []
    for _ in range(n):
        out.append(rng.choice(PIECES) if rng.random() < 0.85 else any_char(rng, cased))
        out.append(rng.choice(SEPS))
    return "".join(out).strip(" ") or "x"


def jar_words(lines: list[str]) -> list[list[str]]:
    """Each line's words as the jar normalises them."""
    from parbleu.metrics.caption._meteor_native import meteor_dir

    jar = meteor_dir() / "meteor-1.5.jar"
    with tempfile.TemporaryDirectory() as d:
        t, r = Path(d, "t"), Path(d, "r")
        # -stdio (pycocoevalcap's mode) trims each field as Java's String.trim does: a file
        # line is not trimmed, so trim it here to see what -stdio sees.
        t.write_text("".join(x.strip(LOW) + "\n" for x in lines), encoding="utf-8")
        r.write_text("zzz\n" * len(lines), encoding="utf-8")
        cmd = ["java", "-Xmx2G", "-jar", str(jar), str(t), str(r), "-l", "en", "-norm"]
        cmd += ["-m", "exact", "-writeAlignments", "-f", str(Path(d, "o"))]
        subprocess.run(cmd, check=True, capture_output=True)
        text = Path(d, "o-align.out").read_text(encoding="utf-8").split("\n")
    out = []
    for k, line in enumerate(text):
        if line.startswith("Alignment\t"):
            out.append([w for w in text[k + 1].split(" ") if w])
    return out


def jar_lengths(lines: list[str]) -> list[int]:
    """Each line's word count as the jar's ``-stdio`` mode (pycocoevalcap's) counts it."""
    from parbleu.metrics.caption._meteor_native import meteor_dir

    jar = meteor_dir() / "meteor-1.5.jar"
    cmd = ["java", "-Xmx2G", "-jar", str(jar), "-", "-", "-stdio", "-l", "en", "-norm"]
    cmd += ["-m", "exact"]
    text = "".join(f"SCORE ||| zzz ||| {x}\n" for x in lines)
    out = subprocess.run(cmd, input=text.encode(), check=True, capture_output=True).stdout
    return [int(float(x.split()[0])) for x in out.decode().splitlines()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lines", type=Path)
    ap.add_argument("--stdio", action="store_true", help="also check the -stdio word counts")
    ap.add_argument(
        "--no-new-capitals",
        action="store_true",
        help="random characters leave out capitals and code points this Python does not know",
    )
    args = ap.parse_args()
    from parbleu.metrics.caption._meteor_native import load_scorer

    if args.lines:
        lines = args.lines.read_text(encoding="utf-8").split("\n")
        lines = [x for x in lines if x]
    else:
        rng = random.Random(args.seed)
        lines = [random_line(rng, not args.no_new_capitals) for _ in range(args.n)]
    jar = jar_words(lines)
    if len(jar) != len(lines):
        sys.exit(f"the jar printed {len(jar)} alignments for {len(lines)} lines")
    scorer = load_scorer(paraphrase=False)
    bad = 0
    for line, want in zip(lines, jar):
        mine = scorer.alignment(line, "zzz")[0]
        if mine != want:
            bad += 1
            print(repr(line), "\n  jar:", want, "\n  me: ", mine)
    print(f"{bad} of {len(lines)} lines differ")
    if args.stdio:
        pick = [x for x in lines if "|||" not in x]
        counts = jar_lengths(pick)
        worse = [(x, n) for x, n in zip(pick, counts) if len(scorer.alignment(x, "zzz")[0]) != n]
        for x, n in worse:
            print(repr(x), "\n  stdio length:", n)
        print(f"stdio: {len(worse)} of {len(pick)} word counts differ")


if __name__ == "__main__":
    main()
