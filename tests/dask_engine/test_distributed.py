"""Distributed scores equal in-memory scores, bit for bit: files, Parquet, bags, dataframes."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from dask_support import require_dask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parbleu
from helpers import SHARED, read_lines, requires_shared
from parbleu.cli import main

require_dask()

import pandas as pd  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from parbleu import distributed as dist  # noqa: E402
from parbleu.streaming import FileFormatError  # noqa: E402

WMT = "data/wmt21"
HYP = f"{WMT}/system-outputs/newstest2021.en-de.hyp.Online-W.de"
HYP_B = f"{WMT}/system-outputs/newstest2021.en-de.hyp.Facebook-AI.de"
REF_A = f"{WMT}/references/newstest2021.en-de.ref.A.de"
REF_C = f"{WMT}/references/newstest2021.en-de.ref.C.de"


def text(rel: str) -> list[str]:
    """Lines as the files are read for scoring (rstripped)."""
    return [line.rstrip() for line in read_lines(rel)]


def metrics() -> dict[str, Any]:
    return {
        "bleu": parbleu.BLEU(),
        "chrf": parbleu.CHRF(),
        "chrf++": parbleu.CHRF(word_order=2),
        "ter": parbleu.TER(),
    }


def assert_same(got: dict[str, Any], used: dict[str, Any], hyps: list[str], streams: Any) -> None:
    for name, fresh in metrics().items():
        want = fresh.corpus_score(hyps, streams)
        assert str(got[name]) == str(want)
        assert got[name].score == want.score
        assert used[name].get_signature().format() == fresh.get_signature().format()


def shard(lines: list[str], cuts: list[int], folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    bounds = [0, *cuts, len(lines)]
    for k, (lo, hi) in enumerate(zip(bounds, bounds[1:])):
        (folder / f"{k:03d}.{name}").write_text(
            "".join(x + "\n" for x in lines[lo:hi]), encoding="utf-8"
        )


def assert_shards_as_in_memory(
    client: Any,
    tmp: Path,
    columns: tuple[list[str], list[str], list[str]],
    cuts: list[int],
    sources: tuple[str, list[str]],
    **options: Any,
) -> None:
    """The hypotheses and two reference streams cut into shard files at ``cuts`` (folders hyp/,
    a/ and c/ under ``tmp``), scored by ``score_files`` from ``sources`` (paths or globs under
    ``tmp``): every metric's score and signature are the ones it gets in memory."""
    hyps, ra, rc = columns
    for lines, name in ((hyps, "hyp"), (ra, "a"), (rc, "c")):
        shard(lines, cuts, tmp / name, name)
    used = metrics()
    hyp_src, ref_srcs = sources
    refs = [str(tmp / r) for r in ref_srcs]
    got = dist.score_files(
        str(tmp / hyp_src), refs, list(used.values()), scheduler=client, **options
    )
    assert_same(dict(zip(used, got.values())), used, hyps, [ra, rc])


@requires_shared
@pytest.mark.parametrize("part_lines", [97, 1 << 20])
def test_wmt21_shards_equal_in_memory(client: Any, tmp_path: Path, part_lines: int) -> None:
    columns = text(HYP), text(REF_A), text(REF_C)
    cuts = [0, 300, 300, 301, 777]  # an empty first shard and an empty middle shard
    sources = "hyp/*.hyp", ["a", "c/*.c"]  # globs and a folder
    # Two references: TER's reference lengths are averages (floats), summed in order.
    assert_shards_as_in_memory(
        client, tmp_path, columns, cuts, sources, part_lines=part_lines, block_lines=50
    )


@requires_shared
def test_one_file_many_ranges_tabs_and_gzip(client: Any, tmp_path: Path) -> None:
    import gzip

    hyps, ra, rc = text(HYP), text(REF_A), text(REF_C)
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("".join(f"{a}\t{c}\n" for a, c in zip(ra, rc)), encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("\n".join(hyps), encoding="utf-8")  # no final newline
    used = metrics()
    got = dist.score_files(
        str(hyp), str(tsv), list(used.values()), scheduler=client, num_refs=2, part_lines=64
    )
    assert_same(dict(zip(used, got.values())), used, hyps, [ra, rc])
    gz = tmp_path / "hyp.gz"
    with gzip.open(gz, "wt", encoding="utf-8") as f:
        f.write("\n".join(hyps) + "\n")
    got = dist.score_files(str(gz), str(tsv), "bleu", scheduler=client, num_refs=2)
    assert str(got["bleu"]) == str(parbleu.BLEU().corpus_score(hyps, [ra, rc]))


@requires_shared
def test_one_huge_partition_in_small_blocks(client: Any, tmp_path: Path) -> None:
    hyps, ra = text(HYP) * 20, text(REF_A) * 20
    (tmp_path / "h").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r").write_text("\n".join(ra) + "\n", encoding="utf-8")
    got = dist.score_files(
        str(tmp_path / "h"),
        str(tmp_path / "r"),
        ["bleu", "chrf"],
        scheduler=client,
        part_lines=10**9,
        block_lines=128,
    )
    assert str(got["bleu"]) == str(parbleu.BLEU().corpus_score(hyps, [ra]))
    assert str(got["chrf"]) == str(parbleu.CHRF().corpus_score(hyps, [ra]))


def write_parquet(path: Path, table: pa.Table, row_group_size: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, row_group_size=row_group_size)


@requires_shared
def test_parquet_dataframe_bag(client: Any, tmp_path: Path) -> None:
    import dask.bag as db
    import dask.dataframe as dd

    hyps, ra, rc = text(HYP), text(REF_A), text(REF_C)
    rc_none: list[str | None] = [None if i % 7 == 0 else r for i, r in enumerate(rc)]
    table = pa.table({"id": list(range(len(hyps))), "mt": hyps, "a": ra, "c": rc_none})
    write_parquet(tmp_path / "ds" / "part-0.parquet", table.slice(0, 400), 150)
    write_parquet(tmp_path / "ds" / "part-1.parquet", table.slice(400, 0), 150)  # no rows
    write_parquet(tmp_path / "ds" / "part-2.parquet", table.slice(400), 250)
    streams = [ra, rc_none]
    used = metrics()
    got = dist.score_parquet(
        tmp_path / "ds", "mt", ["a", "c"], list(used.values()), scheduler=client, block_lines=99
    )
    assert_same(dict(zip(used, got.values())), used, hyps, streams)

    df = dd.read_parquet(str(tmp_path / "ds"))
    used = metrics()
    got = dist.score_dataframe(df, "mt", ["a", "c"], list(used.values()), scheduler=client)
    assert_same(dict(zip(used, got.values())), used, hyps, streams)

    pdf = pd.DataFrame({"mt": hyps, "a": ra, "k": range(len(hyps))})
    ddf = dd.from_pandas(pdf, npartitions=5)
    ddf = ddf[ddf.k % 3 != 1]  # uneven partitions
    kept = [i for i in range(len(hyps)) if i % 3 != 1]
    got = dist.score_dataframe(ddf, "mt", "a", ["bleu", "ter"], scheduler=client)
    sub_h, sub_r = [hyps[i] for i in kept], [ra[i] for i in kept]
    assert str(got["bleu"]) == str(parbleu.BLEU().corpus_score(sub_h, [sub_r]))
    assert str(got["ter"]) == str(parbleu.TER().corpus_score(sub_h, [sub_r]))

    empty = ddf[ddf.k < 0]
    with pytest.raises(parbleu.EmptyInputError, match="nothing to score"):
        dist.score_dataframe(empty, "mt", "a", scheduler=client)

    bag = db.from_sequence(list(zip(hyps, zip(ra, rc))), npartitions=6)
    got = dist.score_bag(bag, ["chrf", "bleu"], scheduler=client)
    assert str(got["chrf"]) == str(parbleu.CHRF().corpus_score(hyps, [ra, rc]))
    assert str(got["bleu"]) == str(parbleu.BLEU().corpus_score(hyps, [ra, rc]))


@requires_shared
def test_sentence_scores_column(client: Any, tmp_path: Path) -> None:
    import dask.dataframe as dd

    hyps, ra = text(HYP), text(REF_A)
    table = pa.table({"mt": hyps, "ref": ra})
    write_parquet(tmp_path / "in" / "a.parquet", table.slice(0, 500), 128)
    write_parquet(tmp_path / "in" / "b.parquet", table.slice(500), 1000)
    out = tmp_path / "out"
    written = dist.sentence_scores_parquet(
        tmp_path / "in", str(out), "mt", "ref", "chrf", scheduler=client, block_lines=77
    )
    assert written == [str(out / "a.parquet"), str(out / "b.parquet")]
    assert sorted(os.listdir(out)) == ["a.parquet", "b.parquet"]  # no temporary file left
    col = pa.concat_tables([pq.read_table(p) for p in written]).column("chrf").to_pylist()
    want = parbleu.CHRF().sentence_scores(hyps, [ra])
    assert col == want.tolist()

    df = dd.read_parquet(str(tmp_path / "in"))
    scored = dist.with_sentence_scores(df, "mt", "ref", "bleu").compute(scheduler=client)
    want = parbleu.BLEU(effective_order=True).sentence_scores(hyps, [ra])
    assert scored["bleu"].tolist() == want.tolist()
    assert scored["mt"].tolist() == hyps


def test_mbr_by_source(client: Any) -> None:
    import dask.dataframe as dd

    rows = []
    groups: dict[str, list[str]] = {}
    for s in range(30):
        for c in range(1 + s % 5):
            cand = " ".join([*["the", "cat", "sat"][: 1 + (c + s) % 3], str(c % 2), "mat"])
            rows.append((f"src{s}", cand))
            groups.setdefault(f"src{s}", []).append(cand)
    ddf = dd.from_pandas(pd.DataFrame(rows, columns=["src", "cand"]), npartitions=4)
    got = dist.mbr_by_source(ddf, "src", "cand", "chrf").compute(scheduler=client)
    got = got.set_index("src")
    assert len(got) == len(groups)
    for src, cands in groups.items():
        res = parbleu.mbr(cands, "chrf")
        assert got.loc[src, "cand"] == res.candidate
        assert got.loc[src, "utility"] == res.utilities[res.best_index]
        assert got.loc[src, "n_candidates"] == len(cands)


@requires_shared
def test_segment_stats_feed_significance(client: Any) -> None:
    import dask.dataframe as dd

    from parbleu.significance import paired_bootstrap

    a, b, ref = text(HYP), text(HYP_B), text(REF_A)
    ddf = dd.from_pandas(pd.DataFrame({"A": a, "B": b, "ref": ref}), npartitions=3)
    rows = dist.segment_stats(ddf, ["A", "B"], "ref", parbleu.BLEU(), scheduler=client)
    assert (rows["A"] == parbleu.BLEU().extract_stats(a, [ref])).all()
    got = paired_bootstrap(parbleu.BLEU(references=[ref]), rows, n=200)
    want = paired_bootstrap(parbleu.BLEU(references=[ref]), {"A": a, "B": b}, n=200)
    assert [(r.p_value, r.delta) for r in got] == [(r.p_value, r.delta) for r in want]


_words = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", ".", "Straße", "雨", "42"])
_line = st.lists(_words, max_size=8).map(" ".join)


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    pairs=st.lists(st.tuples(_line, _line, _line), min_size=1, max_size=60),
    cuts=st.lists(st.integers(0, 60), max_size=4),
    part_lines=st.integers(1, 40),
)
def test_random_shards(
    client: Any, tmp_path_factory: Any, pairs: list[Any], cuts: list[int], part_lines: int
) -> None:
    tmp = tmp_path_factory.mktemp("shards")
    hyps, ra, rc = (list(x) for x in zip(*pairs))
    cuts = sorted(min(c, len(hyps)) for c in cuts)
    sources = "hyp", ["a", "c"]
    assert_shards_as_in_memory(
        client, tmp, (hyps, ra, rc), cuts, sources, part_lines=part_lines, block_lines=3
    )


@requires_shared
def test_bad_input_names_file_and_line(client: Any, tmp_path: Path) -> None:
    ra = text(REF_A)
    shard(ra, [500], tmp_path / "h", "h")
    shard(ra, [500], tmp_path / "r", "r")
    bad = tmp_path / "h" / "001.h"
    data = bad.read_bytes().split(b"\n")
    data[40] = b"caf\xe9"
    bad.write_bytes(b"\n".join(data))
    with pytest.raises(FileFormatError, match=r"001\.h'?: line 41: not valid utf-8"):
        dist.score_files(str(tmp_path / "h"), str(tmp_path / "r"), scheduler=client, part_lines=16)
    short = tmp_path / "h" / "001.h"
    short.write_text("x\n" * 10, encoding="utf-8")
    with pytest.raises(parbleu.LengthMismatchError, match=r"001\.h.* ends after 10 lines"):
        dist.score_files(str(tmp_path / "h"), str(tmp_path / "r"), scheduler=client)
    (tmp_path / "h" / "002.h").write_text("x\n", encoding="utf-8")
    with pytest.raises(parbleu.LengthMismatchError, match="gives 2 files but hypotheses give 3"):
        dist.score_files(str(tmp_path / "h"), str(tmp_path / "r"), scheduler=client)
    tsv = tmp_path / "r.tsv"
    tsv.write_text("a\tb\n" * 5 + "c\n" + "a\tb\n", encoding="utf-8")
    (tmp_path / "seven").write_text("a\n" * 7, encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"r\.tsv'?: line 6: expected 2 tab-separated"):
        dist.score_files(
            str(tmp_path / "seven"), str(tsv), scheduler=client, num_refs=2, part_lines=3
        )
    table = pa.table({"mt": ["a", None, "c"], "ref": ["a", "b", "c"]})
    write_parquet(tmp_path / "p" / "x.parquet", table, 2)
    with pytest.raises(FileFormatError, match=r"x\.parquet'?: row 2: column 'mt' is null"):
        dist.score_parquet(tmp_path / "p", "mt", "ref", scheduler=client)
    with pytest.raises(parbleu.InvalidOptionError, match="column 'nope': not in Parquet file"):
        dist.score_parquet(tmp_path / "p", "nope", "ref", scheduler=client)
    with pytest.raises(parbleu.InvalidOptionError, match="no file matches"):
        dist.score_files(str(tmp_path / "*.none"), "r", scheduler=client)
    with pytest.raises(parbleu.InvalidOptionError, match="without references="):
        dist.score_files(str(tsv), str(tsv), parbleu.BLEU(references=[["a"]]), scheduler=client)
    with pytest.raises(parbleu.InvalidOptionError, match="local:N"):
        dist.score_files(str(tsv), str(tsv), scheduler="local:0")
    out = tmp_path / "out"
    with pytest.raises(FileFormatError, match="row 2"):
        dist.sentence_scores_parquet(tmp_path / "p", str(out), "mt", "ref", scheduler=client)
    assert not out.exists()  # nothing half-written; the directory it made is gone too


def test_cli_field_count_errors_as_in_memory(
    client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --num-refs file with a short line: exit 17 and the in-memory message, on a cluster."""
    (tmp_path / "h").write_text("a b\nc d\ne f\n", encoding="utf-8")
    (tmp_path / "r").write_text("a b\tx\nc d\ne f\ty\n", encoding="utf-8")
    h, r = str(tmp_path / "h"), str(tmp_path / "r")
    want = f"parbleu: error: reference file {r!r}: line 2: expected 2 tab-separated fields"
    assert main([r, "-nr", "2", "-i", h]) == 17
    assert capsys.readouterr().err.startswith(want + " (--num-refs), but found 1")
    address = client.scheduler.address
    assert main([r, "-nr", "2", "-i", h, "--scheduler", address]) == 17
    assert capsys.readouterr().err.startswith(want + " (--num-refs), but found 1")
    argv = ["distributed", "--hyp", h, "--ref", r, "-nr", "2", "--scheduler", address]
    assert main(argv) == 17
    assert capsys.readouterr().err.startswith(want + " (--num-refs), but found 1")


@requires_shared
def test_cli_scheduler_and_command(
    client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = str(SHARED / HYP), str(SHARED / REF_A)
    address = client.scheduler.address
    assert main([ref, "-i", hyp, "-m", "bleu", "chrf", "ter", "-f", "text"]) == 0
    want = capsys.readouterr().out
    argv = [ref, "-i", hyp, "-m", "bleu", "chrf", "ter", "-f", "text", "--scheduler", address]
    assert main(argv) == 0
    assert capsys.readouterr().out == want
    argv = ["distributed", "--hyp", hyp, "--ref", ref, "-m", "bleu", "chrf", "ter", "-f", "text"]
    assert main([*argv, "--scheduler", address, "--part-lines", "100"]) == 0
    assert capsys.readouterr().out == want

    table = pa.table({"mt": text(HYP), "ref": text(REF_A)})
    write_parquet(tmp_path / "ds" / "p.parquet", table, 300)
    pq_argv = ["distributed", "--parquet", str(tmp_path / "ds"), "--hyp-column", "mt"]
    pq_argv += ["--ref-column", "ref", "--scheduler", address]
    assert main([*pq_argv, "-m", "bleu", "chrf", "ter", "-f", "text"]) == 0
    assert capsys.readouterr().out == want
    assert main([*pq_argv, "--sentence-out", str(tmp_path / "o")]) == 0
    assert capsys.readouterr().out == str(tmp_path / "o" / "p.parquet") + "\n"

    assert main([ref, "-i", hyp, hyp, "--scheduler", address]) != 0
    assert "--scheduler: give exactly one hypothesis file" in capsys.readouterr().err
    assert main(["distributed", "--hyp", hyp, "--scheduler", address]) != 0
    assert "give --hyp GLOB and --ref GLOB" in capsys.readouterr().err
    assert main(["distributed", "--hyp", hyp, "--ref", ref, "--scheduler", "local:x"]) != 0
    assert "local:N" in capsys.readouterr().err


def test_progress_fed_by_the_cluster(client: Any, tmp_path: Path) -> None:
    (tmp_path / "h").write_text("a b c\n" * 500, encoding="utf-8")
    seen: list[tuple[int, int]] = []
    dist.score_files(
        str(tmp_path / "h"),
        str(tmp_path / "h"),
        scheduler=client,
        part_lines=100,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert [d for d, _ in seen] == [100, 200, 300, 400, 500]
    assert {t for _, t in seen} == {500}
    err = io.StringIO()
    sys.stderr, saved = err, sys.stderr
    try:
        dist.score_files(str(tmp_path / "h"), str(tmp_path / "h"), scheduler=client, progress=True)
    finally:
        sys.stderr = saved
    assert "lines" in err.getvalue()


def test_utf16_files_are_one_range(client: Any, tmp_path: Path) -> None:
    # "\n" is not the byte 0x0a alone in UTF-16: such files are not cut into byte ranges.
    lines = ["ä b c .", "d e", "雨 x y"] * 20
    for name in ("h", "r"):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-16")
    got = dist.score_files(
        str(tmp_path / "h"),
        str(tmp_path / "r"),
        ["bleu", "chrf"],
        scheduler=client,
        encoding="utf-16",
        part_lines=7,
    )
    assert str(got["bleu"]) == str(parbleu.BLEU().corpus_score(lines, [lines]))
    assert str(got["chrf"]) == str(parbleu.CHRF().corpus_score(lines, [lines]))


@pytest.mark.parametrize("body", [b"", b"a\n", b"a", b"a\nb\nc\nd\n", b"a\nb\nc\nd", b"\n\n\n\n\n"])
@pytest.mark.parametrize("every", [1, 2, 4, 5])
def test_line_index(tmp_path: Path, body: bytes, every: int) -> None:
    from parbleu.distributed.sources import line_index

    path = tmp_path / "f"
    path.write_bytes(body)
    starts, n = line_index(str(path), every)
    lines = body.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    assert n == len(lines)
    want = [sum(len(x) + 1 for x in lines[:k]) for k in range(0, len(lines), every)]
    assert starts == want


@requires_shared
def test_arrow_dataset_of_feather_files(client: Any, tmp_path: Path) -> None:
    import pyarrow.dataset as ds
    import pyarrow.feather as feather

    hyps, ra = text(HYP), text(REF_A)
    (tmp_path / "ds").mkdir()
    table = pa.table({"mt": hyps, "ref": ra})
    for k, (lo, hi) in enumerate([(0, 10), (10, 10), (10, 600), (600, len(hyps))]):
        feather.write_feather(table.slice(lo, hi - lo), tmp_path / "ds" / f"{k}.arrow")
    data = ds.dataset(str(tmp_path / "ds"), format="ipc")
    got = dist.score_arrow(data, "mt", "ref", ["bleu", "ter"], scheduler=client, block_lines=64)
    assert str(got["bleu"]) == str(parbleu.BLEU().corpus_score(hyps, [ra]))
    assert str(got["ter"]) == str(parbleu.TER().corpus_score(hyps, [ra]))
    bad = pa.table({"mt": ["a", "b", None], "ref": ["a", "b", "c"]})
    feather.write_feather(bad, tmp_path / "ds" / "9.arrow")
    data = ds.dataset(str(tmp_path / "ds"), format="ipc")
    with pytest.raises(FileFormatError, match=r"9\.arrow'\): row 3: column 'mt' is null"):
        dist.score_arrow(data, "mt", "ref", scheduler=client)
