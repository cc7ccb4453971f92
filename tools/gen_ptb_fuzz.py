"""Write tests/data/coco_ptb/fuzz.jsonl.xz: the Stanford jar's PTB tokenization (as pycocoevalcap
runs it) of caption-like fuzzed lines.

Needs pycocoevalcap (extra coco) and Java. Each line is a sequence of space-separated words,
each word a random prefix, stem and suffix drawn from lists of quotes, brackets, hyphenated
words, abbreviations, numbers, URLs, e-mail addresses, contractions and non-ASCII text (curly
quotes, dashes, accents, other scripts, symbols), so that every rule of the tokenizer meets
its neighbours. Each record: ``{"text": ..., "jar": ...}`` where ``jar`` is pycocoevalcap's
output (tokens less its punctuation list) and ``differs`` is whether parbleu's tokenizer gave
something else when the file was made (the documented rare cases of docs/captioning.md).
Run: ``python tools/gen_ptb_fuzz.py``.
"""

from __future__ import annotations

import json
import lzma
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from parbleu.metrics.caption.ptb import ptb_tokenize_all
from ptb_oracle import BREAKS, run_jar

ROOT = Path(__file__).parents[1]
OUT = ROOT / "tests/data/coco_ptb/fuzz.jsonl.xz"
N = 6_000
SEED = 3604

STEMS = (  # noqa: SIM905 - one string reads better than 180 quoted items
    "a dog Man two the cats sitting on top of table it is red A I U.S. U.K. Mr. Mrs. Dr. St. "
    "etc. e.g. i.e. p.m. a.m. T.V. Inc. Corp. Jan. Feb. vs. No. no. nos. Nos. 3 3.5 1,000 "
    "12:30 -5 +7 .5 5th 2nd 1990s $5 US$ 5% #1 @user #tag well-known t-shirt hot-dog x-ray "
    "state-of-the-art 3-year-old U.S.-based co-op e-mail can't don't won't it's dog's dogs' "
    "I'm we're they'll you've he'd o'clock rock'n'roll 'em 'til 'cause '90s 'twas y'all "
    "cannot gonna gotta wanna lemme gimme café naïve jalapeño Straße Москва 日本 東京 Ελλάδα "
    "İstanbul ǅ ﬁsh Σ ΑΣ ² ٣ ① ½ ¼ € £ ¢ ¥ © ™ ° … – — ‘ ’ “ ” « » & &amp; &lt; AT&T <b> </i> "
    "http://x.org/a?b=1 https://coco.org/a_b www.coco.org a@b.com first.last@mail.co.uk "
    "123.jpg photo.JPEG file.txt a/b and/or 1/2 1/2/3 km/h ... -- - _ __ * + = ~ ^ \\ | "
    "ok OK Ok no. 5 B. C. W. m. h. x. Ph.D. a.k.a. 😀 ♥ ★ →"
).split()
PREFIX = [*[""] * 24, '"', "(", "[", "{", "'", "`", "``", "“", "‘", "«", "-", "--", "<"]
SUFFIX = [
    *[""] * 30,
    ".",
    ",",
    "!",
    "?",
    ";",
    ":",
    '"',
    ")",
    "]",
    "}",
    "'",
    "''",
    "...",
    "'s",
    "?!",
    "”",
    "’",
    "»",
    "-",
    ".)",
    '."',
    ">",
]
JOIN = [" "] * 40 + ["  ", "\t", "\u00a0", "-", "/", ""]


def line(rng: random.Random) -> str:
    words = []
    for _ in range(rng.randint(1, 14)):
        words.append(rng.choice(PREFIX) + rng.choice(STEMS) + rng.choice(SUFFIX))
        words.append(rng.choice(JOIN))
    return "".join(words[:-1]).strip() or "a"


def main() -> None:
    rng = random.Random(SEED)
    lines = sorted({line(rng) for _ in range(N)})
    lines = [x for x in lines if not any(b in x for b in BREAKS)]
    ours = ptb_tokenize_all(lines)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(OUT, "wt", encoding="utf-8") as out:
        for text, jar, mine in zip(lines, run_jar(lines), ours):
            out.write(json.dumps({"text": text, "jar": jar, "differs": mine != jar}) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(lines)} lines)")


if __name__ == "__main__":
    main()
