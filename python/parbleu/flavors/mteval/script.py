"""The script's files (SGML/XML readers) and command line (:func:`main`) with its report."""

from __future__ import annotations

import datetime
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from ...errors import InvalidOptionError
from .lines import _SGML_SPACE
from .scoring import MtevalResult, _check_data, _die, evaluate, perl_number

# --- files and command line -------------------------------------------------------------------


def _sgml_span(name: str, data: str) -> tuple[str, str, str] | None:
    m = re.search(rf"<{name}\s*([^>]*)>(.*?)</{name}\s*>(.*)", data, re.S | re.I)
    return (m.group(1), m.group(2), m.group(3)) if m else None


def _sgml_spans(name: str, data: str) -> Iterator[tuple[str, str]]:
    """``(tag attributes, content)`` of each ``<name ...>...</name>`` in turn, as Perl's loop."""
    rest = data
    while (found := _sgml_span(name, rest)) is not None:
        tag, span, rest = found
        yield tag, span


def _sgml_attr(name: str, tag: str, quoted: bool) -> str | None:
    pat = rf'{name}\s*=\s*"([^"]*)"' if quoted else rf'{name}\s*=\s*"?([^"]*)"?'
    m = re.search(pat, tag, re.S | re.I)
    return m.group(1) if m else None


def read_sgml(
    path: str, set_tag: str, version: str = "v13a"
) -> dict[str, dict[str, dict[str, str]]]:
    """``{sysid: {docid: {segid: text}}}`` of an SGML file, as mteval's regex parser reads it.

    ``set_tag`` is ``"RefSet"``, ``"TstSet"`` or ``"SrcSet"`` (the latter under the id
    ``"source"``).
    """
    with open(path, encoding="utf-8", newline="") as f:
        data = f.read()
    quoted = version == "v14"
    out: dict[str, dict[str, dict[str, str]]] = {}
    for _tag, span in _sgml_spans(set_tag, data):
        for tag, dspan in _sgml_spans("Doc", span):
            sysid = _sgml_attr("SysID", tag, quoted) or "source"
            docid = _sgml_attr("DocID", tag, quoted) or ""
            dspan = _SGML_SPACE.sub(" ", dspan)
            segs: dict[str, str] = {}
            for stag, text in _sgml_spans("Seg", dspan):
                segs[_sgml_attr("id", stag, quoted) or ""] = text
            out.setdefault(sysid, {})[docid] = segs
        if set_tag == "SrcSet":
            break
    return out


def read_xml(path: str) -> dict[str, dict[str, dict[str, dict[str, str]]]]:
    """``{"refset"|"tstset": {id: {docid: {segid: text}}}}`` of an XML file (XML::Twig's view)."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        # expat refuses malformed XML and entity expansion bombs alike; XML::Twig dies too.
        from .._common import flavor_error

        raise flavor_error(
            "mteval", f"{path}: not well-formed XML ({e}); nothing is scored (Perl dies)"
        ) from None
    out: dict[str, dict[str, Any]] = {"refset": {}, "tstset": {}, "srcset": {}}
    for kind, attr in (("refset", "refid"), ("tstset", "sysid"), ("srcset", "setid")):
        for st in root.iter(kind):
            sysid = st.get(attr) or ""
            for doc in st.iter("doc"):
                segs = {seg.get("id") or "": "".join(seg.itertext()) for seg in doc.iter("seg")}
                out[kind].setdefault(sysid, {})[doc.get("docid") or ""] = segs
    return out


_USAGE = "Usage: mteval-{v}.pl -r <ref_file> -s <src_file> -t <tst_file>"


def main(
    argv: Sequence[str],
    version: str = "v13a",
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``mteval-v13a.pl`` / ``mteval-v14.pl`` with ``argv``; returns the exit status."""
    import argparse

    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    ap = argparse.ArgumentParser(prog=f"mteval-{version}.pl", add_help=False)
    ap.add_argument("-r", dest="ref")
    ap.add_argument("-s", dest="src")
    ap.add_argument("-t", dest="tst")
    ap.add_argument("-d", dest="detail", type=int, nargs="?", const=0, default=0)
    ap.add_argument("-h", "--help", action="store_true")
    ap.add_argument("-b", action="store_true")
    ap.add_argument("-n", action="store_true")
    ap.add_argument("-c", action="store_true")
    ap.add_argument("-x", dest="x", nargs="?", const="", default="")
    ap.add_argument("-e", action="store_true")
    ap.add_argument("--brevity-penalty", default="closest")
    ap.add_argument("--international-tokenization", action="store_true")
    ap.add_argument("--metricsMATR", "--metricsMATR-output", dest="matr", action="store_true")
    ap.add_argument("--no-smoothing", action="store_true")
    try:
        a = ap.parse_args(list(argv))
    except SystemExit:
        err.write(_USAGE.format(v=version) + "\n")
        return 255
    if a.help or not (a.ref and a.src and a.tst):
        err.write(_USAGE.format(v=version) + "\n")
        return 255 if not a.help else 0
    if a.e or a.x == "ngram info":
        raise InvalidOptionError(f"mteval-{version}: -e and -x 'ngram info' are not reproduced")
    method = "bleu" if a.b else "nist" if a.n else "both"
    if a.b and a.n:
        method = "nist"
    now = datetime.datetime.now()
    stamp = f"{now.year:4d} {now.strftime('%b')} {now.day} at {now:%H:%M:%S}"
    v14 = version == "v14"
    out.write(f"MT evaluation scorer began on {stamp}\n")
    out.write(("\n" if v14 else "") + f"command line:  mteval-{version}.pl {' '.join(argv)}\n")
    try:
        if a.ref.lower().endswith(".xml"):
            refs = read_xml(a.ref)["refset"]
            tst = read_xml(a.tst)["tstset"]
        else:
            refs = read_sgml(a.ref, "RefSet", version)
            tst = read_sgml(a.tst, "TstSet", version)
        if a.src.lower().endswith(".xml"):
            src = read_xml(a.src)["srcset"]
        else:
            src = read_sgml(a.src, "SrcSet", version)
        src_id, src_lang, _ = _set_info(a.src, "SrcSet", version)
        ref_id, _, _ = _set_info(a.ref, "RefSet", version)
        tst_id, _, tgt_lang = _set_info(a.tst, "TstSet", version)
        if not (src_id == tst_id == ref_id):
            raise _die(
                version,
                "Not the same 'setid' attribute values across files",
                499 if v14 else 490,
                ValueError,
            )
        source = next(iter(src.values())) if src else None
        if source is not None:
            # The script prints this block after its data checks, before any -d line.
            _check_data(tst, refs, source, version)
            out.write(
                ("\n" if v14 else "  ")
                + f"Evaluation of {src_lang}-to-{tgt_lang} translation using:\n"
                f'    src set "{src_id}" ({len(source)} docs, '
                f"{sum(len(x) for x in source.values())} segs)\n"
                f'    ref set "{ref_id}" ({len(refs)} refs)\n'
                f'    tst set "{tst_id}" ({len(tst)} systems)\n\n'
            )
        results = evaluate(
            tst,
            refs,
            version,
            a.c,
            a.international_tokenization,
            a.brevity_penalty,
            not a.no_smoothing,
            method,
            source=source,
            detail=a.detail,
            document_info=a.x == "document info",
            emit=lambda line: print(line, file=out),
        )
    except Exception as e:
        from ...errors import FlavorError

        if isinstance(e, FlavorError):
            err.write(e.reason.replace(" (Perl dies)", "") + "\n")
            return 255
        raise
    _report(results, method, v14, out)
    if a.matr:
        _write_matr(results, method, tst_id=tst_id)
    done = datetime.datetime.now()
    out.write(
        ("\n" if v14 else "")
        + f"MT evaluation scorer ended on {done.year:4d} {done.strftime('%b')} {done.day} "
        f"at {done:%H:%M:%S}\n"
    )
    return 0


def _set_info(path: str, set_tag: str, version: str) -> tuple[str, str, str]:
    """``(setid, srclang, trglang)`` of a file's sets, as the script's report names them.

    The source's first set; the last of several reference or test sets (the script keeps the
    last one's id).
    """
    if path.lower().endswith(".xml"):
        import xml.etree.ElementTree as ET

        sets = list(ET.parse(path).getroot().iter(set_tag.lower()))
        attrs = [(st.get("setid"), st.get("srclang"), st.get("trglang")) for st in sets]
    else:
        with open(path, encoding="utf-8", newline="") as f:
            rest = f.read()
        quoted = version == "v14"
        attrs = []
        while (found := _sgml_span(set_tag, rest)) is not None:
            tag, _span, rest = found
            setid, src, tgt = (_sgml_attr(k, tag, quoted) for k in ("SetID", "SrcLang", "TrgLang"))
            attrs.append((setid, src, tgt))
    if set_tag == "SrcSet":
        attrs = attrs[:1]
    if not attrs:
        return ("", "", "")
    setid, src, tgt = attrs[-1]
    return (setid or "", src or "", tgt or "")


def _report(results: dict[str, MtevalResult], method: str, v14: bool, out: TextIO) -> None:
    systems = sorted(results)
    for sysid in systems:
        line = results[sysid].score_line
        out.write(("\n" + line if method == "bleu" else line) + "\n")
    header = (
        "        1-gram   2-gram   3-gram   4-gram   5-gram   6-gram   7-gram   8-gram   9-gram\n"
        "        ------   ------   ------   ------   ------   ------   ------   ------   ------\n"
    )
    # v14 puts one more space before the system name and a blank line before "Cumulative".
    name_gap = "  " if v14 else " "

    def rows(kind: str, attr: str) -> None:
        for sysid in systems:
            vals = "".join(f"  {v:2.4f} " for v in getattr(results[sysid], attr))
            out.write(f' {kind}:{vals}{name_gap}"{sysid}"\n')

    out.write("\n# ------------------------------------------------------------------------\n\n")
    out.write("Individual N-gram scoring\n" + header)
    if method in ("both", "nist"):
        rows("NIST", "nist_individual")
        out.write("\n")
    if method in ("both", "bleu"):
        rows("BLEU", "bleu_individual")
    out.write("\n# ------------------------------------------------------------------------\n")
    out.write(("\n" if v14 else "") + "Cumulative N-gram scoring\n" + header)
    if method in ("both", "nist"):
        rows("NIST", "nist_cumulative")
    out.write("\n")
    if method in ("both", "bleu"):
        rows("BLEU", "bleu_cumulative")


def _write_matr(results: dict[str, MtevalResult], method: str, tst_id: str) -> None:
    for prefix in ("NIST", "BLEU"):
        if method not in ("both", prefix.lower()):
            continue
        with (
            open(f"{prefix}-sys.scr", "w", encoding="utf-8") as fs,
            open(f"{prefix}-doc.scr", "w", encoding="utf-8") as fd,
            open(f"{prefix}-seg.scr", "w", encoding="utf-8") as fg,
        ):
            for sysid in sorted(results):
                r = results[sysid]
                total = r.nist if prefix == "NIST" else r.bleu
                docs = r.doc_nist if prefix == "NIST" else r.doc_bleu
                segs = r.seg_nist if prefix == "NIST" else r.seg_bleu
                fs.write(f"{tst_id}\t{sysid}\t{perl_number(total or 0.0)}\n")
                for d in sorted(docs):
                    fd.write(f"{tst_id}\t{sysid}\t{d}\t{perl_number(docs[d])}\n")
                    for (dd, s), v in segs.items():
                        if dd == d:
                            fg.write(f"{tst_id}\t{sysid}\t{d}\t{s}\t{perl_number(v)}\n")
