"""Hostile input to the test sets, their downloads and the SentencePiece models (issue 28).

Each class is one cause: a local HTTP server that breaks the protocol (a raw socket server on
127.0.0.1 that answers with scripted bytes), a tampered cache, malformed WMT XML, bad
``--subset``/``--origlang`` input, a broken registry override. Every case ends in one clear
``DownloadError``/``DatasetError`` (exit 1 on the command line), never exit 70 or a traceback,
and never a silently wrong result.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import Run, run_main

from helpers import train_spm_model
from parbleu import datasets
from parbleu.cli import ExitCode
from parbleu.errors import DatasetError, DownloadError, LengthMismatchError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "testsets"))
from datasets_support import (
    Server,
    archives,
    md5,
    registry,
    tar_gz,
    wmt_xml,
    write_registry,
)


def _one_error(run: Run, *words: str) -> str:
    """The run failed with exit 1 and one ``parbleu: error:`` line holding ``words``."""
    assert run.code == ExitCode.ERROR, (run.code, run.err_lines)
    assert b"Traceback" not in run.err, run.err_lines
    # Informational log lines ("sacreBLEU: Downloading ...") may come first.
    lines = [x for x in run.err_lines if not x.startswith("sacreBLEU: ")]
    assert len(lines) == 1 and lines[0].startswith("parbleu: error: "), run.err_lines
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


class RawServer:
    """A TCP server on 127.0.0.1 answering each request for a path with scripted bytes.

    ``answers[path]`` is sent as is (status line, headers, body), then the connection is
    closed: whatever HTTP rule the bytes break, the client sees it broken.
    """

    def __init__(self, answers: dict[str, bytes]) -> None:
        self.answers = answers
        self.requests: list[str] = []
        self.headers: list[str] = []  # each request as received
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        host, port = self.sock.getsockname()[:2]
        return f"http://{host}:{port}"

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(5)
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                path = data.split(b" ", 2)[1].decode() if data.count(b" ") >= 2 else ""
                self.requests.append(path)
                self.headers.append(data.decode("latin-1"))
                with contextlib.suppress(OSError):
                    conn.sendall(self.answers.get(path, b"HTTP/1.0 404 Not Found\r\n\r\n"))

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(5)
        self.sock.close()


@pytest.fixture
def raw_server() -> Iterator[RawServer]:
    server = RawServer({})
    try:
        yield server
    finally:
        server.stop()


def _use_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reg: dict[str, object]) -> None:
    path = write_registry(tmp_path / f"reg-{len(list(tmp_path.glob('reg-*')))}.json", reg)
    monkeypatch.setenv(datasets.ENV_REGISTRY, str(path))
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "cache"))


def _text_set(base: str, path: str, data: bytes) -> dict[str, object]:
    """A registry of one plain-text test set ``tt`` (de-en) downloaded from ``base + path``."""
    return {
        "datasets": {
            "tt": {
                "layout": "text",
                "data": [base + path],
                "md5": [md5(data)],
                "langpairs": {"de-en": ["txt/test.de", "txt/test.en"]},
            }
        },
        "subsets": {},
        "spm_models": {},
    }


_GOOD_ZIP = archives()["/text.zip"]


def _chunked_cut(body: bytes) -> bytes:
    """A chunked response that announces more of its only chunk than it sends."""
    head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    return head + f"{len(body):x}\r\n".encode() + body[: len(body) // 2]


BROKEN_ANSWERS = {
    "garbage status line": b"HELLO THERE\r\n\r\nbody",
    "more than 100 headers": b"HTTP/1.1 200 OK\r\n"
    + b"".join(b"X-H%d: v\r\n" % i for i in range(120))
    + b"Content-Length: 4\r\n\r\nbody",
    "header line over 64 KiB": b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\nbody",
    "cut-short chunked body": _chunked_cut(_GOOD_ZIP),
    "empty answer": b"",
    "bad content length": b"HTTP/1.1 200 OK\r\nContent-Length: lots\r\n\r\nbody",
    "bad chunk size": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nbody\r\n",
}


class TestHttpProtocolErrors:
    """A server that breaks HTTP: a DownloadError naming the URL, the cache left usable."""

    @staticmethod
    def _serve(answer: bytes, server: RawServer, tmp: Path, mp: pytest.MonkeyPatch) -> None:
        """The test set's text archive is served with ``answer``."""
        server.answers["/text.zip"] = answer
        _use_registry(tmp, mp, _text_set(server.base, "/text.zip", _GOOD_ZIP))

    @pytest.mark.parametrize("case", list(BROKEN_ANSWERS))
    def test_data_download(
        self, case: str, raw_server: RawServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self._serve(BROKEN_ANSWERS[case], raw_server, tmp_path, monkeypatch)
        url = raw_server.base + "/text.zip"
        with pytest.raises(DownloadError, match=r"text\.zip") as info:
            datasets.download("tt", "de-en")
        assert url in str(info.value)
        assert len(str(info.value)) < 1000  # a 64 KiB header is not quoted in full
        dest = tmp_path / "cache" / "tt" / "raw" / "tt.text.zip"
        assert not dest.exists()  # nothing unchecked is kept under the final name
        # The same server fixed: the next run downloads (or resumes) and works.
        raw_server.answers["/text.zip"] = (
            b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(_GOOD_ZIP) + _GOOD_ZIP
        )
        assert datasets.references("tt", "de-en")[0][0] == "A sentence."

    @pytest.mark.parametrize("case", list(BROKEN_ANSWERS))
    def test_on_the_command_line(
        self, case: str, raw_server: RawServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self._serve(BROKEN_ANSWERS[case], raw_server, tmp_path, monkeypatch)
        run = run_main(["-t", "tt", "-l", "de-en", "--echo", "src"], monkeypatch, cwd=tmp_path)
        _one_error(run, raw_server.base + "/text.zip")

    def test_cut_short_chunk_resumes(
        self, raw_server: RawServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # The whole chunks before the cut are kept in the .part, and the next run asks for
        # the rest only.
        half = len(_GOOD_ZIP) // 2
        raw_server.answers["/text.zip"] = (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + f"{half:x}\r\n".encode() + _GOOD_ZIP[:half] + b"\r\n"
            + f"{len(_GOOD_ZIP) - half:x}\r\n".encode() + _GOOD_ZIP[half : half + 10]
        )  # fmt: skip
        _use_registry(tmp_path, monkeypatch, _text_set(raw_server.base, "/text.zip", _GOOD_ZIP))
        with pytest.raises(DownloadError, match=f"stopped after {half} bytes"):
            datasets.download("tt", "de-en")
        rest = _GOOD_ZIP[half:]
        raw_server.answers["/text.zip"] = (
            b"HTTP/1.1 206 Partial Content\r\nContent-Length: %d\r\n" % len(rest)
            + f"Content-Range: bytes {half}-{len(_GOOD_ZIP) - 1}/{len(_GOOD_ZIP)}\r\n\r\n".encode()
            + rest
        )
        assert datasets.references("tt", "de-en")[0][0] == "A sentence."
        assert f"Range: bytes={half}-" in raw_server.headers[-1]

    def test_part_that_is_a_folder(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        # Its size (a folder's, 4096 here) asks the server for a range past the end: HTTP 416,
        # which once meant "remove the .part and start over", forever.
        server = Server({"/text.zip": _GOOD_ZIP[:100]}).start()
        try:
            _use_registry(tmp_path, monkeypatch, _text_set(server.base, "/text.zip", _GOOD_ZIP))
            part = tmp_path / "cache" / "tt" / "raw" / "tt.text.zip.part"
            part.mkdir(parents=True)
            with pytest.raises(DownloadError, match="not a file; remove it"):
                datasets.download("tt", "de-en")
            assert len(server.requests) == 0
            run = run_main(["-t", "tt", "-l", "de-en", "--echo", "src"], monkeypatch)
            _one_error(run, str(part))
        finally:
            server.stop()

    def test_416_restarts_once(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        # A .part as large as the file: the server answers 416, parbleu starts over once.
        server = Server(dict(archives())).start()
        try:
            _use_registry(tmp_path, monkeypatch, registry(server.base, server.files))
            part = tmp_path / "cache" / "tt" / "raw" / "tt.text.zip.part"
            part.parent.mkdir(parents=True)
            part.write_bytes(b"x" * len(server.files["/text.zip"]))
            assert datasets.references("tt", "de-en")[0][0] == "A sentence."
            size = len(server.files["/text.zip"])
            assert server.requests == [("/text.zip", f"bytes={size}-"), ("/text.zip", None)]
        finally:
            server.stop()


_CORPUS = [
    "The quick brown fox jumps over the lazy dog.",
    "Der schnelle braune Fuchs springt über den faulen Hund.",
    "Machine translation systems are evaluated with BLEU and chrF.",
    "Ein Satz mit Zahlen: 12,5 % und 3.000 Euro!",
] * 20


def _train_model(path: Path) -> bytes:
    return train_spm_model(path, _CORPUS, vocab_size=60)


class TestModelDownloads:
    """A SentencePiece model cut short is never kept, nor its SHA-256 recorded."""

    def _registry(self, base: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
        reg = {"datasets": {}, "subsets": {},
               "spm_models": {"flores200": {"url": base + "/spm.model",
                                            "signature": "flores200"}}}  # fmt: skip
        _use_registry(tmp_path, monkeypatch, reg)
        return tmp_path / "cache" / "models" / "spm.model"

    def test_cut_short_without_length_is_not_pinned(
        self, raw_server: RawServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from parbleu.tokenizers.spm import TokenizerSPM

        good = _train_model(tmp_path / "good.model")
        path = self._registry(raw_server.base, tmp_path, monkeypatch)
        # HTTP/1.0 without Content-Length: the end of the connection is the end of the body.
        raw_server.answers["/spm.model"] = b"HTTP/1.0 200 OK\r\n\r\n" + good[: len(good) // 2]
        with pytest.raises(DownloadError, match=r"not usable.*nothing was kept"):
            TokenizerSPM("flores200")
        assert not path.exists() and not Path(str(path) + ".sha256").exists()
        assert not Path(str(path) + ".part").exists()
        # The whole model afterwards: accepted, and its own SHA-256 recorded.
        raw_server.answers["/spm.model"] = b"HTTP/1.0 200 OK\r\n\r\n" + good
        assert TokenizerSPM("flores200")("the fox")
        record = Path(str(path) + ".sha256").read_text().split()[0]
        assert record == datasets.file_digest(str(tmp_path / "good.model"), "sha256")

    def test_cut_short_chunked_model(
        self, raw_server: RawServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        good = _train_model(tmp_path / "good.model")
        self._registry(raw_server.base, tmp_path, monkeypatch)
        raw_server.answers["/spm.model"] = _chunked_cut(good)
        (tmp_path / "r").write_text("the fox\n")
        run = run_main(["r", "-i", "r", "-tok", "flores200"], monkeypatch, cwd=tmp_path)
        _one_error(run, raw_server.base + "/spm.model", "stopped after")

    @pytest.mark.parametrize("record", [b"", b"not a checksum\n", b"\xff\xfe\n", None])
    def test_damaged_record(
        self,
        record: bytes | None,
        raw_server: RawServer,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        from parbleu.tokenizers.spm import TokenizerSPM

        good = _train_model(tmp_path / "good.model")
        path = self._registry(raw_server.base, tmp_path, monkeypatch)
        raw_server.answers["/spm.model"] = b"HTTP/1.0 200 OK\r\n\r\n" + good
        path.parent.mkdir(parents=True)
        sha = Path(str(path) + ".sha256")
        if record is None:
            sha.mkdir()
        else:
            sha.write_bytes(record)
        with pytest.raises(DatasetError, match=r"\.sha256"):
            TokenizerSPM("flores200")
        assert not path.exists()


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    server = Server(archives()).start()
    _use_registry(tmp_path, monkeypatch, registry(server.base, server.files))
    try:
        yield server
    finally:
        server.stop()


def _echo(monkeypatch: pytest.MonkeyPatch, *argv: str) -> Run:
    return run_main(["-t", "ts", "-l", "de-en", "--echo", *argv], monkeypatch)


class TestTamperedCache:
    """Cache files changed behind parbleu's back: DatasetError naming the file, exit 1."""

    def _src(self, tmp_path: Path) -> Path:
        datasets.download("ts", "de-en")
        return tmp_path / "cache" / "ts" / "ts.de-en.src"

    def test_invalid_utf8(
        self, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        src = self._src(tmp_path)
        src.write_bytes(b"fine\nbad \xff byte\n")
        _one_error(_echo(monkeypatch, "src"), str(src), "line 2", "utf-8")
        with pytest.raises(DatasetError, match="line 2"):
            datasets.source("ts", "de-en")

    def test_invalid_utf8_in_references(
        self, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        datasets.download("ts", "de-en")
        ref = tmp_path / "cache" / "ts" / "ts.de-en.ref"
        ref.write_bytes(b"\xffx\n" * 5)
        (tmp_path / "hyp").write_text("x\n" * 5)
        run = run_main(["-t", "ts", "-l", "de-en", "-i", "hyp"], monkeypatch, cwd=tmp_path)
        _one_error(run, str(ref), "line 1")

    def test_a_folder(
        self, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        src = self._src(tmp_path)
        src.unlink()
        src.mkdir()
        _one_error(_echo(monkeypatch, "src"), str(src))

    @pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
    def test_unreadable(
        self, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        src = self._src(tmp_path)
        src.chmod(0)
        _one_error(_echo(monkeypatch, "src"), str(src))

    def test_empty(self, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        # SacreBLEU echoes 0 lines with exit 0; the cache always has a line per segment.
        src = self._src(tmp_path)
        src.write_bytes(b"")
        run = _echo(monkeypatch, "src")
        _one_error(run, str(src), "empty")
        assert run.out == b""
        # Deleting it, as the message says, writes it again.
        src.unlink()
        assert _echo(monkeypatch, "src").code == 0 and src.stat().st_size > 0

    def test_fields_of_different_lengths(
        self, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        src = self._src(tmp_path)
        src.write_text("only one line\n")
        _one_error(_echo(monkeypatch, "src", "ref"), str(src), "ts.de-en.ref has 5 lines")

    def test_raw_sgm_deleted_before_origlang(
        self, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        datasets.download("ts", "de-en")
        raw = tmp_path / "cache" / "ts" / "raw" / "sgm" / "newstest2019-deen-src.de.sgm"
        raw.unlink()
        _one_error(_echo(monkeypatch, "src", "--origlang", "de"), str(raw), "--origlang")
        (tmp_path / "hyp").write_text("x\n" * 5)
        run = run_main(
            ["-t", "ts", "-l", "de-en", "-i", "hyp", "--origlang", "de"], monkeypatch, cwd=tmp_path
        )
        _one_error(run, str(raw))
        run = run_main(["-t", "ts", "-l", "de-en", "-i", "hyp", "-d"], monkeypatch, cwd=tmp_path)
        _one_error(run, str(raw))

    def test_raw_xml_deleted(
        self, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        datasets.download("tx", "en-de")
        raw = tmp_path / "cache" / "tx" / "raw" / "pkg" / "xml" / "test.en-de.all.xml"
        raw.unlink()
        datasets.get_test_set("tx")._xml_cache.clear()
        run = run_main(["-t", "tx", "-l", "en-de", "--echo", "src", "--origlang", "en"],
                       monkeypatch)  # fmt: skip
        _one_error(run, str(raw))

    def test_archive_member_on_a_folder(
        self, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # The cache holds a folder where the archive has a file (and the other way round).
        raw = tmp_path / "cache" / "tt" / "raw"
        (raw / "txt" / "test.de").mkdir(parents=True)
        run = run_main(["-t", "tt", "-l", "de-en", "--echo", "src"], monkeypatch)
        _one_error(run, str(raw / "txt" / "test.de"), "in the way")
        assert (raw / "txt" / "test.de").is_dir()  # not ours to delete
        assert not (raw / "tt.text.zip").exists()  # nothing unpacked is recorded as done
        shutil.rmtree(raw / "txt")
        (raw / "txt").write_text("a file where the archive has a folder")
        run = run_main(["-t", "tt", "-l", "de-en", "--echo", "src"], monkeypatch)
        _one_error(run, str(raw / "txt"), "in the way")

    def test_truncated_gzip_raw_file(
        self, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        datasets.download("tg", "de-en")
        raw = tmp_path / "cache" / "tg" / "raw" / "tg.src.gz"
        raw.write_bytes(raw.read_bytes()[:-12])
        (tmp_path / "cache" / "tg" / "tg.de-en.src").unlink()
        run = run_main(["-t", "tg", "-l", "de-en", "--echo", "src"], monkeypatch)
        _one_error(run, "tg/de-en", "raw files")


def _xml_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, xml: bytes) -> Server:
    files = {"/x.tar.gz": tar_gz({"x/test.en-de.all.xml": xml})}
    server = Server(files).start()
    reg = {
        "datasets": {
            "tx": {
                "layout": "wmt-xml",
                "data": [server.base + "/x.tar.gz"],
                "md5": [md5(files["/x.tar.gz"])],
                "langpairs": {"en-de": ["x/test.en-de.all.xml"]},
                "refs": ["A"],
            }
        },
        "subsets": {},
        "spm_models": {},
    }
    _use_registry(tmp_path, monkeypatch, reg)
    return server


_XML = wmt_xml(("A",)).decode()
BAD_XML = {
    "doc without id": (_XML.replace('<doc id="doc1" ', "<doc "), "<doc> number 2", "'id'"),
    "doc without origlang": (
        _XML.replace('<doc id="doc2" origlang="en"', '<doc id="doc2"'),
        "doc2",
        "'origlang'",
    ),
    "hyp missing a segment": (
        _XML.replace('<seg id="3">Hyp sysY 0.3</seg>', ""),
        "doc0",
        "'sysY' has no segment id=3",
    ),
    "seg id not a number": (
        _XML.replace('<seg id="2">Source 1.2', '<seg id="two">Source 1.2'),
        "<src>",
        "'two'",
    ),
    "seg without id": (_XML.replace('<seg id="2">Source 1.2', "<seg>Source 1.2"), "<src>", "no id"),
    "not well-formed": (_XML[:-20], "cannot read", "test.en-de.all.xml"),
}


class TestMalformedXml:
    """Well-formed WMT XML missing what SacreBLEU indexes: one error naming file and document."""

    @pytest.mark.parametrize("case", list(BAD_XML))
    def test_api_and_cli(self, case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        xml, *words = BAD_XML[case]
        server = _xml_set(tmp_path, monkeypatch, xml.encode())
        try:
            with pytest.raises(DatasetError) as info:
                datasets.references("tx", "en-de")
            for w in words:
                assert w in str(info.value)
            assert "test.en-de.all.xml" in str(info.value)
            run = run_main(["-t", "tx", "-l", "en-de", "--echo", "src"], monkeypatch)
            _one_error(run, *words)
        finally:
            server.stop()

    def test_what_sacrebleu_never_reads_may_be_missing(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # Segment 2 of doc1 has no reference: SacreBLEU skips it, so a system may lack it too.
        xml = _XML.replace('<seg id="2">Hyp sysX 1.2</seg>', "")
        server = _xml_set(tmp_path, monkeypatch, xml.encode())
        try:
            assert len(datasets.field("tx", "en-de", "sysX")) == 8
        finally:
            server.stop()


class TestSubsetAndOriglang:
    """User filters: an invalid regular expression, a hypothesis file of the wrong length."""

    @pytest.mark.parametrize("subset", ["(", "[a-", "*x", "country:("])
    @pytest.mark.parametrize("test_set, pair", [("ts", "de-en"), ("tx", "en-de")])
    def test_invalid_subset_regex(
        self, subset: str, test_set: str, pair: str, served: Server,
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    ) -> None:  # fmt: skip
        datasets.download(test_set, pair)
        run = run_main(["-t", test_set, "-l", pair, "--echo", "src", "--subset", subset],
                       monkeypatch)  # fmt: skip
        _one_error(run, "--subset", "not a valid regular expression")
        n = len(datasets.source(test_set, pair))
        (tmp_path / "hyp").write_text("x\n" * n)
        run = run_main(["-t", test_set, "-l", pair, "-i", "hyp", "--subset", subset], monkeypatch,
                       cwd=tmp_path)  # fmt: skip
        _one_error(run, "--subset")

    @pytest.mark.parametrize("extra", [1, -1])
    def test_origlang_refuses_a_hypothesis_file_of_another_length(
        self, extra: int, served: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # Without --origlang the file is refused; with it SacreBLEU cuts it short silently.
        n = len(datasets.source("ts", "de-en"))
        (tmp_path / "hyp").write_text("Hallo Welt . [en]\n" * (n + extra))
        for filters in ([], ["--origlang", "de"], ["--subset", "politics"], ["-d"]):
            run = run_main(["-t", "ts", "-l", "de-en", "-i", "hyp", *filters], monkeypatch,
                           cwd=tmp_path)  # fmt: skip
            _one_error(run, "'hyp' has", f"{n + extra} lines", "does not truncate")

    def test_filter_subset_refuses_streams_of_another_length(self, served: Server) -> None:
        n = len(datasets.source("ts", "de-en"))
        with pytest.raises(LengthMismatchError, match=f"has {n + 1} lines.*{n} segments"):
            datasets.filter_subset([["x"] * (n + 1)], "ts", "de-en", "de")
        assert len(datasets.filter_subset([["x"] * n], "ts", "de-en", "de")[0]) == 3


class TestRegistryOverride:
    """A PARBLEU_DATASETS_REGISTRY file that is not a registry: the bad entry is named."""

    @pytest.mark.parametrize(
        "change, words",
        [
            ({"layout": None}, "'layout' is None"),
            ({"layout": "csv"}, "'layout' is 'csv'"),
            ({"data": "http://x"}, "'data'"),
            ({"data": []}, "'data'"),
            ({"md5": ["a", "b"]}, "'md5'"),
            ({"langpairs": {"de-en": 3}}, "language pair 'de-en'"),
            ({"langpairs": {"de-en": {"refs": ["A"]}}}, "language pair 'de-en'"),
            ({"langpairs": []}, "'langpairs'"),
            ({"refs": "A"}, "'refs'"),
        ],
    )
    def test_bad_entries(
        self, change: dict[str, object], words: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:  # fmt: skip
        reg = registry("http://127.0.0.1:9", archives())
        entry = reg["datasets"]["tt"]
        for k, v in change.items():
            if v is None:
                del entry[k]
            else:
                entry[k] = v
        _use_registry(tmp_path, monkeypatch, reg)
        with pytest.raises(DatasetError, match="test set 'tt'") as info:
            datasets.list_test_sets()
        assert words in str(info.value)
        for argv in (["--list"], ["-t", "tt", "-l", "de-en", "--echo", "src"]):
            _one_error(run_main(argv, monkeypatch), "test set 'tt'", words)

    @pytest.mark.parametrize(
        "key, value",
        [
            ("subsets", {"ts": {"doc": "nodash"}}),
            ("subsets", {"ts": ["x"]}),
            ("spm_models", {"flores200": {"url": "http://x"}}),
            ("subsets", []),
        ],
    )
    def test_bad_tables(
        self, key: str, value: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        reg = registry("http://127.0.0.1:9", archives())
        reg[key] = value
        _use_registry(tmp_path, monkeypatch, reg)
        with pytest.raises(DatasetError, match=key if isinstance(value, list) else "expected"):
            datasets.list_test_sets()
        run = run_main(["-t", "ts", "-l", "de-en", "--echo", "src"], monkeypatch)
        _one_error(run, os.environ[datasets.ENV_REGISTRY])
