#!/usr/bin/env python3
"""Generate `crates/parbleu-core/tests/data/tokenizer_cases.tsv`, the fixture of the Rust
integration test `crates/parbleu-core/tests/tokenizers_golden.rs`.

Each case is what SacreBLEU 2.6's BLEU does to one line with one tokenizer:
``tok((line.lower() if lowercase else line).rstrip())``. The cases are

* `golden`: every line of the `none`, `13a`, `intl`, `char` and `zh` records of
  `shared/golden/sacrebleu/tokenizers.jsonl` (expected output taken from the record, after
  checking that the installed SacreBLEU still agrees);
* `tricky`: hand-picked strings (consecutive punctuation, digits around `.`/`,`/`-`, HTML
  entities, `<skipped>`, Python whitespace, zh's buggy ranges, final sigma, `İ`, ...), with and
  without lowercasing;
* `wmt21`: lines 26..45 of WMT21 references (en-de, zh-en, en-zh, en-ja).

Format: `#` comment lines, then one case per line, five tab-separated fields
`tokenizer  lowercase(0/1)  source  input  expected`, where `\\` is written `\\\\` and tabs,
line breaks, controls and non-space whitespace are written `\\u{hex}`.

Usage::

    python tools/gen_tokenizer_fixture.py           # (re)write the fixture
    python tools/gen_tokenizer_fixture.py --check   # exit 1 if it is not what we would write
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

import sacrebleu
from sacrebleu.metrics.bleu import _get_tokenizer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import testdata  # noqa: E402 - the test data tree (tests/data/testdata.tar.xz, extracted)

sys.path.insert(0, str(ROOT / "tools"))
import gen_output  # noqa: E402 - the generators' shared command line
import unicode_pin  # noqa: E402 - lowercasing follows the interpreter's Unicode version

SHARED = testdata.root()
OUT = ROOT / "crates" / "parbleu-core" / "tests" / "data" / "tokenizer_cases.tsv"
NAMES = ("none", "13a", "intl", "char", "zh")
WMT_FILES = (
    "data/wmt21/references/newstest2021.en-de.ref.A.de",
    "data/wmt21/references/newstest2021.zh-en.ref.A.en",
    "data/wmt21/references/newstest2021.en-zh.ref.A.zh",
    "data/wmt21/references/newstest2021.en-ja.ref.A.ja",
)
# Lines 26..45: the golden records already hold the first 25 lines of these files.
WMT_LINES = range(25, 45)

TRICKY = [
    "",
    " ",
    "\t",
    "a",
    "Hello, world!",
    "It costs $3.50, or 3,50 €.",
    "a.,b",
    "1.,2",
    "a.,1",
    "1,.,2",
    "...",
    "wait...",
    "1..2",
    "1...2",
    "a..1",
    "a...1",
    "..5",
    "...5",
    ".5",
    "5.",
    "x.5",
    "3.a",
    "3.14 and 1,000",
    "It was 1990.",
    "It was 1990. Then",
    "1-2-3",
    "1--2",
    "a-b 2-b x-1",
    "Mr. O'Neil's 2-year-old",
    "-1 1- -",
    "e-mail, re-enter",
    "a &amp; b &lt;c&gt; &quot;d&quot;",
    "&amp;lt;",
    "&amp;quot;",
    "&AMP; &apos; &#39;",
    "x<skipped>y",
    "<skip<skipped>ped>",
    "<skipped>",
    "hyph-\nen\nated",
    "-<skipped>\nx",
    "1-\n2",
    "a\r\nb",
    "tab\there",
    "a\x1cb\x1dc\x1ed\x1fe",
    "a\x0bb\x0cc",
    "a\u00a0b\u1680c\u2000d\u2001e\u200af\u2028g\u2029h\u202fi\u205fj\u3000k",
    "zero\u200bwidth",
    "\u0085.\u2028",
    "  leading and trailing  \u3000",
    "\u3000全角空格\u3000",
    "我爱北京天安门。",
    "我有3.5个苹果,很好.",
    "ＡＢＣ１２３，．",
    "5€,x",
    "a→b ⇒ c",
    "\U00020000\U00020001 \U0002f800",
    "中.5",
    "5.中",
    "  .5  ",
    "«Ja»—sagte er…",
    "„Zitat“ ‚halb‘",
    "‘quoted’ “quoted”",
    "Ⅻ.Ⅻ",
    "٣.٤ ١٢٣.",
    "$5 + 3€ = ¥8",
    "100% (approx.) [sic] {x} <y> a/b a\\b a|b a~b a^b a_b a`b a@b a#b",
    "ΟΔΟΣ ΟΔΟΣ.",
    "ΑΣ'Α",
    "ΑΣ'",
    "Α'Σ",
    "1Σ ΑΣ1 ΑΣΣ",
    "\u0345Σ",
    "Α\u0345Σ",
    "ΑΣ\u0345",
    "aΣ\u0301b",
    "İSTANBUL İ ı I",
    "ǅ ǈ ǋ ǲ",
    "ẞ ß ﬁ ŉ",
    "e\u0301 n\u0303",
    "don't l'homme",
    "emoji 😀! 👍🏽.",
    "\ufeffBOM",
    "soft\u00adhyphen",
    "ｶﾀｶﾅ ｱｲｳ",
    "한국어, 좋아요.",
    "Δ. Ω, Ж.",
    "ab" * 100 + "." * 7 + "1,2.3-4" * 20,
]


def read_lines(rel: str) -> list[str]:
    """As the golden records read files: UTF-8, split on '\\n', final empty piece dropped."""
    parts = (SHARED / rel).read_text(encoding="utf-8").split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return parts


def escape(s: str) -> str:
    out = []
    for c in s:
        if c == "\\":
            out.append("\\\\")
        elif (c != " " and c.isspace()) or unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp"):
            out.append(f"\\u{{{ord(c):x}}}")
        else:
            out.append(c)
    return "".join(out)


def render() -> str:
    toks = {name: _get_tokenizer(name)() for name in NAMES}

    def sacre(name: str, line: str, lowercase: bool) -> str:
        return toks[name]((line.lower() if lowercase else line).rstrip())

    rows: list[tuple[str, int, str, str, str]] = []

    golden = SHARED / "golden" / "sacrebleu" / "tokenizers.jsonl"
    with open(golden, encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    for rec in recs:
        name = rec["tokenizer"]
        if name not in NAMES:
            continue
        lines = read_lines(rec["file"])[: rec["n_lines"]]
        assert len(lines) == len(rec["output"]), rec["id"]
        for i, (line, out) in enumerate(zip(lines, rec["output"])):
            if sacre(name, line, False) != out:
                raise SystemExit(f"{rec['id']} line {i}: the installed SacreBLEU disagrees")
            rows.append((name, 0, f"golden:{rec['file']}#{i + 1}", line, out))

    for k, line in enumerate(TRICKY):
        for name in NAMES:
            for lc in (0, 1):
                rows.append((name, lc, f"tricky#{k + 1}", line, sacre(name, line, bool(lc))))

    for rel in WMT_FILES:
        lines = read_lines(rel)
        for i in WMT_LINES:
            line = lines[i]
            for name in NAMES:
                rows.append(
                    (name, 0, f"wmt21:{Path(rel).name}#{i + 1}", line, sacre(name, line, False))
                )
            rows.append(
                ("13a", 1, f"wmt21:{Path(rel).name}#{i + 1}", line, sacre("13a", line, True))
            )

    pin_python = unicode_pin.PINNED_PYTHON
    head = [
        "# @generated by tools/gen_tokenizer_fixture.py -- DO NOT EDIT.",
        "# Regenerate with: python tools/gen_tokenizer_fixture.py (--check to compare).",
        f"# Source: CPython {pin_python} (unicodedata {unicodedata.unidata_version}), "
        f"sacrebleu {sacrebleu.__version__}.",
        "# tokenizer<TAB>lowercase<TAB>source<TAB>input<TAB>expected; \\\\ and \\u{hex} escapes.",
    ]
    body = [f"{n}\t{lc}\t{src}\t{escape(i)}\t{escape(o)}" for n, lc, src, i, o in rows]
    return "\n".join(head + body) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write or check the fixture."""
    return gen_output.main("gen_tokenizer_fixture.py", __doc__.split("\n\n")[0], OUT, render, argv)


if __name__ == "__main__":
    sys.exit(main())
