#!/usr/bin/env python3
"""Generate `crates/parbleu-core/src/text/tables.rs`: the Unicode tables parbleu's
tokenizers need to reproduce SacreBLEU 2.6 exactly.

Every table is obtained by brute force over all Unicode scalar values (U+0000..U+10FFFF,
surrogates excluded), asking the very code SacreBLEU runs on, never a Unicode data file:

* ``\\p{N}``, ``\\p{P}``, ``\\p{S}`` as the third-party ``regex`` module matches them (used by
  ``TokenizerV14International``; ``regex`` ships its own, newer, Unicode data);
* ``TokenizerZh._is_chinese_char`` (its ``_UCODE_RANGES`` hold buggy two-character bounds such as
  ``'\\u20000'``, compared as strings, so the effective ranges are not the ones written there);
* CPython's ``str.lower()`` for each character (full case mapping; Unicode 14.0, pinned: see
  ``tools/unicode_pin.py``);
* CPython's "cased" and "case-ignorable" properties, which drive ``str.lower()``'s final-sigma
  rule (``handle_capital_sigma`` in ``Objects/unicodeobject.c``). Python exposes neither, so they
  are read back through ``str.title()`` (``previous_is_cased = _PyUnicode_IsCased(c)``) and through
  the final-sigma rule itself.

Usage::

    python tools/gen_unicode_tables.py           # (re)write tables.rs
    python tools/gen_unicode_tables.py --check   # exit 1 if tables.rs is not what we would write

Run it with the Unicode / regex / sacrebleu versions named in the generated header (the tables
depend on them; ``--check`` under another regex or sacrebleu reports the difference, under
another Unicode version it is skipped with the reason).
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import regex
import sacrebleu
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_output  # noqa: E402 - the generators' shared command line
import unicode_pin  # noqa: E402 - the pinned Unicode version

OUT = ROOT / "crates" / "parbleu-core" / "src" / "text" / "tables.rs"

MAX_CP = 0x10FFFF
SIGMA = "\u03a3"
FINAL_SIGMA = "\u03c2"

# Classes of the `intl` tokenizer (the three sets are disjoint; checked below).
CLASS_OTHER, CLASS_N, CLASS_P, CLASS_S = 0, 1, 2, 3


def scalar_values():
    for cp in range(MAX_CP + 1):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        yield cp


def to_ranges(cps):
    """Sorted code points -> list of inclusive (start, end) ranges of consecutive values."""
    ranges: list[list[int]] = []
    for cp in cps:
        if ranges and ranges[-1][1] + 1 == cp:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return [(a, b) for a, b in ranges]


def collect():
    re_n = regex.compile(r"\p{N}")
    re_p = regex.compile(r"\p{P}")
    re_s = regex.compile(r"\p{S}")
    is_chinese = TokenizerZh._is_chinese_char
    is_chinese = getattr(is_chinese, "__wrapped__", is_chinese)  # skip the lru_cache

    intl_class: dict[int, int] = {}
    chinese: list[int] = []
    cased: list[int] = []
    ignorable: list[int] = []
    lower_single: list[tuple[int, int]] = []
    lower_multi: list[tuple[int, str]] = []

    for cp in scalar_values():
        c = chr(cp)

        # --- intl: \p{N}, \p{P}, \p{S} of the `regex` module
        n = re_n.match(c) is not None
        p = re_p.match(c) is not None
        s = re_s.match(c) is not None
        if n + p + s > 1:
            raise SystemExit(
                f"U+{cp:04X} is in more than one of N, P, S: the tokenizer assumes not"
            )
        if (n or p or s) and c.isspace():
            raise SystemExit(f"U+{cp:04X} is whitespace and in N/P/S: the tokenizer assumes not")
        if n:
            intl_class[cp] = CLASS_N
        elif p:
            intl_class[cp] = CLASS_P
        elif s:
            intl_class[cp] = CLASS_S

        # --- zh
        if is_chinese(c):
            chinese.append(cp)

        # --- CPython's Cased: `title()` lowercases the next character iff this one is cased.
        is_cased = (c + "a").title()[-1] == "a"
        # --- CPython's Case_Ignorable, read through the final-sigma rule:
        #   c + Σ    -> ς  iff  c is not case-ignorable and c is cased
        #   A + c + Σ -> ς  iff  c is case-ignorable or c is cased
        #   A + Σ + c -> ς  iff  c is case-ignorable or c is not cased   (consistency check)
        x = (c + SIGMA).lower()[-1] == FINAL_SIGMA
        y = ("A" + c + SIGMA).lower()[-1] == FINAL_SIGMA
        z = ("A" + SIGMA + c).lower()[1] == FINAL_SIGMA
        is_ignorable = (not x) if is_cased else y
        if x != ((not is_ignorable) and is_cased) or y != (is_ignorable or is_cased):
            raise SystemExit(f"U+{cp:04X}: inconsistent final-sigma probes")
        if z != (is_ignorable or not is_cased):
            raise SystemExit(f"U+{cp:04X}: inconsistent final-sigma probes (after)")
        if is_cased:
            cased.append(cp)
        if is_ignorable:
            ignorable.append(cp)

        # --- str.lower() (context-free part; U+03A3 is handled by the final-sigma rule)
        low = c.lower()
        if low != c:
            if len(low) == 1:
                lower_single.append((cp, ord(low)))
            else:
                lower_multi.append((cp, low))

    return intl_class, chinese, cased, ignorable, lower_single, lower_multi


def class_ranges(intl_class):
    out: list[list[int]] = []
    for cp in sorted(intl_class):
        k = intl_class[cp]
        if out and out[-1][1] + 1 == cp and out[-1][2] == k:
            out[-1][1] = cp
        else:
            out.append([cp, cp, k])
    return [tuple(r) for r in out]


def rust_str(s: str) -> str:
    return (
        '"'
        + "".join(
            c if 0x20 <= ord(c) < 0x7F and c not in '"\\' else f"\\u{{{ord(c):x}}}" for c in s
        )
        + '"'
    )


def fmt_items(items: list[str], per_line: int) -> str:
    lines = []
    for i in range(0, len(items), per_line):
        lines.append("    " + " ".join(items[i : i + per_line]))
    return "\n".join(lines)


def render() -> str:
    intl_class, chinese, cased, ignorable, lower_single, lower_multi = collect()
    intl = class_ranges(intl_class)

    def range_table(name: str, doc: str, ranges) -> str:
        items = [f"(0x{a:04X}, 0x{b:04X})," for a, b in ranges]
        return (
            f"/// {doc}\npub(crate) const {name}: &[(u32, u32)] = &[\n{fmt_items(items, 5)}\n];\n"
        )

    pin_python = unicode_pin.PINNED_PYTHON
    parts = []
    parts.append(
        "// @generated by tools/gen_unicode_tables.py -- DO NOT EDIT.\n"
        "// Regenerate with:   python tools/gen_unicode_tables.py\n"
        "// Check with:        python tools/gen_unicode_tables.py --check\n"
        f"// Source: CPython {pin_python} (unicodedata {unicodedata.unidata_version}), "
        f"regex {regex.__version__}, sacrebleu {sacrebleu.__version__}.\n"
        "\n"
        "//! Unicode tables for the tokenizers, brute-forced over every scalar value through the\n"
        "//! Python code SacreBLEU runs (see the generator's docstring). Data only: the lookups\n"
        "//! are in `text/ranges.rs`.\n"
    )
    parts.append(
        "/// Class of an `intl` character: not in any of the classes below.\n"
        f"pub(crate) const CLASS_OTHER: u8 = {CLASS_OTHER};\n"
        "/// `\\p{N}` of the `regex` module.\n"
        f"pub(crate) const CLASS_N: u8 = {CLASS_N};\n"
        "/// `\\p{P}` of the `regex` module.\n"
        f"pub(crate) const CLASS_P: u8 = {CLASS_P};\n"
        "/// `\\p{S}` of the `regex` module.\n"
        f"pub(crate) const CLASS_S: u8 = {CLASS_S};\n"
    )
    items = [f"(0x{a:04X}, 0x{b:04X}, {k})," for a, b, k in intl]
    parts.append(
        "/// Sorted, disjoint inclusive ranges `(first, last, class)` of the `intl` classes.\n"
        f"pub(crate) const INTL_CLASS_RANGES: &[(u32, u32, u8)] = &[\n{fmt_items(items, 4)}\n];\n"
    )
    parts.append(
        range_table(
            "ZH_CHINESE_RANGES",
            "Characters for which `TokenizerZh._is_chinese_char` returns `True`.",
            to_ranges(chinese),
        )
    )
    parts.append(range_table("CASED_RANGES", "CPython's `_PyUnicode_IsCased`.", to_ranges(cased)))
    parts.append(
        range_table(
            "CASE_IGNORABLE_RANGES",
            "CPython's `_PyUnicode_IsCaseIgnorable`.",
            to_ranges(ignorable),
        )
    )
    items = [f"('\\u{{{a:x}}}', '\\u{{{b:x}}}')," for a, b in lower_single]
    parts.append(
        "/// `c.lower()` for every character it changes into one character, sorted by `c`.\n"
        f"pub(crate) const LOWER_SINGLE: &[(char, char)] = &[\n{fmt_items(items, 4)}\n];\n"
    )
    items = [f"('\\u{{{a:x}}}', {rust_str(s)})," for a, s in lower_multi]
    parts.append(
        "/// `c.lower()` for every character it changes into several characters, sorted by `c`.\n"
        f"pub(crate) const LOWER_MULTI: &[(char, &str)] = &[\n{fmt_items(items, 2)}\n];\n"
    )
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    """Write or check tables.rs."""
    return gen_output.main("gen_unicode_tables.py", __doc__.split("\n\n")[0], OUT, render, argv)


if __name__ == "__main__":
    sys.exit(main())
