r"""pycocoevalcap's PTB tokenization without Java.

pycocoevalcap runs Stanford CoreNLP 3.4.1's ``PTBTokenizer -preserveLines -lowerCase`` on one
caption a line, then drops the tokens of its punctuation list. :func:`ptb_tokenize` and
:func:`ptb_tokenize_all` do the same in parbleu's Rust core (``tokenize/ptb``), written from
the jar's observed output and the Penn Treebank conventions (no CoreNLP source): its character
classes and abbreviation list are tables measured on the jar by ``tools/gen_ptb_tables.py``.
The cases where it differs from the jar are listed in docs/captioning.md.

The regular expression below (:func:`reference_tokenize`, :func:`ptb_tokens`) is the
reference the core is written from and tested against (tests/flavors/test_coco_ptb.py).

One difference on purpose: the jar ends a line at ``\\r``, U+2028, U+2029, ``\\f``, ``\\x0b`` and
U+0085 as at ``\\n``, so a caption holding one becomes two lines and every later caption shifts
to the wrong image. Here each caption is one line whatever it holds: those characters separate
words as a space does (pycocoevalcap already does this for ``\\n``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ... import _core
from ...errors import InvalidTextError
from ._ptb_tables import ABBREVIATIONS, DELETED, WORD

__all__ = ["PUNCTUATIONS", "ptb_tokenize", "ptb_tokenize_all", "reference_tokenize"]

#: pycocoevalcap's list of tokens removed after tokenization (its bracket names are upper case
#: and the jar's are lower case, so ``-lrb-`` and friends stay in).
PUNCTUATIONS = frozenset(
    [
        "''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-",
        ".", "?", "!", ",", ":", "-", "--", "...", ";",
    ]
)  # fmt: skip


def _class(ranges: Iterable[tuple[int, int]]) -> str:
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )


_W = _class(WORD)
#: a word character (letters, digits, marks, the scripts the jar's lexer knows)
W = f"[{_W}]"
L = f"(?:(?!\\d){W})"  # a word character that is not a digit
_BREAKS = "\n\r\u2028\u2029\x0b\x0c\x85"

#: one character to several (the jar's normalizations), or a separator
_MAP = str.maketrans(
    {
        **{c: " " for c in _BREAKS + "\t"},
        "\u201c": ' " ',
        "\u00ab": ' " ',
        "\x93": ' " ',
        "\u201d": ' " ',
        "\u00bb": ' " ',
        "\x94": ' " ',
        "\u2018": " ` ",
        "\u201b": " ` ",
        "\u2039": " ` ",
        "\x91": " ` ",
        "\u203a": " ' ",
        "\x92": "\u2019",
        "\u2013": " -- ",
        "\u2014": " -- ",
        "\u2015": " -- ",
        "\x96": " -- ",
        "\x97": " -- ",
        "\u2026": " ... ",
        "\u00a2": " cents ",
        "\u00a3": " # ",
        "\u00a4": " $ ",
        "\u20a0": " $ ",
        "\u20ac": " $ ",
        "\x80": " $ ",
        "\u00bc": " 1/4 ",
        "\u00bd": " 1/2 ",
        "\u00be": " 3/4 ",
        "\u2153": " 1/3 ",
        "\u2154": " 2/3 ",
    }
)
#: the HTML entities the jar reads as their character (``&lt;`` does not open a tag)
_ENTITIES = {"&amp;": "&", "&quot;": ' " ', "&lt;": " < ", "&gt;": " > ", "&apos;": " ' "}
_ENTITY = re.compile("|".join(_ENTITIES))
_DELETED = re.compile(f"[{_class(DELETED)}]+")
_SOFT_HYPHEN = re.compile(f"(?<={W})\u00ad(?={W})")

_ABBR = "|".join(sorted((re.escape(a) for a in ABBREVIATIONS), key=len, reverse=True))
_APOS = "['\u2019]"
_NOT_CONTR = f"(?!(?:[sSmMdD]|re|RE|ve|VE|ll|LL|em|EM)(?!{W}))"
_NUM = r"(?:\d+(?:[.,:]\d+)*|[.,]\d+)"
_ACRO = r"(?:[A-Za-z]\.)+"  # measured: ``é.`` and ``Ä.`` lose their period, ``e.`` keeps it
_SEG = f"{W}+"
#: file name extensions the jar keeps after a period (measured: ``123.jpg`` is one token)
_EXT = (
    "txt|pdf|png|html|htm|x|zip|gif|jpg|jpeg|doc|docx|ppt|mp3|mov|wav|exe|dll|xml|java|class"
    "|c|cpp|h|py|pl|php|sql|tar|gz|bmp|jar|bat|ps"
)
_TOKEN = re.compile(
    "|".join(
        [
            # URLs and e-mail addresses, less trailing punctuation
            r"(?P<url>(?:https?|ftp)://[^\s<>\"]+?(?=[.,;!?)\]\"]*(?:\s|$))"
            r"|www\.[^\s<>\"]+?(?=[.,;:!?)\]'\"]*(?:\s|$)))",
            f"(?P<email>{W}+(?:[.+-]{W}+)*@{W}+(?:[.-]{W}+)*[,!?;:']*)",  # the jar keeps these
            r"(?P<sgml></?[A-Za-z!?][^<>\s]*>)",
            # hyphenated words: a number, acronym or word, then -word parts
            f"(?P<hyph>(?:\\d+(?:[.,]\\d+)*|{_ACRO}|{_SEG})(?:-(?:{_ACRO}|(?:{_ABBR})\\.(?!{W})|{_SEG}))+)",
            f"(?P<acro>{_ACRO})(?!{W})",
            f"(?P<amp>[A-Z]+(?:&[A-Z]+)+)(?!{W})",
            # measured: ``123.jpg`` stays whole before . , ! ? ) or a space, not before ; : etc.
            f"(?P<file>{W}+(?:[-.]{W}+)*\\.(?i:{_EXT}))(?=[.,!?)]|$)",
            f"(?P<abbr>(?:{_ABBR})\\.)(?!{W})",
            "(?P<phd>[Pp][Hh]\\.[Dd]\\.)",  # measured: ``Ph.D.`` keeps its period
            # measured: a word keeps its period before , ; : (``dog.,``, ``no.:``, ``é.;``)
            f"(?P<pdot>{L}{W}*(?:\\.{W}+)*\\.)(?=[,;:])",
            "(?P<no>[Nn][Oo][Ss]?\\.)(?=\\d)",
            f"(?P<dot>{L}{W}*(?:[.!?]{L}{W}*)+)",
            r"(?P<slash>[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*(?:/[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*){1,2})",
            r"(?P<num>[-+]\d+(?:[.,:]\d+)*|[-+]?(?:\d+(?:[.,:]\d+)+|[.,:]\d+(?:[.,:]\d+)*))",
            f"(?P<int>\\d+)(?!{W})",
            r"(?P<cur>[A-Z]{1,3}\$)",
            f"(?P<ntbase>{W}+?)(?=[nN]{_APOS}[tT](?!{W}))",
            f"(?P<nt>[nN]{_APOS}[tT])(?!{W})",
            f"(?P<yall>[yY]{_APOS})(?=all)",
            f"(?P<vowel>{W}*[aeiouAEIOU]{_APOS}{_NOT_CONTR}[aeiouAEIOUA-Z]{W}*)",
            f"(?P<oclock>{L}{_APOS}{_NOT_CONTR}{W}+)",
            f"(?P<word>{W}+(?:_{W}+)*)",
            r"(?P<dq>''|``)",
            f"(?P<contr>{_APOS}(?:[sSmMdD]|re|RE|Re|ve|VE|Ve|ll|LL|Ll))(?!{W})",
            f"(?P<tis>{_APOS}[tT])(?=(?:is|was|IS|WAS)(?!{W}))",
            f"(?P<rn>{_APOS}[nN]{_APOS})",
            f"(?P<year>{_APOS}\\d\\d[sS]?)(?!{W}|[.,:]\\d)",
            f"(?P<aposword>{_APOS}(?:[eE][mM]|[tT][iI][lL]|[cC][aA][uU][sS][eE]))(?!{W})",
            f"(?P<tag>[@#]{L}{W}*)",
            r"(?P<run>_+|@+|#+|[!?]+|\.\.\.+|--+|\.|-)",
            r"(?P<other>\S)",
        ]
    )
)

_SPLIT = {
    "cannot": ("can", "not"),
    "gonna": ("gon", "na"),
    "gotta": ("got", "ta"),
    "wanna": ("wan", "na"),
    "lemme": ("lem", "me"),
    "gimme": ("gim", "me"),
}
_BRACKETS = {"(": "-lrb-", ")": "-rrb-", "[": "-lsb-", "]": "-rsb-", "{": "-lcb-", "}": "-rcb-"}
_QUOTES = frozenset("\"'`\u2019")


def ptb_tokens(caption: str) -> list[str]:
    """Return the jar's tokens of one caption, lower-cased, before the punctuation removal."""
    text = caption
    if "&" in text:
        text = _ENTITY.sub(lambda m: _ENTITIES[m.group()], text)
    text = text.translate(_MAP)
    if "\u00ad" in text:
        text = _SOFT_HYPHEN.sub("", text).replace("\u00ad", " - ")
    text = _DELETED.sub(" ", text)
    chunks = text.split()
    out: list[str] = []
    for i, chunk in enumerate(chunks):
        if i + 1 < len(chunks) and chunks[i + 1][:1].isdigit():
            m = _NUMBER_SIGN.search(chunk)
            if m is not None:  # "No. 5" keeps its period, "no." elsewhere not
                out.extend(_chunk_tokens(chunk[: m.start()]))
                out.append(m.group().lower())
                continue
        toks = _MEMO.get(chunk)
        if toks is None:
            toks = _chunk_tokens(chunk)
            if len(_MEMO) >= 200_000:
                _MEMO.clear()
            _MEMO[chunk] = toks
        if i + 1 < len(chunks) and chunks[i + 1] in SENTENCE_STARTS and _LETTER.match(toks[-1]):
            # "plan B. One day": a single letter's period ends the sentence (measured)
            out.extend(toks[:-1])
            out.extend((toks[-1][0], "."))
            continue
        out.extend(toks)
    return out


#: words after which the jar splits a single letter's period (``plan B. One day``; measured on
#: the 3,000 most frequent capitalised words of WMT21's English references), as written or in
#: capitals, followed by whitespace or the end of the line
SENTENCE_STARTS = frozenset(
    w
    for s in (  # noqa: SIM905 - reads as the list it is
        "The In According He It A This We At As But There They However After She When One If "
        "An That Since Some More Earlier Now So Last These Then You While Many What Other Our "
        "About Their Once Her Yet Such Here"
    ).split()
    for w in (s, s.upper())
)
_LETTER = re.compile(r"[a-z]\.\Z")
#: tokens of a space-free chunk: captions repeat their words, and a chunk's tokens do not depend
#: on its neighbours (except ``No.`` before a number, handled above)
_NUMBER_SIGN = re.compile(f"(?<!{W})[Nn][Oo][Ss]?\\.$")
_MEMO: dict[str, list[str]] = {}


#: a contraction: ``gonna's`` stays ``gonna 's`` (measured), ``gonna'`` is ``gon na '``
_CONTRACTION = re.compile(f"{_APOS}(?:[sSmMdD]|re|RE|Re|ve|VE|Ve|ll|LL|Ll)(?!{W})")


def _chunk_tokens(chunk: str) -> list[str]:
    out: list[str] = []
    for m in _TOKEN.finditer(chunk):
        kind = m.lastgroup
        tok = m.group()
        if kind == "other":
            if tok in _QUOTES:
                out.append("'")  # its direction does not matter: every quote is removed
                continue
            tok = _BRACKETS.get(tok, tok)
        elif kind in ("contr", "nt", "tis", "rn", "year", "aposword"):
            tok = tok.replace("\u2019", "'")
        elif kind == "run" and tok.startswith("..."):
            tok = "..."
        elif kind == "run" and tok.startswith("--"):
            tok = "--"
        low = tok.lower()
        split = _SPLIT.get(low)
        if split is not None and not _CONTRACTION.match(chunk, m.end()):
            out.extend(split)
        else:
            out.append(low)
    return out


def reference_tokenize(caption: str) -> str:
    """:func:`ptb_tokenize` by the reference regular expression (slower; for tests)."""
    return " ".join(t for t in ptb_tokens(caption) if t not in PUNCTUATIONS)


def ptb_tokenize(caption: str) -> str:
    """One caption as pycocoevalcap's ``PTBTokenizer`` returns it (space-joined tokens).

    Raises
    ------
    InvalidTextError
        A lone surrogate (not UTF-8 text).
    """
    return ptb_tokenize_all([caption])[0]


def ptb_tokenize_all(captions: Iterable[str], workers: int = -1) -> list[str]:
    """:func:`ptb_tokenize` of many captions, in one call of the core.

    ``workers``: threads (``-1``: all cores; the result does not depend on it).

    Raises
    ------
    InvalidTextError
        A caption holding a lone surrogate (not UTF-8 text), naming its position.
    """
    texts = captions if isinstance(captions, list) else list(captions)
    try:
        out: list[str] = _core.ptb_tokenize(texts, workers)
    except UnicodeEncodeError:
        for i, c in enumerate(texts):
            try:
                c.encode("utf-8")
            except UnicodeEncodeError as e:
                raise InvalidTextError(
                    f"coco: PTB tokenizer: caption {i} holds a lone surrogate "
                    f"U+{ord(c[e.start]):04X} at position {e.start} (not UTF-8 text)"
                ) from None
        raise
    return out
