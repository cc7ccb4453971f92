"""Tokenizers (none, 13a, intl, char, zh) and lowercasing against SacreBLEU 2.6.0 itself.

``parbleu._core.tokenize(name, lines, lowercase)`` must return exactly
``tok((line.lower() if lowercase else line).rstrip())`` for SacreBLEU's tokenizer ``tok``, on:

(a) every Unicode scalar value, alone and in short contexts;
(b) hypothesis-generated mixed-script strings;
(c) every line of the WMT21 en-de, zh-en, en-zh and en-ja references and system outputs;
(d) the golden records of ``shared/golden/sacrebleu/tokenizers.jsonl``.

SacreBLEU is the slow side here, so its outputs are memoized by input string (the tokenizers are
pure functions of their input) and computed in worker processes when there are many.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import re
import subprocess
import sys
import unicodedata
from collections.abc import Callable, Sequence

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import _get_tokenizer
from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from helpers import REPO, SHARED, read_lines, records, requires_shared
from parbleu import _core
from parbleu.tokenizers import RUST_TOKENIZERS

NAMES = RUST_TOKENIZERS
TABLES = REPO / "crates" / "parbleu-core" / "src" / "text" / "tables.rs"
WMT21 = SHARED / "data" / "wmt21"

# Every scalar value, as one-character strings.
ALL_CHARS = [chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]


# --------------------------------------------------------------------------------------------
# SacreBLEU's side
# --------------------------------------------------------------------------------------------


@functools.cache
def sacre_tokenizer(name: str) -> Callable[[str], str]:
    """SacreBLEU's tokenizer object for `name`, with its bounded lru_caches bypassed (they only
    churn on millions of distinct inputs; the functions are pure)."""
    tok = _get_tokenizer(name)()
    if isinstance(getattr(tok, "_post_tokenizer", None), TokenizerRegexp):
        tok._post_tokenizer = functools.partial(
            TokenizerRegexp.__call__.__wrapped__, tok._post_tokenizer
        )
    if isinstance(tok, TokenizerZh):
        tok._is_chinese_char = functools.lru_cache(maxsize=None)(
            TokenizerZh._is_chinese_char.__wrapped__
        )
    call = getattr(type(tok).__call__, "__wrapped__", None)
    return functools.partial(call, tok) if call is not None else tok


_MEMO: dict[str, dict[str, str]] = {name: {} for name in NAMES}

# Lines for the worker processes, set just before forking them (they inherit it).
_TODO: list[str] = []


def _sacre_range(args: tuple[str, int, int]) -> list[str]:
    name, start, stop = args
    tok = sacre_tokenizer(name)
    return [tok(line) for line in _TODO[start:stop]]


def sacre_tokenize(name: str, lines: Sequence[str]) -> list[str]:
    """SacreBLEU's tokenizer on each (already prepared) line, memoized."""
    global _TODO
    memo = _MEMO[name]
    todo = list(dict.fromkeys(line for line in lines if line not in memo))
    workers = min(4, os.cpu_count() or 1)
    if len(todo) > 50_000 and workers > 1 and name not in ("none", "char"):
        _TODO = todo
        size = -(-len(todo) // (4 * workers))
        ranges = [(name, i, min(i + size, len(todo))) for i in range(0, len(todo), size)]
        try:
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                outs = pool.map(_sacre_range, ranges)
        finally:
            _TODO = []
        for (_, start, stop), out in zip(ranges, outs):
            memo.update(zip(todo[start:stop], out))
    else:
        tok = sacre_tokenizer(name)
        memo.update((line, tok(line)) for line in todo)
    return [memo[line] for line in lines]


def expected(name: str, lines: Sequence[str], lowercase: bool) -> list[str]:
    """What SacreBLEU's BLEU does to each line: optional lower(), rstrip(), tokenizer."""
    return sacre_tokenize(name, [(line.lower() if lowercase else line).rstrip() for line in lines])


# --------------------------------------------------------------------------------------------
# The intl tables follow one version of the `regex` module
# --------------------------------------------------------------------------------------------


@functools.cache
def table_regex_version() -> str:
    m = re.search(r"regex (\S+), sacrebleu", TABLES.read_text(encoding="utf-8"))
    assert m, "tables.rs names the regex version it was generated with"
    return m.group(1)


@functools.cache
def intl_version_skew() -> frozenset[str]:
    """Characters whose \\p{N}/\\p{P}/\\p{S} class in the installed `regex` differs from the one
    in tables.rs (empty when the versions agree)."""
    if regex.__version__ == table_regex_version():
        return frozenset()
    text = TABLES.read_text(encoding="utf-8")
    body = text.split("INTL_CLASS_RANGES")[1].split("];")[0]
    table: dict[int, int] = {}
    for a, b, k in re.findall(r"\(0x([0-9A-F]+), 0x([0-9A-F]+), (\d)\)", body):
        for cp in range(int(a, 16), int(b, 16) + 1):
            table[cp] = int(k)
    pats = [
        (1, regex.compile(r"\p{N}")),
        (2, regex.compile(r"\p{P}")),
        (3, regex.compile(r"\p{S}")),
    ]
    skew = set()
    for c in ALL_CHARS:
        k = next((k for k, p in pats if p.match(c)), 0)
        if table.get(ord(c), 0) != k:
            skew.add(c)
    return frozenset(skew)


def test_intl_tables_match_installed_regex() -> None:
    skew = intl_version_skew()
    assert not skew, (
        f"tables.rs follows regex {table_regex_version()}, this environment has regex "
        f"{regex.__version__}: {len(skew)} characters change class "
        f"(e.g. {', '.join(f'U+{ord(c):04X}' for c in sorted(skew)[:8])}); parbleu's intl "
        "tokenizer follows tables.rs (the other tests skip these characters)"
    )


def drop_skewed(name: str, lines: list[str]) -> list[str]:
    """For intl, leave out lines with characters whose class depends on the regex version."""
    skew = intl_version_skew()
    if name != "intl" or not skew:
        return lines
    return [line for line in lines if not skew.intersection(line)]


@functools.cache
def table_unicode_version() -> str:
    m = re.search(r"unicodedata (\S+)\)", TABLES.read_text(encoding="utf-8"))
    assert m, "tables.rs names the Unicode version of its lowercase tables"
    return m.group(1)


#: Characters whose lowercasing differs between tables.rs (Unicode 14.0.0) and an interpreter
#: with another Unicode version, measured with ``lower_version_skew()`` and stated in
#: docs/differences-from-sacrebleu.md: CPython 3.9/3.10 (13.0.0), 3.12 (15.0.0), 3.13 (15.1.0).
KNOWN_LOWER_SKEW = {"13.0.0": 303, "15.0.0": 116, "15.1.0": 116}

_SIGMA, _FINAL_SIGMA = "\u03a3", "\u03c2"


def _unescape(s: str) -> str:
    return re.sub(r"\\u\{([0-9a-f]+)\}", lambda m: chr(int(m.group(1), 16)), s)


def _table_section(text: str, name: str) -> str:
    return text.split(f"const {name}:")[1].split("];")[0]


def _table_ranges(text: str, name: str) -> set[int]:
    cps: set[int] = set()
    for a, b in re.findall(r"\(0x([0-9A-F]+), 0x([0-9A-F]+)\)", _table_section(text, name)):
        cps.update(range(int(a, 16), int(b, 16) + 1))
    return cps


def _case_props(c: str) -> tuple[bool, bool, str]:
    """(cased, case-ignorable, lower()) of `c` in this interpreter, probed as the generator does
    (tools/gen_unicode_tables.py): through title() and the final-sigma rule of lower()."""
    cased = (c + "a").title()[-1] == "a"
    ignorable = (
        (c + _SIGMA).lower()[-1] != _FINAL_SIGMA
        if cased
        else ("A" + c + _SIGMA).lower()[-1] == _FINAL_SIGMA
    )
    return cased, ignorable, c.lower()


@functools.cache
def lower_version_skew() -> frozenset[str]:
    """Characters on which this interpreter's ``str.lower()`` (the map, or the cased and
    case-ignorable properties of its final-sigma rule) disagrees with tables.rs; empty when the
    interpreter has the tables' Unicode version."""
    if unicodedata.unidata_version == table_unicode_version():
        return frozenset()
    text = TABLES.read_text(encoding="utf-8")
    cased = _table_ranges(text, "CASED_RANGES")
    ignorable = _table_ranges(text, "CASE_IGNORABLE_RANGES")
    lower = {
        ord(_unescape(a)): _unescape(b)
        for a, b in re.findall(r"\('([^']+)', '([^']+)'\)", _table_section(text, "LOWER_SINGLE"))
    }
    lower.update(
        (ord(_unescape(a)), _unescape(b))
        for a, b in re.findall(r"\('([^']+)', \"([^\"]*)\"\)", _table_section(text, "LOWER_MULTI"))
    )
    assert len(cased) > 1000 and len(ignorable) > 1000 and len(lower) > 1000, "tables.rs parsed"
    return frozenset(
        c
        for c in ALL_CHARS
        if _case_props(c) != (ord(c) in cased, ord(c) in ignorable, lower.get(ord(c), c))
    )


def test_lower_skew_is_the_documented_one() -> None:
    """On an interpreter with another Unicode version than tables.rs, the characters lowercased
    differently are exactly as many as docs/differences-from-sacrebleu.md says."""
    have = unicodedata.unidata_version
    if have == table_unicode_version():
        assert not lower_version_skew()
        return
    skew = lower_version_skew()
    if have not in KNOWN_LOWER_SKEW:
        pytest.skip(
            f"Unicode {have} (not measured in docs/differences-from-sacrebleu.md): {len(skew)} "
            "characters lowercase differently from tables.rs; the other tests leave them out"
        )
    assert len(skew) == KNOWN_LOWER_SKEW[have], sorted(f"U+{ord(c):04X}" for c in skew)


def drop_lower_skewed(lines: Sequence[str]) -> list[str]:
    """On an interpreter with another Unicode version than tables.rs (3.9/3.10: 13.0.0; 3.13:
    15.1.0), leave out lines with characters whose lowercasing (or final-sigma context) differs
    between the two: SacreBLEU follows the interpreter there, parbleu the tables
    (docs/differences-from-sacrebleu.md)."""
    skew = lower_version_skew()
    if not skew:
        return list(lines)
    return [line for line in lines if not skew.intersection(line)]


def check(name: str, lines: list[str], lowercase: bool) -> int:
    lines = drop_skewed(name, lines)
    if lowercase:
        lines = drop_lower_skewed(lines)
    got = _core.tokenize(name, lines, lowercase)
    want = expected(name, lines, lowercase)
    assert len(got) == len(want)
    if got != want:
        bad = [(line, w, g) for line, w, g in zip(lines, want, got) if w != g]
        details = "\n".join(
            f"  {line!r}\n    sacrebleu {w!r}\n    parbleu   {g!r}" for line, w, g in bad[:5]
        )
        pytest.fail(
            f"{name} lowercase={lowercase}: {len(bad)} of {len(lines)} lines differ:\n{details}"
        )
    return len(lines)


# --------------------------------------------------------------------------------------------
# (a) every scalar value, alone and in contexts
# --------------------------------------------------------------------------------------------


def _packed(template: str, sep: str = "", per_line: int = 64) -> list[str]:
    """`template` with `{c}` replaced by each character, `per_line` of them joined by `sep`."""
    parts = template.split("{c}")
    return [
        sep.join(c.join(parts) for c in ALL_CHARS[i : i + per_line])
        for i in range(0, len(ALL_CHARS), per_line)
    ]


@functools.cache
def codepoint_lines() -> list[str]:
    lines = list(ALL_CHARS)  # each character as a whole line
    # Each character with a space on either side (64 per line).
    lines += _packed("{c}", " ")
    # Contexts that reveal the classes the tokenizers care about: glued or isolated ("a{c}b"),
    # digit or \p{N} before and after `.` ("{c}.1", "1.{c}"), runs ("{c}{c}"), between digits
    # ("1{c}2"); separated by tabs (whitespace, yet no pass-1 character of 13a).
    lines += _packed("a{c}b\t{c}.1\t1.{c}\t{c}{c}\t1{c}2\t")
    return lines


@pytest.mark.parametrize("lowercase", [False, True], ids=["cased", "lowercase"])
@pytest.mark.parametrize("name", NAMES)
def test_every_code_point(name: str, lowercase: bool) -> None:
    # The contexts are lowercase-invariant but for the character itself, so the lowercase run
    # mostly reuses the memoized SacreBLEU outputs.
    n = check(name, codepoint_lines(), lowercase)
    assert n > len(ALL_CHARS)


@functools.cache
def sigma_lines() -> list[str]:
    """Contexts for CPython's final-sigma rule (case-ignorable and cased neighbours), 64 per line:
    the comparison is with Python's lower() of the whole line, so packing loses nothing."""
    lines = []
    for t in ("a{c}Σ ", "{c}Σ ", " aΣ{c}", "A{c}Σ{c}İ"):
        lines += _packed(t)
    return lines


def test_lower_every_code_point_and_final_sigma() -> None:
    # `none` with lowercase is exactly `line.lower().rstrip()`.
    for lines in (ALL_CHARS, _packed("{c}"), sigma_lines()):
        lines = drop_lower_skewed(lines)
        got = _core.tokenize("none", lines, True)
        want = [line.lower().rstrip() for line in lines]
        bad = [(line, w, g) for line, w, g in zip(lines, want, got) if w != g]
        assert not bad, f"{len(bad)} differ, e.g. {bad[:5]}"


@pytest.mark.parametrize("name", ["13a", "intl", "zh"])
def test_final_sigma_through_tokenizers(name: str) -> None:
    lines = [t.format(c=c) for t in ("a{c}Σ.", "Σ{c}") for c in ALL_CHARS[:0x3000]]
    check(name, lines, True)


# --------------------------------------------------------------------------------------------
# (b) hypothesis: mixed scripts
# --------------------------------------------------------------------------------------------

_PIECES = [
    *".,-'\"&;:!?()[]{}<>/\\@#$%^*+=_`|~0123456789 aAzZ",
    *("&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n", "\n", "...", "1.5", "3,000", "a-b"),
    *"中文汉字。，、！？《》「」（）ＡＢ１２",  # CJK, fullwidth
    *"ΣσςΑαΟΔ\u0345\u0301\u0308",  # Greek, combining marks (case-ignorable)
    *"İıIiŞşĞğ",  # Turkish
    *"\t\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u200a\u200b\u2028\u2029",
    *"\u202f\u205f\u3000",
    *"٣٤०१Ⅻ²½€£¥§©®°±×÷–—‘’“”„…•→⇒∀∑√∞≠≤",  # other digits, symbols, punctuation
    *"ａｂｃ，．：；１２３カタカナひらがな한국어",
    *("\U00020000", "\U0002f800", "\U0001f600", "\ufeff", "\u00ad"),
]

_mixed_line = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.characters(exclude_categories=("Cs",))),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_mixed_line, min_size=1, max_size=20))
def test_hypothesis_mixed_scripts(lines: list[str]) -> None:
    for name in NAMES:
        for lowercase in (False, True):
            check(name, lines, lowercase)


# --------------------------------------------------------------------------------------------
# (c) WMT21 data
# --------------------------------------------------------------------------------------------

WMT_PAIRS = ("en-de", "zh-en", "en-zh", "en-ja")


@functools.cache
def wmt_lines(pair: str) -> list[str]:
    """Every line of the pair's references and system outputs (the target language)."""
    files = sorted((WMT21 / "references").glob(f"*.{pair}.*")) + sorted(
        (WMT21 / "system-outputs").glob(f"*.{pair}.*")
    )
    assert files, pair
    lines: list[str] = []
    for f in files:
        lines += read_lines(str(f.relative_to(SHARED)))
    return lines


@requires_shared
@pytest.mark.parametrize("lowercase", [False, True], ids=["cased", "lowercase"])
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("pair", WMT_PAIRS)
def test_wmt21(pair: str, name: str, lowercase: bool) -> None:
    lines = wmt_lines(pair)
    if lowercase:
        # References only: lower() then the same tokenizer logic.
        refs = sorted((WMT21 / "references").glob(f"*.{pair}.*"))
        lines = [line for f in refs for line in read_lines(str(f.relative_to(SHARED)))]
    assert check(name, lines, lowercase) >= 1000


# --------------------------------------------------------------------------------------------
# (d) golden records
# --------------------------------------------------------------------------------------------


def _golden() -> list[dict]:
    path = SHARED / "golden" / "sacrebleu" / "tokenizers.jsonl"
    if not path.exists():
        return []
    return [r for r in records("sacrebleu/tokenizers.jsonl") if r["tokenizer"] in NAMES]


@requires_shared
def test_golden_tokenizer_records() -> None:
    recs = _golden()
    assert len(recs) == 5 * 79
    n = 0
    for rec in recs:
        lines = list(read_lines(rec["file"]))
        if rec["lines_used"] != "all":
            m = re.fullmatch(r"first (\d+)", rec["lines_used"])
            assert m, rec["lines_used"]
            lines = lines[: int(m.group(1))]
        assert len(lines) == rec["n_lines"] == len(rec["output"]), rec["id"]
        got = _core.tokenize(rec["tokenizer"], lines, False)
        assert got == rec["output"], rec["id"]
        n += len(lines)
    assert n == 5 * 532


def skip_unless_pinned_unicode() -> None:
    """The generators brute-force tables through this interpreter's unicodedata: they only
    check (and write) under the Unicode version the tables are pinned to."""
    if unicodedata.unidata_version != table_unicode_version():
        pytest.skip(
            f"tables pinned to Unicode {table_unicode_version()} (CPython 3.11), this Python has "
            f"{unicodedata.unidata_version}: the generators' --check runs under the pinned one"
        )


@requires_shared
def test_rust_fixture_is_current() -> None:
    """The Rust integration test's fixture is what tools/gen_tokenizer_fixture.py writes now."""
    skip_unless_pinned_unicode()
    subprocess.run(
        [sys.executable, str(REPO / "tools" / "gen_tokenizer_fixture.py"), "--check"], check=True
    )


def test_unicode_tables_are_current() -> None:
    """tables.rs is what tools/gen_unicode_tables.py writes under this Python, regex, sacrebleu."""
    skip_unless_pinned_unicode()
    subprocess.run(
        [sys.executable, str(REPO / "tools" / "gen_unicode_tables.py"), "--check"], check=True
    )


def test_tokenizer_names_are_the_cores_in_sacrebleus_order() -> None:
    """One name list: the core's, in SacreBLEU's order, then the Python-side tokenizers."""
    from sacrebleu.metrics.bleu import BLEU as SacreBLEU

    import parbleu
    from parbleu.tokenizers import PYTHON_TOKENIZERS

    assert tuple(parbleu.BLEU.TOKENIZERS) == tuple(SacreBLEU.TOKENIZERS)
    assert set(RUST_TOKENIZERS).isdisjoint(PYTHON_TOKENIZERS)
