"""Test sets made by the tests, a local HTTP server for them, and a registry that points there.

Every layout SacreBLEU reads is made here from small made-up documents: plain text, WMT SGML
(with docid/genre/origlang), WMT XML (several translators, systems, domains), TSV, in tar.gz
and zip archives and as bare files. The server binds to 127.0.0.1 only, honours ``Range``, and
can cut a response short, fail, or go slowly, to exercise the downloader.
"""

from __future__ import annotations

import gzip
import hashlib
import http.server
import io
import json
import tarfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SGML_DOCS = [
    ("bbc.381790", "news", "de", ["Hallo  Welt .", "Zweiter\tSatz"]),
    ("rt.com.91337", "news", "en", ["Dritter Satz .", "  Vierter   Satz  "]),
    ("cnn.304400", "sport", "de", ["Fünfter Satz ."]),
]


def sgml(side: str, lang: str) -> bytes:
    """A WMT SGML file: the source (``side='src'``) or the reference of SGML_DOCS."""
    out = [f'<{side}set setid="newstest2019" srclang="any" trglang="{lang}">']
    for docid, genre, origlang, segs in SGML_DOCS:
        out.append(f'<doc sysid="ref" docid="{docid}" genre="{genre}" origlang="{origlang}">')
        out.append("<p>")
        for i, s in enumerate(segs, 1):
            text = s if side == "src" else f"{s} [{lang}]"
            out.append(f'<seg id="{i}">{text}</seg>')
        out.append("</p>")
        out.append("</doc>")
    out.append(f"</{side}set>")
    return ("\n".join(out) + "\n").encode()


def wmt_xml(translators: tuple[str, ...] = ("A", "B"), domains: bool = True) -> bytes:
    """A WMT 2021+ XML file: 3 documents, references by ``translators``, two systems."""
    docs = []
    for d, (origlang, domain) in enumerate([("en", "news"), ("de", "social"), ("en", "news")]):
        dom = f' domain="{domain}"' if domains else ""
        src = "".join(f'<seg id="{i}">Source {d}.{i}  text</seg>' for i in (1, 2, 3))
        refs = ""
        for t in translators:
            segs = "".join(
                f'<seg id="{i}">{"" if (d, i) == (1, 2) else f"Ref {t} {d}.{i} &amp; so"}</seg>'
                for i in (1, 2, 3)
            )
            refs += f'<ref lang="de" translator="{t}"><p>{segs}</p></ref>'
        hyps = ""
        for sysname in ("sysX", "sysY"):
            segs = "".join(f'<seg id="{i}">Hyp {sysname} {d}.{i}</seg>' for i in (1, 2, 3))
            hyps += f'<hyp system="{sysname}" language="de"><p>{segs}</p></hyp>'
        docs.append(
            f'<doc id="doc{d}" origlang="{origlang}"{dom}><src lang="en"><p>{src}</p></src>'
            f"{refs}{hyps}</doc>"
        )
    docs.append(
        '<doc id="ts" origlang="en" testsuite="x"><src lang="en"><p>'
        '<seg id="1">skip</seg></p></src></doc>'
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<dataset id="t">' + "".join(docs) + "</dataset>\n"
    ).encode()


def tar_gz(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zip_bytes(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


TEXT_SRC = "Ein Satz.  \nNoch einer\t\n\nLetzter Satz mit\u2028Trenner\n".encode()
TEXT_REF = b"A sentence.\nAnother one\n\nLast sentence\n"
TSV = b"1\t2\tquelle eins\tref one\n2\t3\t\tref two\n3\t4\tquelle trois\t\n"


def archives() -> dict[str, bytes]:
    """Every file the server offers, by URL path."""
    return {
        "/xml.tar.gz": tar_gz(
            {
                "pkg/xml/test.en-de.all.xml": wmt_xml(),
                "pkg/xml/test.de-en.all.xml": wmt_xml(("A",), domains=False),
            }
        ),
        "/sgm.tgz": tar_gz(
            {
                "sgm/newstest2019-deen-src.de.sgm": sgml("src", "de"),
                "sgm/newstest2019-deen-ref.en.sgm": sgml("ref", "en"),
                "sgm/newstest2019-deen-ref2.en.sgm": sgml("ref", "fr"),
            }
        ),
        "/text.zip": zip_bytes({"txt/test.de": TEXT_SRC, "txt/test.en": TEXT_REF}),
        "/mtnt.tar.gz": tar_gz({"MTNT/test.fr-en.tsv": TSV}),
        "/extra.ref": b"Paraphrase one\nParaphrase two\nParaphrase three\nFour\nFive\n",
        # A bare gzipped file (as multi30k/2018's), read without unpacking.
        "/src.gz": gzip.compress(b"Eins  \nZwei\n\nVier\n"),
    }


def registry(base: str, files: dict[str, bytes]) -> dict[str, Any]:
    """A registry (parbleu's format) of test sets of every layout, served at ``base``."""

    def entry(layout: str, paths: list[str], langpairs: dict[str, Any], **kw: Any) -> Any:
        return {
            "layout": layout,
            "data": [base + p for p in paths],
            "md5": [md5(files[p]) for p in paths],
            "description": f"A made-up {layout} test set",
            "citation": None,
            "langpairs": langpairs,
            **kw,
        }

    return {
        "datasets": {
            "tx": entry(
                "wmt-xml",
                ["/xml.tar.gz"],
                {
                    "en-de": ["pkg/xml/test.en-de.all.xml"],
                    "de-en": {"path": "pkg/xml/test.de-en.all.xml", "refs": ["A"]},
                },
                refs=["B"],
            ),
            "ts": entry(
                "sgml",
                ["/sgm.tgz"],
                {"de-en": ["sgm/newstest2019-deen-src.de.sgm", "sgm/newstest2019-deen-ref.en.sgm"]},
            ),
            "ts/two": entry(
                "sgml",
                ["/sgm.tgz"],
                {
                    "de-en": [
                        "sgm/newstest2019-deen-src.de.sgm",
                        "sgm/newstest2019-deen-ref.en.sgm",
                        "sgm/newstest2019-deen-ref2.en.sgm",
                    ]
                },
            ),
            "tt": entry("text", ["/text.zip"], {"de-en": ["txt/test.de", "txt/test.en"]}),
            "tg": entry("text", ["/text.zip", "/src.gz"], {"de-en": ["tg.src.gz", "txt/test.en"]}),
            "tv": entry(
                "tsv",
                ["/mtnt.tar.gz"],
                {"fr-en": ["2:MTNT/test.fr-en.tsv", "3:MTNT/test.fr-en.tsv"]},
            ),
            "ta": entry(
                "wmt-addition",
                ["/sgm.tgz", "/extra.ref"],
                {"de-en": ["sgm/newstest2019-deen-src.de.sgm", "ta.extra.ref"]},
            ),
        },
        "subsets": {"ts": {"bbc.381790": "GB-politics", "rt.com.91337": "OTHER-politics-MK"}},
        "spm_models": {},
    }


@dataclass
class Server:
    """A local HTTP server over ``files``; ``cut``/``fail``/``delay`` change its answers."""

    files: dict[str, bytes]
    cut: dict[str, int] = field(default_factory=dict)  # path -> bytes sent before closing
    fail: set[str] = field(default_factory=set)  # paths answered with HTTP 500
    requests: list[tuple[str, str | None]] = field(default_factory=list)
    delay: float = 0.0  # seconds to wait before each answer
    httpd: Any = None

    @property
    def base(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> Server:
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                rng = self.headers.get("Range")
                server.requests.append((self.path, rng))
                time.sleep(server.delay)
                data = server.files.get(self.path)
                if data is None or self.path in server.fail:
                    self.send_error(404 if data is None else 500)
                    return
                start = 0
                if rng and rng.startswith("bytes="):
                    start = int(rng[6:].split("-")[0])
                    if start >= len(data):
                        self.send_error(416)
                        return
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                else:
                    self.send_response(200)
                body = data[start:]
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                limit = server.cut.pop(self.path, None)
                self.wfile.write(body if limit is None else body[:limit])
                self.wfile.flush()
                if limit is not None:
                    self.close_connection = True

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def write_registry(path: Path, reg: dict[str, Any]) -> Path:
    path.write_text(json.dumps(reg), encoding="utf-8")
    return path
