"""Write tests/data/coco_cli/golden.json.xz: COCOEvalCap's scores of COCO caption JSON files.

Each case is an annotation file and a results file built from the shipped COCO captions
(``data/captions`` of the test data), scored by pycocoevalcap 1.2's ``COCOEvalCap`` as COCO's
own example runs it: pycocotools' ``COCO(ann)``, ``coco.loadRes(res)``,
``params["image_id"] = cocoRes.getImgIds()``, ``evaluate()`` (its PTB tokenizer and METEOR are
the jars: Java; SPICE is left out, it downloads models at run time). The cases (``CASES``) are
rebuilt by tests/cli/test_cli_coco_json.py from the same recipe (``build_case`` there) and
scored by ``parbleu --coco-refs ANN -i RES``: the numbers must be these, to the bit.

Needs pycocoevalcap, pycocotools and Java. Run: ``python tools/gen_coco_cli_golden.py``.
"""

from __future__ import annotations

import contextlib
import io
import json
import lzma
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[1]
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))
import testdata  # noqa: E402

OUT = ROOT / "tests/data/coco_cli/golden.json.xz"
CAP = "data/captions"
#: ``ann``: annotation file; ``drop_every``: every k-th image (annotation-file order) loses
#: its last caption (0: none), so images have different numbers of references; ``hyp``: a
#: ``{"image_id": [caption]}`` file of the derived data; ``first``: only its first N images
#: (``null``: all), in that file's order; ``str_ids``: image ids as strings; ``drop_hyp``: the
#: annotation file loses the captions equal to the image's hypothesis (leave-one-out).
CASES: list[dict[str, Any]] = [
    {"ann": f"{CAP}/coco-mini/captions_val2017.json", "drop_every": 0,
     "hyp": f"{CAP}/derived/val2017.mismatch.hyp.json", "first": None, "str_ids": False,
     "drop_hyp": False},
    {"ann": f"{CAP}/coco-mini/captions_val2017.json", "drop_every": 0,
     "hyp": f"{CAP}/derived/val2017.loo.hyp.json", "first": 40, "str_ids": False,
     "drop_hyp": True},
    {"ann": f"{CAP}/coco-mini/captions_train2017.json", "drop_every": 3,
     "hyp": f"{CAP}/derived/train2017.mismatch.hyp.json", "first": None, "str_ids": True,
     "drop_hyp": False},
]  # fmt: skip


def build_case(case: dict[str, Any], root: Path, out: Path) -> tuple[Path, Path]:
    """Write the case's annotation and results files into ``out``; return their paths."""
    ann = json.loads((root / case["ann"]).read_text(encoding="utf-8"))
    hyp = json.loads((root / case["hyp"]).read_text(encoding="utf-8"))
    key = str if case["str_ids"] else int
    order = list(dict.fromkeys(a["image_id"] for a in ann["annotations"]))
    if case["drop_every"]:
        dropped = set(order[:: case["drop_every"]])
        last = {a["image_id"]: k for k, a in enumerate(ann["annotations"])}
        ann["annotations"] = [
            a for k, a in enumerate(ann["annotations"])
            if not (a["image_id"] in dropped and last[a["image_id"]] == k)
        ]  # fmt: skip
    if case["drop_hyp"]:
        ann["annotations"] = [
            a for a in ann["annotations"] if [a["caption"]] != hyp.get(str(a["image_id"]))
        ]
    for a in ann["annotations"]:
        a["image_id"] = key(a["image_id"])
    for im in ann["images"]:
        im["id"] = key(im["id"])
    ids = list(hyp)[: case["first"]]
    res = [{"image_id": key(i), "caption": hyp[i][0]} for i in ids]
    ann_path, res_path = out / "ann.json", out / "res.json"
    ann_path.write_text(json.dumps(ann), encoding="utf-8")
    res_path.write_text(json.dumps(res), encoding="utf-8")
    return ann_path, res_path


def cocoevalcap(ann: Path, res: Path) -> dict[str, float]:
    """COCOEvalCap's corpus scores, as COCO's example runs it (SPICE left out)."""
    import pycocoevalcap.eval as orig_eval
    from pycocotools.coco import COCO

    class NoSpice:
        def compute_score(self, gts: Any, res: Any) -> tuple[float, list[float]]:
            return 0.0, [0.0] * len(gts)

        def method(self) -> str:
            return "SPICE"

    started: list[Any] = []

    class Meteor(orig_eval.Meteor):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            started.append(self.meteor_p)

    saved = orig_eval.Spice, orig_eval.Meteor
    orig_eval.Spice, orig_eval.Meteor = NoSpice, Meteor
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            coco = COCO(str(ann))
            coco_res = coco.loadRes(str(res))
            ev = orig_eval.COCOEvalCap(coco, coco_res)
            ev.params["image_id"] = coco_res.getImgIds()
            ev.evaluate()
    finally:
        orig_eval.Spice, orig_eval.Meteor = saved
        for p in started:  # the original's __del__ leaves the jar's pipes open
            p.kill()
            p.wait()
            for f in (p.stdin, p.stdout, p.stderr):
                if f is not None:
                    f.close()
    scores = dict(ev.eval)
    del scores["SPICE"]
    return {k: float(v) for k, v in scores.items()}


def main() -> None:
    root = testdata.root()
    out = []
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            ann, res = build_case(case, root, Path(tmp))
            out.append({**case, "scores": cocoevalcap(ann, res)})
            print(case["hyp"], out[-1]["scores"], file=sys.stderr)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(lzma.compress(json.dumps(out, indent=1).encode("utf-8") + b"\n"))


if __name__ == "__main__":
    main()
