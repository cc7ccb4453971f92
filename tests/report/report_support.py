"""Shared pieces of the report tests: the sample systems, an HTML tree, the extras gate."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
import sacrebleu

import parbleu
from helpers import require

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "python" / "parbleu" / "sample"
NAMES = ("Online-W", "Facebook-AI", "VolcTrans-GLAT")
#: The extra of each optional dependency of the report tests.
EXTRAS = {"matplotlib": "report", "playwright": "browser"}


def require_extra(module: str) -> None:
    """Import an optional dependency of the report tests (``helpers.require`` with its extra).

    CI's report step sets ``PARBLEU_REQUIRE=report,browser``: a missing one fails there.
    """
    require(module, EXTRAS[module])


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@functools.cache
def sample(n_lines: int = 500) -> tuple[list[str], dict[str, list[str]]]:
    """The packaged WMT21 sample: one reference stream and three systems."""
    ref = lines(SAMPLE / "ref.A.de")[:n_lines]
    systems = {n: lines(SAMPLE / f"{n}.de")[:n_lines] for n in NAMES}
    return ref, systems


@functools.cache
def sample_report(n_lines: int = 200) -> parbleu.Report:
    ref, systems = sample(n_lines)
    return parbleu.report(
        [ref],
        systems,
        n=200,
        flavors=("nltk", "multi-bleu", "tfnmt"),
        flavor_systems=3,
        explain=True,
    )


@dataclass
class Node:
    """An element of a parsed page."""

    tag: str
    attrs: dict[str, str | None]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self, tag: str | None = None) -> list[Node]:
        out = []
        for c in self.children:
            if isinstance(c, Node):
                if tag is None or c.tag == tag:
                    out.append(c)
                out.extend(c.iter(tag))
        return out

    def by_id(self, id_: str) -> Node:
        found = [n for n in self.iter() if n.attrs.get("id") == id_]
        assert len(found) == 1, f"{len(found)} elements with id {id_!r}"
        return found[0]

    def cls(self) -> list[str]:
        return (self.attrs.get("class") or "").split()


_VOID = {"meta", "br", "input", "img", "link", "hr", "source", "wbr", "col", "area", "base"}


class TreeBuilder(HTMLParser):
    """A strict tree of the page: every element closed in order (else AssertionError)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]
        self.doctype: str | None = None

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs))
        assert len(dict(attrs)) == len(attrs), f"repeated attribute in <{tag}>"
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(page: str) -> Node:
    b = TreeBuilder()
    b.feed(page)
    b.close()
    assert b.stack == [b.root], f"unclosed: {[n.tag for n in b.stack[1:]]}"
    assert b.doctype is not None and b.doctype.lower() == "doctype html"
    return b.root


@functools.cache
def wmt_ja_en(n_lines: int) -> tuple[list[str], dict[str, list[str]]]:
    """14 WMT21 ja-en systems (of 16, by name), keyed by their full file names."""
    import testdata

    wmt = testdata.root() / "data" / "wmt21"
    paths = sorted((wmt / "system-outputs").glob("newstest2021.ja-en.hyp.*.en"))[:14]
    ref = lines(wmt / "references" / "newstest2021.ja-en.ref.A.en")[:n_lines]
    return ref, {p.name: lines(p)[:n_lines] for p in paths}


def data_v(td: Node) -> float | None:
    """A table cell's number (its ``data-v``), None for an empty cell."""
    v = td.attrs["data-v"]
    return None if v == "" else float(v)  # type: ignore[arg-type]


def check_bucket_bleu(got: float | None, hyps: list[str], ref: list[str], idx: list[int]) -> None:
    """A bucket's BLEU cell: empty for no segments, else SacreBLEU's BLEU of the bucket's."""
    if not idx:
        assert got is None
        return
    want = sacrebleu.corpus_bleu([hyps[i] for i in idx], [[ref[i] for i in idx]]).score
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
