"""COCO caption metrics: parbleu against pycocoevalcap 1.2 in one process, same inputs (issue 27).

    python benchmarks/bench_coco.py [--images 5000] [--runs 3] [--workers N] [--quick]
                                    [--no-meteor] [--end-to-end]

Needs pycocoevalcap 1.2 and Java (``pip install -e '.[coco]'``). The data: COCO-MINI's 79 val2017
images, 5 human captions each (tests/data, ``captions/coco-mini``), tokenized once by
pycocoevalcap's PTB tokenizer. That tokenization is timed on its own and left out of the
ratios: both libraries run the same Stanford jar on the same captions. Each image gives 5
leave-one-out evaluations (caption k against the other 4); these are repeated under new
image ids up to ``--images`` images. Both sides get the same tokenized dicts.

Timed, each against pycocoevalcap's class on the same dicts: CIDEr-D and ROUGE-L (parbleu's
core on all cores, then on one thread), BLEU-1..4, and METEOR: both drive the same
``meteor-1.5.jar``, timed on one started jar (only the protocols differ) and with a fresh jar
per call as ``COCOEvalCap`` uses it (start-up included). Every number is checked equal, bit
for bit, before the timings are printed. The times are the best of ``--runs`` (the machines
this runs on are shared: the best run is the one least disturbed).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from common import SHARED, median_time
from parbleu.flavors import coco

Captions = dict[int, list[str]]
#: COCO val2017 image ids are below this, so ``copy * ID_SPAN + image id`` is unique.
ID_SPAN = 1_000_000


def tokenized_captions() -> tuple[dict[int, list[str]], float]:
    """COCO-MINI val2017 captions per image, PTB-tokenized, and the seconds the jar took."""
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    path = SHARED / "data" / "captions" / "coco-mini" / "captions_val2017.json"
    anns: dict[int, list[dict[str, str]]] = {}
    for a in json.loads(path.read_text(encoding="utf-8"))["annotations"]:
        anns.setdefault(a["image_id"], []).append({"caption": a["caption"]})
    t0 = time.perf_counter()
    out: dict[int, list[str]] = PTBTokenizer().tokenize(anns)
    return out, time.perf_counter() - t0


def raw_captions() -> dict[int, list[str]]:
    """COCO-MINI val2017 captions per image, as written (5 per image)."""
    path = SHARED / "data" / "captions" / "coco-mini" / "captions_val2017.json"
    out: dict[int, list[str]] = {}
    for a in json.loads(path.read_text(encoding="utf-8"))["annotations"]:
        out.setdefault(a["image_id"], []).append(a["caption"])
    return {k: v[:5] for k, v in out.items() if len(v) >= 5}


def their_suite(gts: Captions, res: Captions, metrics: list[str]) -> dict[str, Any]:
    """pycocoevalcap's ``COCOEvalCap.evaluate`` on dicts: the jar tokenizer, then the scorers.

    The same steps as ``COCOEvalCap.evaluate`` (SPICE aside), without pycocotools' objects.
    """
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.meteor.meteor import Meteor
    from pycocoevalcap.rouge.rouge import Rouge
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    tok = PTBTokenizer()
    g = tok.tokenize({k: [{"caption": c} for c in v] for k, v in gts.items()})
    r = tok.tokenize({k: [{"caption": c} for c in v] for k, v in res.items()})
    out: dict[str, Any] = {}
    scorers: list[tuple[str, Any]] = [("Bleu", lambda: Bleu(4))]
    scorers += [("METEOR", Meteor), ("ROUGE_L", Rouge), ("CIDEr", Cider)]
    for name, make in scorers:
        if name not in metrics:
            continue
        scorer = make()
        if name == "Bleu":
            score, _ = scorer.compute_score(g, r, verbose=0)
            out.update({f"Bleu_{i + 1}": s for i, s in enumerate(score)})
        else:
            out[name], _ = scorer.compute_score(g, r)
        del scorer  # pycocoevalcap stops METEOR's jar in __del__
    return out


def end_to_end(images: int, runs: int, with_meteor: bool) -> tuple[str, float, float, str]:
    """The whole suite as users run it, raw captions in, both sides checked equal first."""
    import contextlib
    import io

    gts, res = evaluation_set(raw_captions(), images)
    metrics = ["Bleu", "ROUGE_L", "CIDEr"] + (["METEOR"] if with_meteor else [])
    got: dict[str, Any] = {}
    times: dict[str, list[float]] = {"theirs": [], "ours": []}
    cpu: dict[str, list[float]] = {"theirs": [], "ours": []}
    sides = {
        "theirs": lambda: their_suite(gts, res, metrics),
        "ours": lambda: coco.evaluate(gts, res, metrics=metrics)[0],
    }
    load = [os.getloadavg()[0]]
    for _ in range(runs):
        for key, fn in sides.items():
            with contextlib.redirect_stdout(io.StringIO()):
                c0, t0 = _cpu(), time.perf_counter()
                got[key] = fn()
                times[key].append(time.perf_counter() - t0)
                cpu[key].append(_cpu() - c0)
    load.append(os.getloadavg()[0])
    assert got["theirs"].keys() == got["ours"].keys()
    for k in got["theirs"]:
        assert same_bits(got["theirs"][k], got["ours"][k]), (k, got["theirs"][k], got["ours"][k])
    what = "BLEU, METEOR, ROUGE-L, CIDEr-D" if with_meteor else "BLEU, ROUGE-L, CIDEr-D"
    print(f"end to end ({what}, from raw captions, {images} images): every score equal")
    t_c, o_c = min(cpu["theirs"]), min(cpu["ours"])
    print(
        f"  wall: pycocoevalcap {min(times['theirs']):.3f} s, parbleu {min(times['ours']):.4f} s "
        f"({min(times['theirs']) / min(times['ours']):.1f}x); CPU (user+sys, children "
        f"included): {t_c:.3f} s, {o_c:.4f} s ({t_c / o_c:.1f}x); best of {runs}, load "
        f"average {load[0]:.1f} before, {load[1]:.1f} after"
    )
    how = "native PTB" + (", METEOR's jar on both sides" if with_meteor else ", no Java")
    return (f"end to end: tokenize + {what}", min(times["theirs"]), min(times["ours"]), how)


def _cpu() -> float:
    """CPU seconds of this process and its waited-for children (the jar), user + system."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def evaluation_set(caps: dict[int, list[str]], images: int) -> tuple[Captions, Captions]:
    """``(gts, res)`` of ``images`` images: leave-one-out evaluations, repeated under new ids."""
    units = [(img, c[k], c[:k] + c[k + 1 :]) for k in range(5) for img, c in sorted(caps.items())]
    gts: Captions = {}
    res: Captions = {}
    for i in range(images):
        img, hyp, refs = units[i % len(units)]
        new_id = (i // len(caps)) * ID_SPAN + img  # units go image by image, k by k
        gts[new_id], res[new_id] = refs, [hyp]
    return gts, res


def same_bits(a: Any, b: Any) -> bool:
    """Equal to the bit: every float (or array element) has the same IEEE-754 pattern."""
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return x.shape == y.shape and x.tobytes() == y.tobytes()


def check(name: str, theirs: tuple[Any, Any], ours: tuple[Any, Any]) -> None:
    """Assert that the corpus score and every per-image score are the same bits."""
    assert same_bits(theirs[0], ours[0]), (name, theirs[0], ours[0])
    assert same_bits(theirs[1], ours[1]), name
    print(f"{name}: {float(np.ravel(ours[0])[-1])!r} (and every per-image score) equal")


def main() -> None:
    """Run the benchmark and print a table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--images", type=int, default=5_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, default=None, help="parbleu's threads (default all)")
    ap.add_argument(
        "--quick", action="store_true", help="CI size: 400 images, 1 run, no fresh-jar METEOR"
    )
    ap.add_argument("--no-meteor", action="store_true", help="leave METEOR (the jar) out")
    ap.add_argument(
        "--end-to-end",
        action="store_true",
        help="only the end-to-end suite without METEOR (tokenization + BLEU, ROUGE-L, CIDEr-D)",
    )
    args = ap.parse_args()
    if args.quick:
        args.images, args.runs = 400, 1
    from pycocoevalcap.bleu.bleu import Bleu as TheirBleu
    from pycocoevalcap.cider.cider import Cider as TheirCider
    from pycocoevalcap.meteor.meteor import Meteor as TheirMeteor
    from pycocoevalcap.rouge.rouge import Rouge as TheirRouge

    if args.end_to_end:
        row = end_to_end(args.images, args.runs, with_meteor=False)
        print(f"| {row[0]} | {row[3]} | {row[1]:.3f} | {row[2]:.4f} | {row[1] / row[2]:.1f}x |")
        return
    caps, t_ptb = tokenized_captions()
    gts, res = evaluation_set(caps, args.images)
    workers = -1 if args.workers is None else args.workers
    rows: list[tuple[str, float, float, str]] = []

    def side_by_side(
        name: str,
        theirs: Callable[[], Any],
        ours: Callable[[], Any],
        ours_one: Callable[[], Any] | None = None,
    ) -> tuple[float, float, float]:
        """Best seconds of theirs, ours (all cores) and ours (one thread) over the runs,
        alternated run by run so that a change of load on the machine bills all alike;
        results checked."""
        got: dict[str, Any] = {}
        times: dict[str, list[float]] = {"theirs": [], "ours": [], "one": []}
        sides = {"theirs": theirs, "ours": ours, **({"one": ours_one} if ours_one else {})}

        def timed(key: str, fn: Callable[[], Any]) -> float:
            return median_time(lambda: got.__setitem__(key, fn()), 1)

        for _ in range(args.runs):
            for key, fn in sides.items():
                times[key].append(timed(key, fn))
        check(name, got["theirs"], got["ours"])
        if ours_one is not None:
            check(f"{name} (workers=1)", got["theirs"], got["one"])
        best = {k: min(v) if v else 0.0 for k, v in times.items()}
        return best["theirs"], best["ours"], best["one"] or best["ours"]

    cider = side_by_side(
        "CIDEr-D",
        lambda: TheirCider().compute_score(gts, res),
        lambda: coco.Cider(workers=workers).compute_score(gts, res),
        lambda: coco.Cider(workers=1).compute_score(gts, res),
    )
    rouge = side_by_side(
        "ROUGE-L",
        lambda: TheirRouge().compute_score(gts, res),
        lambda: coco.Rouge(workers=workers).compute_score(gts, res),
        lambda: coco.Rouge(workers=1).compute_score(gts, res),
    )
    bleu = side_by_side(
        "BLEU-1..4",
        lambda: TheirBleu(4).compute_score(gts, res, verbose=0),
        lambda: coco.Bleu(4).compute_score(gts, res, verbose=0),
    )
    rows += [
        ("CIDEr-D + ROUGE-L", cider[0] + rouge[0], cider[1] + rouge[1], "all cores"),
        ("CIDEr-D + ROUGE-L", cider[0] + rouge[0], cider[2] + rouge[2], "workers=1"),
        ("CIDEr-D", cider[0], cider[1], "all cores"),
        ("ROUGE-L", rouge[0], rouge[1], "all cores"),
        ("BLEU-1..4", bleu[0], bleu[1], "one thread (Python)"),
    ]
    rows.append(end_to_end(args.images, args.runs, with_meteor=False))
    if not args.no_meteor:
        rows.append(end_to_end(args.images, args.runs, with_meteor=True))
        warm, start = meteor(gts, res, TheirMeteor, args.runs, fresh=not args.quick)
        rows.append(("METEOR, one started jar", *warm, "SCORE lines pipelined"))
        if start is not None:
            rows.append(("METEOR, a fresh jar each (start-up included)", *start, "same jar file"))

    print(
        f"\n{len(gts)} images (COCO-MINI val2017, leave-one-out, 4 references each), "
        f"PTB-tokenized once ({t_ptb:.2f} s, the same jar for both, not in the ratios); "
        f"all numbers equal to the bit; best of {args.runs} runs\n"
    )
    print("| metric | parbleu | pycocoevalcap 1.2 (s) | parbleu (s) | pycocoevalcap / parbleu |")
    print("|---|---|---:|---:|---:|")
    for name, t_theirs, t_ours, how in rows:
        print(f"| {name} | {how} | {t_theirs:.3f} | {t_ours:.4f} | {t_theirs / t_ours:.1f}x |")


def meteor(
    gts: Captions, res: Captions, their_class: Any, runs: int, fresh: bool
) -> tuple[tuple[float, float], tuple[float, float] | None]:
    """METEOR's best seconds, theirs and ours: on one started jar, and with a fresh jar.

    Started jar: pycocoevalcap's ``compute_score`` (one round trip per image) and parbleu's
    (the ``SCORE`` lines pipelined) talk to the *same* jar process, warmed up by two full
    calls (the JVM compiles as it goes), alternately: only the protocols differ. Fresh jar:
    each side's own scorer, started for the call, as ``COCOEvalCap`` does (the start-up, which
    loads the paraphrase table, dominates). Alternated run by run, so that a change of load on
    the machine bills both alike. Best of ``runs`` (at least 5 on the started jar).
    """
    got: dict[str, Any] = {}
    times: dict[str, list[float]] = {"theirs": [], "ours": [], "theirs0": [], "ours0": []}

    def call(key: str, scorer: Any) -> float:
        return median_time(lambda: got.__setitem__(key, scorer.compute_score(gts, res)), 1)

    for _ in range(runs if fresh else 0):
        for key, make in (("theirs0", their_class), ("ours0", coco.Meteor)):
            scorer = make()
            times[key].append(call(key, scorer))
            if hasattr(scorer, "close"):
                scorer.close()
            del scorer  # pycocoevalcap stops its jar in __del__
    if fresh:
        check("METEOR (fresh jars)", got["theirs0"], got["ours0"])
    ours = coco.Meteor()
    theirs = their_class.__new__(their_class)  # pycocoevalcap's methods on our jar process
    theirs.meteor_p, theirs.lock = ours.meteor_p, ours.lock
    for _ in range(2):
        ours.compute_score(gts, res)
    for _ in range(max(runs, 5)):
        times["theirs"].append(call("theirs", theirs))
        times["ours"].append(call("ours", ours))
    ours.close()
    check("METEOR (one started jar)", got["theirs"], got["ours"])
    best = {k: min(v) for k, v in times.items() if v}
    return (best["theirs"], best["ours"]), (best["theirs0"], best["ours0"]) if fresh else None


if __name__ == "__main__":
    main()
