"""Readers of the raw test-set layouts, producing SacreBLEU's text files byte for byte.

Each reader turns a raw file (as unpacked from the download) into one list of lines per field
(``src``, ``ref`` or ``ref:<name>``, ``docid``, ``genre``, ``origlang``, ``domain``, system
outputs), with SacreBLEU 2.6's exact cleaning rules:

* ``text`` (plain, aligned files) and ``wmt-addition``'s non-SGML files: ``rstrip`` each line;
* ``sgml`` (WMT up to 2020, IWSLT's XML): the text of each ``<seg ...>`` line, whitespace
  collapsed; document attributes (``docid``, ``genre``, ``origlang``) repeated per segment;
* ``tsv`` (MTNT): one column of a tab-separated file;
* ``wmt-xml`` (WMT 2021 on): documents with a source, references by translator and system
  outputs; segments without any reference are left out, as SacreBLEU does.
"""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterable
from typing import IO

__all__ = [
    "RAW_FILE_ERRORS",
    "clean",
    "describe",
    "open_text",
    "sgml_meta",
    "sgml_segments",
    "text_lines",
    "tsv_column",
    "wmt_xml_fields",
]

#: What reading a damaged or missing raw file raises: OSError (missing, a folder, unreadable,
#: not gzip), ValueError (not UTF-8, a malformed XML attribute), SyntaxError (XML that does not
#: parse), EOFError and zlib.error (a truncated or corrupt ``.gz``), IndexError (a TSV line
#: without the column).
RAW_FILE_ERRORS = (OSError, ValueError, SyntaxError, EOFError, zlib.error, IndexError)

_SEG = re.compile(r"<seg.*?>(.*)</seg>.*?")
_WS = re.compile(r"\s+")


def open_text(path: str) -> IO[str]:
    r"""Open a (possibly gzipped) UTF-8 file with ``\\n`` as the only line end, as SacreBLEU."""
    if path.endswith(".gz"):
        return gzip.open(path, mode="rt", encoding="utf-8", newline="\n")
    return open(path, encoding="utf-8", newline="\n")


def describe(e: BaseException) -> str:
    """Describe an error briefly, on one line: its text (and file), or its class name."""
    if isinstance(e, OSError) and e.strerror:
        return f"{e.strerror}: {e.filename}" if e.filename else e.strerror
    return " ".join(str(e).split()) or type(e).__name__


def clean(s: str) -> str:
    """Strip, and collapse runs of whitespace into one space (SacreBLEU's ``_clean``)."""
    return _WS.sub(" ", s.strip())


def text_lines(path: str) -> list[str]:
    """Return the lines of a plain file, right-stripped."""
    with open_text(path) as f:
        return [line.rstrip() for line in f]


def sgml_segments(path: str) -> list[str]:
    """Return the segments of a WMT SGML (or IWSLT XML) file (lines starting ``<seg ``)."""
    with open_text(path) as f:
        return [clean(_SEG.sub("\\1", line)) for line in f if line.startswith("<seg ")]


def sgml_meta(path: str, field: str) -> list[str]:
    """Return a document attribute of a WMT SGML file, repeated for each segment."""
    pattern = re.compile(rf'{field}="(.*?)"')
    out: list[str] = []
    value = ""
    with open_text(path) as f:
        for line in f:
            if line.startswith("<doc "):
                m = pattern.search(line)
                if m is not None:
                    value = m.group(1)
            elif line.startswith("<seg "):
                out.append(value)
    return out


def tsv_column(path: str, index: int) -> list[str]:
    """Return one column of a tab-separated file (a line without that column is an error)."""
    with open_text(path) as f:
        return [line.rstrip("\n").split("\t")[index] for line in f]


def _ref_field(translator: str | None) -> str:
    return f"ref:{translator}" if translator else "ref"


def _attribute(elem: ET.Element, name: str, where: str) -> str:
    value = elem.get(name)
    if value is None:
        raise ValueError(f"{where} has no {name!r} attribute")
    return value


def _segments(parents: Iterable[ET.Element], where: str) -> dict[int, str]:
    """``{id: text}`` of the ``<seg>`` elements under ``parents`` (ids must be integers)."""
    out: dict[int, str] = {}
    for parent in parents:
        for seg in parent.iter("seg"):
            raw = seg.get("id")
            try:
                seg_id = int(raw if raw is not None else "")
            except ValueError:
                shown = "no id" if raw is None else f"id={raw!r}, not an integer"
                raise ValueError(f"{where}: a <seg> has {shown}") from None
            out[seg_id] = seg.text or ""
    return out


def wmt_xml_fields(path: str) -> dict[str, list[str]]:
    """Unwrap a WMT 2021+ XML file: ``src``, references, ``docid``, ``origlang``, systems, ...

    Field order: ``src``, the references (``ref:<translator>``, sorted by translator; ``ref``
    when a reference has no translator), ``docid``, ``origlang``, the system outputs, and
    ``domain`` when the documents have one. SacreBLEU orders the references as a Python
    ``set`` iterates (which varies between runs); the lines of each field are the same.

    Parameters
    ----------
    path
        The XML file (optionally gzipped).

    Returns
    -------
    dict
        ``{field: lines}``, the lines not yet cleaned.
    """
    with gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb") as f:
        root = ET.parse(f).getroot()
    src_langs = {d.get("lang") for d in root.iter("src")}
    ref_langs: set[str | None] = set()
    translators: set[str | None] = set()
    for d in root.iter("ref"):
        ref_langs.add(d.get("lang"))
        translators.add(d.get("translator"))
    if len(src_langs) != 1:
        raise ValueError(f"{len(src_langs)} source languages in {path} (expected one)")
    if len(ref_langs) != 1:
        raise ValueError(f"{len(ref_langs)} reference languages in {path} (expected one)")
    order = sorted(translators, key=lambda t: (t is not None, t or ""))
    src: list[str] = []
    refs: dict[str, list[str]] = {_ref_field(t): [] for t in order}
    docids: list[str] = []
    origlangs: list[str] = []
    domains: list[str | None] = []
    systems: dict[str, list[str]] = {}
    seen_domain = False

    for number, doc in enumerate(root.iter("doc"), 1):
        if "testsuite" in doc.attrib:
            continue
        where = f"{path}: <doc> number {number}"
        src_sents = _segments(doc.iter("src"), f"{where} <src>")
        by_translator = {
            r.get("translator"): _segments([r], f"{where} <ref>") for r in doc.iter("ref")
        }
        hyps = {h.get("system", ""): _segments([h], f"{where} <hyp>") for h in doc.iter("hyp")}
        kept = [i for i in sorted(src_sents) if any(v.get(i, "") for v in by_translator.values())]
        if not kept:
            continue
        # What SacreBLEU reads only for the segments it keeps (a KeyError there) must be there.
        doc_id = _attribute(doc, "id", where)
        doc_origlang = _attribute(doc, "origlang", f"{path}: <doc id={doc_id!r}>")
        for name, h in hyps.items():
            missing = [i for i in kept if i not in h]
            if missing:
                raise ValueError(
                    f"{path}: <doc id={doc_id!r}>: system {name!r} has no segment "
                    f"id={missing[0]} ({len(missing)} of the {len(kept)} segments missing)"
                )
        for seg_id in kept:
            for t in order:
                refs[_ref_field(t)].append(by_translator.get(t, {}).get(seg_id, ""))
            src.append(src_sents[seg_id])
            for name, h in hyps.items():
                systems.setdefault(name, []).append(h[seg_id])
            docids.append(doc_id)
            origlangs.append(doc_origlang)
            domains.append(doc.get("domain"))
            seen_domain = doc.get("domain") is not None
    fields: dict[str, list[str]] = {"src": src, **refs, "docid": docids, "origlang": origlangs}
    fields.update(systems)
    if seen_domain:
        fields["domain"] = [d if d is not None else "None" for d in domains]
    return fields
