"""``--scores``: imported segment scores beside BLEU in ``parbleu``, ``compare`` and ``report``.

The main command prints their mean with a provenance signature and puts them in the
``--paired-bs``/``--paired-ar`` tables without changing BLEU's numbers; every bad input is one
line naming ``--scores NAME``, the file and the line.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from cli_support import REPO, run_main

import parbleu
from parbleu.significance import PairedTest, compare_all

SAMPLE = REPO / "python" / "parbleu" / "sample"
REF = str(SAMPLE / "ref.A.de")
NAMES = ("Online-W", "Facebook-AI", "VolcTrans-GLAT")
HYPS = [str(SAMPLE / f"{n}.de") for n in NAMES]


def _lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").split("\n")[:-1]


def _fake(hyp: str) -> list[float]:
    """A fake learned metric: chrF per sentence / 100."""
    return [float(s) / 100 for s in parbleu.CHRF().sentence_scores(_lines(hyp), [_lines(REF)])]


def _score_files(tmp_path: Path) -> list[str]:
    """One plain file of fake scores per system, in -i order."""
    out = []
    for name, hyp in zip(NAMES, HYPS):
        p = tmp_path / f"{name}.comet"
        p.write_text("".join(f"{x!r}\n" for x in _fake(hyp)), encoding="utf-8")
        out.append(str(p))
    return out


def test_imported_scores_resample_with_bleu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _score_files(tmp_path)
    argv = ["compare", REF, "-i", *HYPS, "-m", "bleu", "--scores", f"FAKE={','.join(files)}",
            "--higher-is-better", "FAKE", "--n", "200", "-f", "json"]  # fmt: skip
    run = run_main(argv, monkeypatch)
    assert run.code == 0, run.err
    data = json.loads(run.out)
    systems = {n: _lines(h) for n, h in zip(NAMES, HYPS)}
    fake = parbleu.ImportedScores(
        "FAKE",
        {n: [float(x) for x in _lines(f)] for n, f in zip(NAMES, files)},
        higher_is_better=True,
        hypotheses=systems,
        files=files,
    )
    api = compare_all([parbleu.BLEU(), fake], systems, [_lines(REF)], n=200, seed=12345)
    assert json.dumps(data["metrics"], sort_keys=True) == json.dumps(
        api.to_dict()["metrics"], sort_keys=True
    )


def test_main_command_prints_the_mean_with_provenance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _score_files(tmp_path)
    argv = [REF, "-i", HYPS[0], "-m", "bleu", "chrf", "-w", "4", "-f", "json"]
    plain = run_main(argv, monkeypatch)
    extra = ["--scores", f"FAKE={files[0]}", "--higher-is-better", "FAKE",
             "--scores-info", "FAKE=chrF:sentence|v1"]  # fmt: skip
    run = run_main([*argv, *extra], monkeypatch)
    assert (plain.code, run.code) == (0, 0), run.err
    before, after = json.loads(plain.out), json.loads(run.out)
    assert after[:2] == before  # BLEU's and chrF's objects are unchanged
    fake = after[2]
    assert fake["name"] == "FAKE"
    assert fake["score"] == round(statistics.fmean(_fake(HYPS[0])), 4)
    assert fake["signature"] == (
        f"name:FAKE|direction:higher|info:chrF%3Asentence%7Cv1|files:Online-W.comet|"
        f"version:parbleu-{parbleu.__version__}"
    )
    text = run_main([*argv[:-2], "-f", "text", *extra, "-sh"], monkeypatch)
    assert text.code == 0
    line = text.out.decode().splitlines()[-1]
    assert line.startswith("FAKE|n:FAKE|d:higher|i:chrF%3Asentence%7Cv1|f:Online-W.comet|v:")


def test_confidence_of_a_negative_mean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # SacreBLEU shows an interval only for a mean above 0; an imported mean may be negative.
    neg = tmp_path / "neg.txt"
    neg.write_text("".join(f"{-x!r}\n" for x in _fake(HYPS[0])), encoding="utf-8")
    argv = [REF, "-i", HYPS[0], "-m", "bleu", "--confidence", "-cin", "100", "-w", "4"]
    plain = run_main([*argv, "-f", "json"], monkeypatch)
    extra = ["--scores", f"NEG={neg}", "--lower-is-better", "NEG", "-f", "json"]
    run = run_main([*argv, *extra], monkeypatch)
    assert (plain.code, run.code) == (0, 0), run.err
    bleu, imported = json.loads(run.out)
    assert bleu == json.loads(plain.out)
    assert imported["score"] < 0 and imported["confidence_mean"] < 0
    assert imported["confidence"].startswith("μ = -0.")


@pytest.mark.parametrize(("test", "count"), [("--paired-bs", "-pbsn"), ("--paired-ar", "-parn")])
def test_paired_tables_keep_bleu_and_add_the_column(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test: str, count: str
) -> None:
    files = _score_files(tmp_path)
    argv = [REF, "-i", *HYPS, "-m", "bleu", test, count, "200", "-f", "json"]
    plain = run_main(argv, monkeypatch)
    run = run_main(
        [*argv, "--scores", f"FAKE={','.join(files)}", "--lower-is-better", "FAKE"], monkeypatch
    )
    assert (plain.code, run.code) == (0, 0), run.err
    before, after = json.loads(plain.out), json.loads(run.out)
    assert [{k: v for k, v in row.items() if k != "FAKE"} for row in after] == before
    # The column is the API's PairedTest with the same draws (drawn once per system).
    systems = [(n, _lines(h)) for n, h in zip(NAMES, HYPS)]
    fake = parbleu.ImportedScores(
        "FAKE",
        {n: _fake(h) for n, h in zip(NAMES, HYPS)},
        higher_is_better=False,
        hypotheses=dict(systems),
    )
    systems[0] = (f"Baseline: {HYPS[0]}", systems[0][1])
    _, api = PairedTest(systems, {"FAKE": fake}, None, test[-2:], 200)()
    for row, res in zip(after, api["FAKE"]):
        assert row["FAKE"]["score"] == res.score  # type: ignore[union-attr]
        assert row["FAKE"].get("p_value") == getattr(res, "p_value", None)


# --- one clear line per bad input, on every command -----------------------------------------
def _write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def _plain(tmp_path: Path, name: str, bad: dict[int, str] | None = None, n: int = 500) -> str:
    rows = ["0.5"] * n
    for line, value in (bad or {}).items():
        rows[line - 1] = value
    return _write(tmp_path, name, "".join(r + "\n" for r in rows))


def _tsv(tmp_path: Path, systems: tuple[str, ...], edit: str = "") -> str:
    rows = [f"{Path(h).name}\t{i}\t0.5" for h in HYPS[:2] for i in range(500)]
    rows = [r for r in rows if r.split("\t")[0] in systems]
    if edit == "duplicate":
        rows[3] = rows[2]
    elif edit == "missing":
        del rows[3]
    elif edit == "unknown":
        rows.append("Nope.de\t0\t0.5")
    return _write(tmp_path, "keyed.tsv", "".join(r + "\n" for r in rows))


def _case(tmp_path: Path, case: str) -> tuple[list[str], str]:
    """``(--scores arguments, the expected message)`` of one bad input."""
    two = (Path(HYPS[0]).name, Path(HYPS[1]).name)
    hib = ["--higher-is-better", "X"]
    ok = _plain(tmp_path, "ok.txt")
    if case == "unreadable":
        return [
            "--scores",
            "X=/nonexistent/x.txt",
            *hib,
        ], "--scores X: /nonexistent/x.txt: cannot read"
    if case in ("text", "nan", "inf"):
        value = {"text": "abc", "nan": "nan", "inf": "-inf"}[case]
        f = _plain(tmp_path, "bad.txt", {7: value})
        what = "is not a number" if case == "text" else "is not a finite number"
        return ["--scores", f"X={ok},{f}", *hib], f"--scores X: {f}:7: {value!r} {what}"
    if case == "missing value":
        f = _plain(tmp_path, "bad.txt", {9: "None"})
        return ["--scores", f"X={f},{ok}", *hib], f"--scores X: {f}:9: missing score"
    if case == "count":
        f = _plain(tmp_path, "short.txt", n=499)
        return ["--scores", f"X={ok},{f}", *hib], (
            f"--scores X: {f}: 499 scores, but -i file {HYPS[1]} has 500 lines"
        )
    if case == "empty":
        f = _write(tmp_path, "empty.txt", "")
        return ["--scores", f"X={ok},{f}", *hib], f"--scores X: {f}: no scores (empty file)"
    if case == "duplicate":
        f = _tsv(tmp_path, two, "duplicate")
        return ["--scores", f"X={f}", *hib], (
            f"--scores X: {f}:4: duplicate score for system 'Online-W.de' segment 2"
        )
    if case == "missing key":
        f = _tsv(tmp_path, two, "missing")
        return ["--scores", f"X={f}", *hib], (
            f"--scores X: {f}: system 'Online-W.de' has no score for segment(s) 3 (its scores "
            "start on line 1)"
        )
    if case == "unknown system":
        f = _tsv(tmp_path, two, "unknown")
        return ["--scores", f"X={f}", *hib], (
            f"--scores X: {f}:1001: system 'Nope.de' is not one of the -i files"
        )
    if case == "missing system":
        f = _tsv(tmp_path, two[:1])
        return [
            "--scores",
            f"X={f}",
            *hib,
        ], f"--scores X: no scores for -i file(s) {HYPS[1]} in {f}"
    if case == "files":
        return ["--scores", f"X={ok}", *hib], (
            "--scores X: 1 file(s) of plain scores (no system names) for 2 -i file(s)"
        )
    if case == "mixed":
        f = _tsv(tmp_path, two)
        return ["--scores", f"X={ok},{f}", *hib], (
            f"--scores X: {ok} holds one system's scores (no system names) but {f} is keyed"
        )
    if case == "no direction":
        return ["--scores", f"X={ok},{ok}"], "--scores X: give exactly one of --higher-is-better X"
    if case == "both directions":
        return ["--scores", f"X={ok},{ok}", *hib, "--lower-is-better", "X"], (
            "--scores X: give exactly one of --higher-is-better X or --lower-is-better X"
        )
    if case == "direction only":
        return ["--lower-is-better", "Y"], "--lower-is-better Y: no --scores Y=PATH was given"
    if case == "info only":
        return ["--scores-info", "Y=model"], "--scores-info Y: no --scores Y=PATH was given"
    if case == "syntax":
        return ["--scores", "X", *hib], "--scores: 'X' is not NAME=PATH[,PATH...]"
    if case == "name taken":
        return ["--scores", f"bleu={ok},{ok}", "--higher-is-better", "bleu"], (
            "--scores bleu: 'bleu' is already the name of a metric of -m"
        )
    raise AssertionError(case)


CASES = ("unreadable", "text", "nan", "inf", "missing value", "count", "empty", "duplicate",
         "missing key", "unknown system", "missing system", "files", "mixed", "no direction",
         "both directions", "direction only", "info only", "syntax", "name taken")  # fmt: skip


@pytest.mark.parametrize("command", ["parbleu", "compare", "report"])
@pytest.mark.parametrize("case", CASES)
def test_each_bad_input_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, case: str
) -> None:
    extra, message = _case(tmp_path, case)
    head = {
        "parbleu": [REF, "-i", *HYPS[:2], "-m", "bleu"],
        "compare": ["compare", REF, "-i", *HYPS[:2], "-m", "bleu"],
        "report": ["report", REF, "-i", *HYPS[:2], "-m", "bleu", "-o", str(tmp_path / "r.html")],
    }[command]
    run = run_main([*head, *extra], monkeypatch)
    err = run.err.decode()
    assert run.code != 0
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert message in err, err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("option", [["--sentence-level"], ["--origlang", "de"], ["--subset", "x"]])
def test_main_command_refuses_what_imported_scores_cannot_serve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: list[str]
) -> None:
    ok = _plain(tmp_path, "ok.txt")
    argv = [REF, "-i", HYPS[0], "--scores", f"X={ok}", "--higher-is-better", "X", *option]
    run = run_main(argv, monkeypatch)
    assert run.code != 0
    assert f"--scores: not with {option[0]}" in run.err.decode()


def test_hypotheses_on_standard_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _score_files(tmp_path)
    stdin = Path(HYPS[0]).read_bytes()
    argv = [REF, "-m", "bleu", "-w", "4", "--scores", f"FAKE={files[0]}", "--higher-is-better",
            "FAKE", "-f", "json"]  # fmt: skip
    run = run_main(argv, monkeypatch, stdin=stdin)
    assert run.code == 0, run.err
    assert json.loads(run.out)[1]["score"] == round(statistics.fmean(_fake(HYPS[0])), 4)
