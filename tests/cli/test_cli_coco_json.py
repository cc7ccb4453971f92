"""``parbleu --coco-refs ANN.json -i RES.json``: COCO's caption JSON on the command line.

Numbers: ``COCOEvalCap``'s on the same JSON (pycocotools' ``COCO``/``loadRes``, the image ids
of the results), from tests/data/coco_cli/golden.json.xz (``tools/gen_coco_cli_golden.py``)
for the light install, and live where pycocoevalcap and Java are installed. Bad files: one
line naming the file and the image id or entry, exit code 1.
"""

from __future__ import annotations

import importlib.util
import json
import lzma
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from cli_support import run_main

from helpers import REPO, SHARED, is_required, require, requires_shared
from parbleu.cli.coco_json import read_coco
from parbleu.metrics.registry import make_metric

GOLDEN = REPO / "tests" / "data" / "coco_cli" / "golden.json.xz"
CASES: list[dict[str, Any]] = json.loads(lzma.decompress(GOLDEN.read_bytes()))
#: ``-m`` name -> COCOEvalCap's key.
KEYS = {"cider": "CIDEr", "rouge-l": "ROUGE_L", "meteor": "METEOR"}


def _tool() -> Any:
    """tools/gen_coco_cli_golden.py, loaded without putting tools/ on sys.path."""
    spec = importlib.util.spec_from_file_location(
        "gen_coco_cli_golden", REPO / "tools" / "gen_coco_cli_golden.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _java() -> None:
    require("pycocoevalcap", extra="coco")
    if shutil.which("java") is None:
        if is_required("java"):
            pytest.fail("PARBLEU_REQUIRE=java but no `java` on PATH")
        pytest.skip("no `java` on PATH (METEOR and COCOEvalCap's PTB tokenizer are Java)")


def _case(k: int, tmp: Path) -> tuple[str, str]:
    ann, res = _tool().build_case(CASES[k], SHARED, tmp)
    return str(ann), str(res)


def test_the_golden_cases_are_what_the_tool_makes() -> None:
    tool = _tool()
    assert [{k: v for k, v in c.items() if k != "scores"} for c in CASES] == tool.CASES
    assert all(set(c["scores"]) >= {"Bleu_4", "METEOR", "ROUGE_L", "CIDEr"} for c in CASES)


@requires_shared
@pytest.mark.parametrize("k", range(len(CASES)))
@pytest.mark.parametrize("name", ["cider", "rouge-l"])
def test_cocoevalcap_numbers(
    k: int, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, res = _case(k, tmp_path)
    want = CASES[k]["scores"][KEYS[name]]
    refs, systems = read_coco(ann, [res])
    assert make_metric(name).corpus_score(systems[res], refs).score == want  # the same bits
    run = run_main(["--coco-refs", ann, "-i", res, "-m", name, "-w", "12"], monkeypatch)
    assert run.code == 0, run.err
    assert json.loads(run.out)["score"] == round(want, 12)


@requires_shared
def test_images_with_fewer_references(tmp_path: Path) -> None:
    # Case 2 drops the last caption of every third image: streams hold None there.
    ann, res = _case(2, tmp_path)
    refs, systems = read_coco(ann, [res])
    assert len(refs) == 5 and sum(r is None for r in refs[4]) == 27
    assert all(r is not None for s in refs[:4] for r in s)
    assert len(systems[res]) == 80


@requires_shared
def test_order_of_the_results_does_not_matter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, res = _case(0, tmp_path)
    rows = json.loads(Path(res).read_text(encoding="utf-8"))
    random.Random(1).shuffle(rows)
    shuffled = tmp_path / "shuffled.json"
    shuffled.write_text(json.dumps(rows), encoding="utf-8")
    a = run_main(["--coco-refs", ann, "-i", res, "-m", "cider", "-w", "16"], monkeypatch)
    b = run_main(["--coco-refs", ann, "-i", str(shuffled), "-m", "cider", "-w", "16"], monkeypatch)
    assert a.code == b.code == 0 and json.loads(a.out)["score"] == json.loads(b.out)["score"]


@requires_shared
def test_several_systems(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ann, res = _case(0, tmp_path)
    rows = json.loads(Path(res).read_text(encoding="utf-8"))
    first = {r["image_id"]: r["caption"] for r in rows}
    # A second system: every caption moved to the next image.
    ids = list(first)
    other = [{"image_id": i, "caption": first[ids[k - 1]]} for k, i in enumerate(ids)]
    res2 = tmp_path / "res2.json"
    res2.write_text(json.dumps(other), encoding="utf-8")
    run = run_main(
        ["--coco-refs", ann, "-i", res, str(res2), "-m", "cider", "rouge-l", "--paired-bs",
         "--paired-bs-n", "100"], monkeypatch,
    )  # fmt: skip
    assert run.code == 0, run.err
    table = json.loads(run.out)
    # The paired table's score is the resampled rows' mean (sum / count): the last bit may
    # differ from pycocoevalcap's np.mean; the plain table below is COCOEvalCap's own.
    assert table[0]["CIDEr"]["score"] == pytest.approx(CASES[0]["scores"]["CIDEr"], rel=1e-12)
    assert table[1]["ROUGE_L"]["p_value"] is not None
    run = run_main(
        ["--coco-refs", ann, "-i", res, str(res2), "-m", "cider", "-w", "14"], monkeypatch
    )
    assert json.loads(run.out)[0]["CIDEr"] == f"{CASES[0]['scores']['CIDEr']:.14f}"
    run = run_main(["compare", "--coco-refs", ann, "-i", res, str(res2), "-m", "cider",
                    "--n", "100"], monkeypatch)  # fmt: skip
    assert run.code == 0, run.err
    assert "CIDEr" in run.out.decode()
    page = tmp_path / "report.html"
    run = run_main(
        ["report", "--coco-refs", ann, "-i", res, str(res2), "-m", "rouge-l", "-o", str(page)],
        monkeypatch,
    )
    assert run.code == 0, run.err
    assert "ROUGE_L" in page.read_text(encoding="utf-8")


@requires_shared
def test_live_cocoevalcap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The golden numbers are pycocoevalcap's today (jars: Java), METEOR included."""
    _java()
    require("pycocotools", extra="coco")
    ann, res = _case(2, tmp_path)
    live = _tool().cocoevalcap(Path(ann), Path(res))
    assert live == CASES[2]["scores"]
    refs, systems = read_coco(ann, [res])
    assert make_metric("meteor").corpus_score(systems[res], refs).score == live["METEOR"]
    run = run_main(["--coco-refs", ann, "-i", res, "-m", "meteor", "-w", "12"], monkeypatch)
    assert run.code == 0, run.err
    assert json.loads(run.out)["score"] == round(live["METEOR"], 12)


ANN = {"images": [{"id": 2}, {"id": 1}], "annotations": [
    {"image_id": 1, "caption": "a dog runs"}, {"image_id": 1, "caption": "a brown dog"},
    {"image_id": 2, "caption": "two cats sleep"}]}  # fmt: skip
RES = [{"image_id": 1, "caption": "a dog"}, {"image_id": 2, "caption": "cats"}]


@pytest.mark.parametrize(
    ("ann", "res", "message"),
    [
        (ANN, "[1, ", r"results file '.*res\.json': not JSON \(line 1, column 5"),
        ("{", RES, r"annotation file '.*ann\.json': not JSON"),
        (ANN, {"annotations": RES}, r"expected a list of \{\"image_id\", \"caption\"\}"),
        (ANN, [], "holds no result"),
        (ANN, [{"image_id": 1}], r"\[0\] \(image_id 1\): no caption"),
        (ANN, [{"image_id": 1, "caption": 5}], r'"caption" is a number, not a string'),
        (ANN, [{"caption": "a"}], r'\[0\]: no "image_id"'),
        (ANN, [{"image_id": True, "caption": "a"}], r'"image_id" is a boolean'),
        (ANN, [{"image_id": 1.0, "caption": "a"}], r'"image_id" is a number'),
        (ANN, ["a dog"], r"\[0\]: expected an object"),
        (ANN, [*RES, {"image_id": 1, "caption": "x"}], r"image_id 1 has two results"),
        (ANN, [*RES, {"image_id": 9, "caption": "x"}],
         r"image_id 9 has no reference caption in annotation file '.*ann\.json'"),
        (ANN, [{"image_id": "1", "caption": "x"}], r"image_id '1' has no reference caption"),
        (RES, RES, r"expected COCO's caption annotations.*found a list"),
        ({"images": []}, RES, r'an object without an "annotations" list'),
        ({"annotations": [{"image_id": 1, "caption": None}]}, RES, r'"caption" is null'),
        ({"annotations": []}, RES, "holds no caption"),
    ],
)  # fmt: skip
def test_bad_files(
    ann: Any, res: Any, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = []
    for name, doc in (("ann.json", ann), ("res.json", res)):
        p = tmp_path / name
        p.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
        paths.append(str(p))
    run = run_main(["--coco-refs", paths[0], "-i", paths[1], "-m", "cider"], monkeypatch)
    assert run.code == 1
    assert len(run.err_lines) == 1, run.err
    assert run.err_lines[0].startswith("parbleu: error: ")
    assert re.search(message, run.err_lines[0]), run.err_lines[0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["REF", "-i", "{res}"], "give no reference file before -i"),
        ([], "give the results files with -i"),
        (["-i", "{res}", "{other}"], r"other\.json': no result for image_id 2 \(results file"),
        (["-i", "{other}", "{res}"], r"res\.json': image_id 2 is not in results file"),
        (["-i", "{res}", "-nr", "2"], "--num-refs is for text reference files"),
        (["-i", "{res}", "{res}"], "is given twice|are the same file"),
        (["-i", "{missing}"], r"results file '.*missing\.json': no such file"),
    ],
)
def test_bad_command_lines(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"ann": ANN, "res": RES, "other": RES[:1]}
    paths = {"missing": str(tmp_path / "missing.json")}
    for name, doc in files.items():
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(doc), encoding="utf-8")
        paths[name] = str(p)
    args = ["--coco-refs", paths["ann"], *(a.format(**paths) for a in argv), "-m", "cider"]
    run = run_main(args, monkeypatch)
    assert run.code != 0 and len(run.err_lines) == 1, run.err
    assert re.search(message, run.err_lines[0]), run.err_lines[0]


def test_the_image_order_is_the_annotation_files(tmp_path: Path) -> None:
    ann, res = tmp_path / "ann.json", tmp_path / "res.json"
    ann.write_text(json.dumps(ANN), encoding="utf-8")
    res.write_text(json.dumps(RES), encoding="utf-8")
    refs, systems = read_coco(str(ann), [str(res)])
    # "images" lists 2 before 1; image 2 has one reference, image 1 two.
    assert refs == [["two cats sleep", "a dog runs"], [None, "a brown dog"]]
    assert systems == {str(res): ["cats", "a dog"]}


@requires_shared
@pytest.mark.parametrize("k", range(len(CASES)))
def test_cocoevalcap_bleu(k: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``-m bleu-coco``: COCOEvalCap's Bleu_1..Bleu_4, one score each, to the bit."""
    ann, res = _case(k, tmp_path)
    want = [CASES[k]["scores"][f"Bleu_{n}"] for n in range(1, 5)]
    refs, systems = read_coco(ann, [res])
    cols = make_metric("bleu-coco").columns()
    assert [c.title for c in cols] == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"]
    assert [c.corpus_score(systems[res], refs).score for c in cols] == want  # the same bits
    run = run_main(["--coco-refs", ann, "-i", res, "-m", "bleu-coco", "cider", "-w", "12"],
                   monkeypatch)  # fmt: skip
    assert run.code == 0, run.err
    out = json.loads(run.out)
    assert [o["name"] for o in out] == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "CIDEr"]
    assert [o["score"] for o in out[:4]] == [round(w, 12) for w in want]


@pytest.mark.parametrize(
    ("argv", "surface"),
    [
        (["-i", "{res}", "{res2}", "--paired-bs"], "--paired-bs"),
        (["-i", "{res}", "--confidence"], "--confidence"),
        (["compare", "-i", "{res}", "{res2}"], "compare"),
    ],
)
def test_bleu_coco_is_not_resampled(
    argv: list[str], surface: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = {}
    for name, doc in (("ann", ANN), ("res", RES), ("res2", RES[::-1])):
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(doc), encoding="utf-8")
        paths[name] = str(p)
    args = [a.format(**paths) for a in argv]
    if args[0] == "compare":
        args = ["compare", "--coco-refs", paths["ann"], *args[1:]]
    else:
        args = ["--coco-refs", paths["ann"], *args]
    run = run_main([*args, "-m", "bleu-coco"], monkeypatch)
    assert run.code == 1 and len(run.err_lines) == 1, run.err
    assert f"{surface}: metric Bleu_4 lacks the 'resample' capability" in run.err_lines[0]
