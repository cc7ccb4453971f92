"""parbleu's test-set readers against SacreBLEU 2.6's, on test sets of every layout.

SacreBLEU's own dataset classes download the made-up test sets from the local server into one
cache, parbleu into another: the text files must be the same, byte for byte. Then each tool
reads the other's cache with the server stopped (nothing downloaded, same lines), and the
``--origlang``/``--subset`` filters keep the same segments.
"""

from __future__ import annotations

import filecmp
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from datasets_support import Server, archives, registry, write_registry

from parbleu import datasets

sacrebleu = pytest.importorskip("sacrebleu")
pytest.importorskip("lxml")
from sacrebleu import utils as sb_utils  # noqa: E402
from sacrebleu.dataset import base as sb_base  # noqa: E402
from sacrebleu.dataset.fake_sgml import FakeSGMLDataset, WMTAdditionDataset  # noqa: E402
from sacrebleu.dataset.plain_text import PlainTextDataset  # noqa: E402
from sacrebleu.dataset.tsv import TSVDataset  # noqa: E402
from sacrebleu.dataset.wmt_xml import WMTXMLDataset  # noqa: E402

CLASSES = {
    "text": PlainTextDataset,
    "sgml": FakeSGMLDataset,
    "wmt-addition": WMTAdditionDataset,
    "tsv": TSVDataset,
    "wmt-xml": WMTXMLDataset,
}


def _sacrebleu_sets(reg: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, e in reg["datasets"].items():
        kw = {"refs": e["refs"]} if "refs" in e else {}
        out[name] = CLASSES[e["layout"]](
            name, data=e["data"], md5=e["md5"], description=e["description"],
            langpairs=e["langpairs"], **kw,
        )  # fmt: skip
    return out


@pytest.fixture
def two_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Server, Any]]:
    server = Server(archives()).start()
    reg = registry(server.base, server.files)
    monkeypatch.setenv(datasets.ENV_REGISTRY, str(write_registry(tmp_path / "reg.json", reg)))
    monkeypatch.setattr(sb_base, "SACREBLEU_DIR", str(tmp_path / "sb"))
    sb_sets = _sacrebleu_sets(reg)
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "pb"))
    try:
        yield server, (reg, sb_sets)
    finally:
        server.stop()


def _pairs(reg: dict[str, Any]) -> list[tuple[str, str]]:
    return [(n, lp) for n, e in reg["datasets"].items() for lp in e["langpairs"]]


def _text_files(root: Path) -> dict[str, Path]:
    return {str(p.relative_to(root)): p for p in root.rglob("*") if p.is_file()
            and "raw" not in p.relative_to(root).parts}  # fmt: skip


def test_same_text_files_as_sacrebleu(two_caches: tuple[Server, Any], tmp_path: Path) -> None:
    _, (reg, sb_sets) = two_caches
    for name, lp in _pairs(reg):
        sb = sb_sets[name]
        sb_files = sb.get_files(lp)
        pb_files = datasets.files(name, lp)
        if reg["datasets"][name]["layout"] == "wmt-xml":  # SacreBLEU: set order of translators
            assert sorted(sb.fieldnames(lp)) == sorted(datasets.fieldnames(name, lp))
        else:
            assert sb.fieldnames(lp) == datasets.fieldnames(name, lp)
        assert [Path(f).name for f in sorted(sb_files)] == [Path(f).name for f in sorted(pb_files)]
        assert sorted(Path(f).name for f in sb.get_reference_files(lp)) == sorted(
            Path(f).name for f in datasets.get_test_set(name).reference_files(lp)
        )
        assert list(sb.source(lp)) == datasets.source(name, lp)
    sb_text, pb_text = _text_files(tmp_path / "sb"), _text_files(tmp_path / "pb")
    assert sorted(sb_text) == sorted(pb_text)
    for rel in sb_text:
        assert filecmp.cmp(sb_text[rel], pb_text[rel], shallow=False), rel
    assert len(sb_text) > 30


def test_each_reads_the_others_cache(
    two_caches: tuple[Server, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, (reg, sb_sets) = two_caches
    expected = {}
    for name, lp in _pairs(reg):
        sb_sets[name].get_files(lp)
        expected[name, lp] = datasets.references(name, lp)
    server.stop()
    # parbleu on SacreBLEU's cache, text files removed: rebuilt from SacreBLEU's raw downloads.
    for p in _text_files(tmp_path / "sb").values():
        p.unlink()
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "sb"))
    for name, lp in _pairs(reg):
        assert datasets.references(name, lp) == expected[name, lp]
    # SacreBLEU on parbleu's cache, text files removed.
    for p in _text_files(tmp_path / "pb").values():
        p.unlink()
    monkeypatch.setattr(sb_base, "SACREBLEU_DIR", str(tmp_path / "pb"))
    sb_sets = _sacrebleu_sets(reg)
    for name, lp in _pairs(reg):
        got = [datasets.read_lines(f) for f in sb_sets[name].get_reference_files(lp)]
        assert sorted(got) == sorted(expected[name, lp])


@pytest.mark.parametrize(
    ("name", "lp", "origlang", "subset"),
    [
        ("tx", "en-de", "en", None),
        ("tx", "en-de", "non-en", None),
        ("tx", "en-de", None, "soc"),
        ("tx", "en-de", "non-de", "new"),
        ("ts", "de-en", "de", None),
        ("ts", "de-en", "non-de", None),
        ("ts", "de-en", None, "politics"),
        ("ts", "de-en", None, "country:GB"),
        ("ts,ts/two", "de-en", "en", None),
    ],
)
def test_origlang_and_subset_filters(
    two_caches: tuple[Server, Any],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
    lp: str,
    origlang: str | None,
    subset: str | None,
) -> None:
    _, (reg, sb_sets) = two_caches
    for n in name.split(","):
        sb_sets[n].get_files(lp)
        datasets.files(n, lp)
    monkeypatch.setattr(sb_utils, "SACREBLEU_DIR", str(tmp_path / "sb"))
    monkeypatch.setattr(sb_utils, "DATASETS", sb_sets)
    monkeypatch.setattr(sb_utils, "SUBSETS", reg["subsets"])
    n_segs = sum(len(datasets.source(n, lp)) for n in name.split(","))
    stream = [str(i) for i in range(n_segs)]
    expected = sb_utils.filter_subset([stream], name, lp, origlang, subset)
    got = datasets.filter_subset([stream], name, lp, origlang, subset)
    assert got == expected
    assert 0 < len(got[0]) < n_segs
    if "," not in name:
        assert datasets.available_origlangs(name, lp) == sb_utils.get_available_origlangs(name, lp)
        assert datasets.available_subsets(name, lp) == sb_utils.get_available_subsets(name, lp)
