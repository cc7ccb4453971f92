"""One test set of the registry: its cache paths, fields and text files (SacreBLEU's layout).

``$SACREBLEU/<name>/raw/`` holds the downloads (``<name_>.<url basename>``) and what the
archives unpack to; ``$SACREBLEU/<name>/<name_>.<langpair>.<field>`` the text files, one line
per segment (``name_`` is the name with ``/`` replaced by ``_``; ``:`` in a field name becomes
``-``). These are SacreBLEU 2.6's names and contents, so either tool reads what the other wrote.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from ..errors import DatasetError, ParbleuError
from . import _readers

__all__ = ["TestSet", "cache_dir"]


def cache_dir() -> str:
    """Return the cache folder: ``$SACREBLEU``, else ``~/.sacrebleu`` (read each call)."""
    return os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


class TestSet:
    """A test set: registry entry plus the cache folder it lives in.

    Parameters
    ----------
    name
        The test set's name (``wmt22``, ``wmt21/systems``, ...).
    entry
        Its registry entry (``layout``, ``data``, ``md5``, ``langpairs``, ...).
    """

    __test__ = False  # not a pytest class, despite the name

    def __init__(self, name: str, entry: dict[str, Any]) -> None:
        self.name = name
        self.layout: str = entry["layout"]
        self.data: list[str] = entry["data"]
        self.md5: list[str] | None = entry.get("md5")
        self.description: str = entry.get("description") or ""
        self.citation: str | None = entry.get("citation")
        self.langpairs: dict[str, Any] = entry["langpairs"]
        self.default_refs: list[str | None] = entry.get("refs", [])
        self._xml_cache: dict[str, dict[str, list[str]]] = {}

    # --- paths ----------------------------------------------------------------------------
    @property
    def outdir(self) -> str:
        """``$SACREBLEU/<name>``."""
        return os.path.join(cache_dir(), self.name)

    @property
    def rawdir(self) -> str:
        """``$SACREBLEU/<name>/raw``."""
        return os.path.join(self.outdir, "raw")

    def download_path(self, url: str) -> str:
        """Return where the download of ``url`` goes."""
        return os.path.join(self.rawdir, self.name.replace("/", "_") + "." + os.path.basename(url))

    def text_path(self, langpair: str, field: str) -> str:
        """Return the text file of one field."""
        name = self.name.replace("/", "_")
        return os.path.join(self.outdir, f"{name}.{langpair}.{field.replace(':', '-')}")

    def raw_paths(self, langpair: str) -> list[str]:
        """Return the raw files of a language pair (registry paths, inside ``raw/``)."""
        meta = self.langpairs[langpair]
        rel = [meta["path"]] if isinstance(meta, dict) else list(meta)
        return [os.path.join(self.rawdir, p.split(":", 1)[-1]) for p in rel]

    # --- registry checks --------------------------------------------------------------------
    def check_langpair(self, langpair: str | None) -> list[str]:
        """Return the language pairs to process: ``langpair``, or all for ``None``."""
        if langpair is None:
            return list(self.langpairs)
        if langpair not in self.langpairs:
            raise DatasetError(
                f"no language pair {langpair!r} in test set {self.name!r}; available: "
                + ", ".join(self.langpairs)
            )
        return [langpair]

    # --- download ---------------------------------------------------------------------------
    def download(self, progress: bool | None = None) -> None:
        """Download (and unpack) what is not in the cache yet."""
        md5s: list[str | None] = list(self.md5) if self.md5 else [None] * len(self.data)
        for url, md5 in zip(self.data, md5s):
            from ._download import download_file  # http.client etc.: only to download

            download_file(url, self.download_path(url), self.rawdir, md5=md5, progress=progress)

    # --- fields -----------------------------------------------------------------------------
    def _xml(self, langpair: str) -> dict[str, list[str]]:
        # Keyed by path: the cache folder (SACREBLEU) may change within a process.
        path = self.raw_paths(langpair)[0]
        if path not in self._xml_cache:
            try:
                self._xml_cache[path] = _readers.wmt_xml_fields(path)
            except _readers.RAW_FILE_ERRORS as e:
                raise DatasetError(
                    f"{self.name}/{langpair}: cannot read {path} ({_readers.describe(e)}); if it "
                    f"is damaged, delete {self.outdir} and run again"
                ) from None
        return self._xml_cache[path]

    def fieldnames(self, langpair: str) -> list[str]:
        """Return the fields of a language pair, in SacreBLEU's order."""
        self.check_langpair(langpair)
        if self.layout == "wmt-xml":
            self.download()
            return list(self._xml(langpair))
        if self.layout in ("sgml", "wmt-addition"):
            n = len(self.langpairs[langpair])
            if n < 2:
                raise DatasetError(f"{self.name}/{langpair}: needs at least 2 files")
            fields = ["src"] + (["ref"] if n == 2 else [f"ref:{i}" for i in range(n - 1)])
            if not self.name.startswith("wmt08"):
                fields += ["docid", "genre", "origlang"]
            return fields
        return ["src", "ref"]

    def _columns(self, langpair: str) -> dict[str, list[str]]:
        """Return the text of every field of a language pair, from the raw files."""
        fields = self.fieldnames(langpair)
        if self.layout == "wmt-xml":
            return {k: [_readers.clean(x) for x in v] for k, v in self._xml(langpair).items()}
        raws = self.raw_paths(langpair)
        meta = self.langpairs[langpair]
        out: dict[str, list[str]] = {}
        for i, field in enumerate(fields):
            if self.layout == "tsv":
                spec = meta[i].split(":")
                index = int(spec[0]) if len(spec) == 2 else (0 if field == "src" else 1)
                out[field] = _readers.tsv_column(raws[i], index)
            elif self.layout == "text":
                out[field] = _readers.text_lines(raws[i])
            elif field.startswith(("src", "ref")):
                path = raws[i]
                if self.layout == "wmt-addition" and not path.endswith(".sgm"):
                    out[field] = _readers.text_lines(path)
                else:
                    out[field] = _readers.sgml_segments(path)
            else:
                out[field] = _readers.sgml_meta(raws[0], field)
        return out

    def process(self, langpair: str | None = None) -> None:
        """Write the text files of one language pair (or all) from the raw files."""
        self.download()
        for lp in self.check_langpair(langpair):
            try:
                columns = self._columns(lp)
            except _readers.RAW_FILE_ERRORS as e:
                if isinstance(e, ParbleuError):  # a DownloadError is an OSError too
                    raise
                raise DatasetError(
                    f"{self.name}/{lp}: cannot read the raw files in {self.rawdir} "
                    f"({_readers.describe(e)}); if they are damaged, delete {self.outdir} and "
                    "run again"
                ) from None
            for field, lines in columns.items():
                path = self.text_path(lp, field)
                if self.layout == "wmt-xml" and _nonempty(path):
                    continue  # SacreBLEU keeps existing XML-derived files
                _write_lines(path, lines)

    def files(self, langpair: str) -> list[str]:
        """Return the text file of every field (written first if one is missing)."""
        fields = self.fieldnames(langpair)
        paths = [self.text_path(langpair, f) for f in fields]
        if not all(os.path.exists(p) for p in paths):
            self.process(langpair)
        return paths

    def allowed_refs(self, langpair: str) -> list[str] | None:
        """Return the reference fields used for scoring (``None``: every ``ref*``)."""
        if self.layout != "wmt-xml":
            return None
        meta = self.langpairs[langpair]
        refs = meta.get("refs", self.default_refs) if isinstance(meta, dict) else self.default_refs
        return [f"ref:{r}" if r else "ref" for r in refs]

    def reference_files(self, langpair: str) -> list[str]:
        """Return the reference files used for scoring, in field order."""
        files = self.files(langpair)
        fields = self.fieldnames(langpair)
        allowed = self.allowed_refs(langpair)
        return [
            p
            for p, f in zip(files, fields)
            if (f in allowed if allowed is not None else f.startswith("ref"))
        ]

    def source_file(self, langpair: str) -> str:
        """Return the source file."""
        files = self.files(langpair)
        return files[self.fieldnames(langpair).index("src")]


def _nonempty(path: str) -> bool:
    try:
        return os.path.getsize(path) > 0
    except OSError:
        return False


def _write_lines(path: str, lines: list[str]) -> None:
    """Write ``lines`` atomically (a temporary file renamed into place)."""
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".parbleu-", dir=folder)
    except OSError as e:
        raise DatasetError(
            f"cannot write {path} ({e.strerror or e}); set SACREBLEU to a writable folder"
        ) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            for line in lines:
                f.write(line + "\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
