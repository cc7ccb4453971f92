"""COCO caption metrics: parbleu against pycocoevalcap 1.2 in one process (issues 27, 36).

    python benchmarks/bench_coco.py [--images 5000] [--runs 3] [--workers N] [--quick]
                                    [--no-meteor] [--end-to-end] [--distinct-lines]

Needs pycocoevalcap 1.2 and Java (``pip install -e '.[coco]'``). The data: COCO-MINI's 79 val2017
images, 5 human captions each (tests/data, ``captions/coco-mini``). Each image gives 5
leave-one-out evaluations (caption k against the other 4); these are repeated under new image
ids up to ``--images`` images (``--distinct-lines``: each repeat's captions get a made-up word
of their own, so that no line repeats; parbleu does once-per-distinct-line work once).

**End to end, as users run it** (issue 36's goal; ``--end-to-end`` runs only this): raw captions
in; pycocoevalcap's ``COCOEvalCap.evaluate`` steps (SPICE aside): its ``PTBTokenizer`` (the
Stanford jar), then ``Bleu(4)``, ``Meteor()`` (a fresh METEOR jar, started with the other
scorers before the first is computed, start-up included), ``Rouge()``, ``Cider()``; against
``parbleu.flavors.coco.evaluate(gts, res)`` with its defaults (the core's PTB tokenizer, BLEU,
native METEOR with its data loaded in the run, ROUGE-L, CIDEr-D: no Java). The native METEOR's
parsed data are dropped before each run, so each run loads them as a new process does: from the
compiled paraphrase table in the on-disk cache, which one load before the runs fills where it
is empty (``PARBLEU_METEOR_CACHE=off``: parsed from pycocoevalcap's ``paraphrase-en.gz``).
Every corpus and per-image score is checked equal first: to the bit for BLEU, ROUGE-L and
CIDEr-D, and for METEOR to the bit or within 2 ulps (Java's ``Math.pow`` against the C
library's, docs/captioning.md); the METEOR scores that differ in their last bits are counted.
Wall and CPU time (user + system of this process and of its waited-for children: the jars'
JVMs) are printed, with the load average, and the native METEOR's data load on its own.
With ``--no-meteor``, the same without METEOR (then neither side needs Java for scoring).

**Per metric** (the default also runs these): on captions PTB-tokenized once by the jar (timed
on its own, left out of the ratios), each against pycocoevalcap's class on the same dicts:
CIDEr-D and ROUGE-L (parbleu's core on all cores, then on one thread), BLEU-1..4, and METEOR:
pycocoevalcap's scorer on a started, warmed-up jar against parbleu's native scorer with its
data loaded, and a fresh jar (start-up included) against a fresh native scorer (data load
included). Checked equal as above before the timings are printed. The times are the best of
``--runs``, the two sides alternated run by run (the machines this runs on are shared: the
best run is the one least disturbed).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from common import SHARED, median_time
from parbleu.flavors import coco
from parbleu.metrics.caption import _meteor_native

Captions = dict[int, list[str]]
#: ``(eval, imgToEval)``: the corpus scores and the per-image scores, as ``COCOEvalCap`` keeps them.
Suite = tuple[dict[str, Any], dict[Any, dict[str, Any]]]
#: COCO val2017 image ids are below this, so ``copy * ID_SPAN + image id`` is unique.
ID_SPAN = 1_000_000
#: The most METEOR may differ from the jar: Java's ``Math.pow`` and the C library's ``pow``
#: differ by one ulp on some inputs, which moves a score by at most 2 (docs/captioning.md).
METEOR_ULPS = 2


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


def their_suite(gts: Captions, res: Captions, metrics: list[str]) -> Suite:
    """pycocoevalcap's ``COCOEvalCap.evaluate`` on dicts, step by step, SPICE aside.

    As the original: the jar tokenizer on the references, then on the hypotheses; all scorers
    made first (so METEOR's jar starts, and loads its tables, while BLEU is computed); then each
    scorer in turn, the results kept by ``COCOEvalCap``'s own ``setEval`` and
    ``setImgToEvalImgs``. The scorers are dropped at the end (the original stops METEOR's jar
    in ``__del__``), so its JVM is waited for inside the timing.
    """
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.eval import COCOEvalCap
    from pycocoevalcap.meteor.meteor import Meteor
    from pycocoevalcap.rouge.rouge import Rouge
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    ev = COCOEvalCap.__new__(COCOEvalCap)  # its constructor wants pycocotools objects
    ev.evalImgs, ev.eval, ev.imgToEval = [], {}, {}
    tokenizer = PTBTokenizer()
    g = tokenizer.tokenize({k: [{"caption": c} for c in v] for k, v in gts.items()})
    r = tokenizer.tokenize({k: [{"caption": c} for c in v] for k, v in res.items()})
    makers: list[tuple[str, Callable[[], Any], Any]] = [
        ("Bleu", lambda: Bleu(4), ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"]),
        ("METEOR", Meteor, "METEOR"),
        ("ROUGE_L", Rouge, "ROUGE_L"),
        ("CIDEr", Cider, "CIDEr"),
    ]
    scorers = [(make(), method) for name, make, method in makers if name in metrics]
    for scorer, method in scorers:
        score, scores = scorer.compute_score(g, r)
        if isinstance(method, list):
            for sc, scs, m in zip(score, scores, method):
                ev.setEval(sc, m)
                ev.setImgToEvalImgs(scs, g.keys(), m)
        else:
            ev.setEval(score, method)
            ev.setImgToEvalImgs(scores, g.keys(), method)
    ev.setEvalImgs()
    del scorers, scorer  # pycocoevalcap stops METEOR's jar (kill, wait) in __del__
    gc.collect()
    return ev.eval, ev.imgToEval


def forget_meteor_data() -> None:
    """Drop the native METEOR's data parsed earlier in this process, so the next use loads it
    again as a new process would (a file cache on disk, where there is one, stays)."""
    _meteor_native._cache.clear()
    gc.collect()


def first_meteor_load() -> str:
    """Load the native METEOR's data once before the timed runs, so that the compiled
    paraphrase table is in its on-disk cache (where there is one) as for every user after
    their first run; say how long it took and where the cache is."""
    forget_meteor_data()
    c0, t0 = cpu_seconds(), time.perf_counter()
    _meteor_native.load_scorer()
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    cache = _meteor_native.cache_path(_meteor_native.meteor_dir() / _meteor_native.PARAPHRASE)
    where = f"the cache {cache}" if cache is not None else "no cache (PARBLEU_METEOR_CACHE=off)"
    return f"one METEOR data load took {wall:.3f} s wall, {cpu:.3f} s CPU ({where})"


class LoadTimer:
    """Times each call of the native METEOR's ``load_scorer`` made inside a timed run.

    ``Meteor()`` looks ``load_scorer`` up in its module when it is made, so the wrapper sees
    the data load of the very call users make; it adds two clock reads.
    """

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.original = _meteor_native.load_scorer

    def __enter__(self) -> LoadTimer:
        def timed(*args: Any, **kwargs: Any) -> Any:
            c0, t0 = cpu_seconds(), time.perf_counter()
            try:
                return self.original(*args, **kwargs)
            finally:
                self.wall.append(time.perf_counter() - t0)
                self.cpu.append(cpu_seconds() - c0)

        _meteor_native.load_scorer = timed  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        _meteor_native.load_scorer = self.original  # type: ignore[assignment]


def end_to_end(
    images: int, runs: int, with_meteor: bool, distinct: bool = False
) -> tuple[str, float, float, str]:
    """The whole suite as users run it, raw captions in, both sides checked equal first."""
    import contextlib
    import io

    gts, res = evaluation_set(raw_captions(), images, distinct)
    metrics = (
        ["Bleu", "METEOR", "ROUGE_L", "CIDEr"] if with_meteor else ["Bleu", "ROUGE_L", "CIDEr"]
    )
    got: dict[str, Suite] = {}
    times: dict[str, list[float]] = {"theirs": [], "ours": [], "load": []}
    cpu: dict[str, list[float]] = {"theirs": [], "ours": [], "load": []}
    sides: dict[str, Callable[[], Suite]] = {
        "theirs": lambda: their_suite(gts, res, metrics),
        # As users call it: the defaults are these four metrics, the native tokenizer and METEOR.
        "ours": (lambda: coco.evaluate(gts, res))
        if with_meteor
        else (lambda: coco.evaluate(gts, res, metrics=metrics)),
    }
    if with_meteor:
        first = first_meteor_load()
    load = [os.getloadavg()]
    for _ in range(runs):
        for key, fn in sides.items():
            forget_meteor_data()  # parbleu's METEOR loads its data in each run, as in a new process
            with contextlib.redirect_stdout(io.StringIO()), LoadTimer() as loads:
                c0, t0 = cpu_seconds(), time.perf_counter()
                got[key] = fn()
                times[key].append(time.perf_counter() - t0)
                cpu[key].append(cpu_seconds() - c0)
            if key == "ours" and with_meteor:
                times["load"].append(sum(loads.wall))
                cpu["load"].append(sum(loads.cpu))
    load.append(os.getloadavg())
    differ, worst = check_suites(got["theirs"], got["ours"])
    what = "BLEU, METEOR, ROUGE-L, CIDEr-D" if with_meteor else "BLEU, ROUGE-L, CIDEr-D"
    print(f"\nend to end ({what}, from raw captions, {images} images): every corpus and")
    print("per-image score equal to the bit", end="")
    if with_meteor:
        print(
            f", but METEOR on {differ} of {images} images (at most {worst} ulps; "
            f"the limit is {METEOR_ULPS})"
        )
    else:
        print()
    best = {k: min(v) for k, v in times.items() if v}
    best_cpu = {k: min(v) for k, v in cpu.items() if v}
    t_w, o_w, t_c, o_c = best["theirs"], best["ours"], best_cpu["theirs"], best_cpu["ours"]
    print(f"  wall: pycocoevalcap {t_w:.3f} s, parbleu {o_w:.4f} s ({t_w / o_w:.1f}x)")
    print(
        f"  CPU (user+sys; pycocoevalcap's jars included): {t_c:.3f} s, {o_c:.4f} s "
        f"({t_c / o_c:.1f}x)"
    )
    if with_meteor:
        rest = [o - load for o, load in zip(times["ours"], times["load"])]
        rest_cpu = [o - load for o, load in zip(cpu["ours"], cpu["load"])]
        print(
            f"  of which parbleu's METEOR data load (timed inside the call): best "
            f"{best['load']:.3f} s wall, {best_cpu['load']:.3f} s CPU (all runs: "
            f"{', '.join(f'{x:.2f}' for x in times['load'])} s wall); the rest: best "
            f"{min(rest):.4f} s wall, {min(rest_cpu):.4f} s CPU"
        )
        print(
            f"  pycocoevalcap / parbleu without its data load: {t_w / min(rest):.1f}x wall, "
            f"{t_c / min(rest_cpu):.1f}x CPU"
        )
    if with_meteor:
        print(f"  before the runs, {first}")
    print(
        f"  best of {runs}, alternated; all runs wall: pycocoevalcap "
        f"{', '.join(f'{x:.2f}' for x in times['theirs'])} s, parbleu "
        f"{', '.join(f'{x:.3f}' for x in times['ours'])} s; load average (1, 5, 15 min) "
        f"{fmt_load(load[0])} before, {fmt_load(load[1])} after"
    )
    how = "native PTB and METEOR, no Java" if with_meteor else "native PTB, no Java"
    return (f"end to end: tokenize + {what}", t_w, o_w, how)


def fmt_load(avg: tuple[float, float, float]) -> str:
    return "/".join(f"{x:.1f}" for x in avg)


def cpu_seconds() -> float:
    """CPU seconds of this process (all threads) and its waited-for children (the jars),
    user + system."""
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def evaluation_set(
    caps: dict[int, list[str]], images: int, distinct: bool = False
) -> tuple[Captions, Captions]:
    """``(gts, res)`` of ``images`` images: leave-one-out evaluations, repeated under new ids.

    With ``distinct``, every caption of a repeat gets one made-up word of its own (the same in
    the image's hypothesis and references), so no two images share a line. parbleu normalises
    and tokenizes each distinct line once; this shows how much the repeats flatter it.
    """
    units = [(img, c[k], c[:k] + c[k + 1 :]) for k in range(5) for img, c in sorted(caps.items())]
    gts: Captions = {}
    res: Captions = {}
    for i in range(images):
        img, hyp, refs = units[i % len(units)]
        copy = i // len(caps)
        new_id = copy * ID_SPAN + img  # units go image by image, k by k
        if distinct:
            word = " zq" + "".join(chr(ord("a") + int(d)) for d in str(copy))
            hyp, refs = hyp + word, [r + word for r in refs]
        gts[new_id], res[new_id] = refs, [hyp]
    return gts, res


def same_bits(a: Any, b: Any) -> bool:
    """Equal to the bit: every float (or array element) has the same IEEE-754 pattern."""
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return x.shape == y.shape and x.tobytes() == y.tobytes()


def ulps(a: Any, b: Any) -> np.ndarray:
    """Units in the last place between ``a`` and ``b`` (element-wise; scores are >= 0)."""
    x = np.ravel(np.asarray(a, dtype=np.float64)).view(np.int64)
    y = np.ravel(np.asarray(b, dtype=np.float64)).view(np.int64)
    assert x.shape == y.shape and (x >= 0).all() and (y >= 0).all()
    return np.abs(x - y)


def check(name: str, theirs: tuple[Any, Any], ours: tuple[Any, Any]) -> None:
    """Assert that the corpus score and every per-image score are the same bits."""
    assert same_bits(theirs[0], ours[0]), (name, theirs[0], ours[0])
    assert same_bits(theirs[1], ours[1]), name
    print(f"{name}: {float(np.ravel(ours[0])[-1])!r} (and every per-image score) equal")


def check_meteor(name: str, theirs: tuple[Any, Any], ours: tuple[Any, Any]) -> tuple[int, int]:
    """Assert METEOR's corpus and per-image scores within ``METEOR_ULPS``; return how many
    per-image scores differ and the most ulps."""
    corpus, each = ulps(theirs[0], ours[0]), ulps(theirs[1], ours[1])
    worst = int(max(corpus.max(), each.max(initial=0)))
    assert worst <= METEOR_ULPS, (name, worst, theirs[0], ours[0])
    differ = int((each != 0).sum())
    print(
        f"{name}: {float(ours[0])!r} (jar {float(theirs[0])!r}); per-image scores: "
        f"{len(each) - differ} equal to the bit, {differ} within {worst} ulp(s)"
    )
    return differ, worst


def check_suites(theirs: Suite, ours: Suite) -> tuple[int, int]:
    """Assert two ``(eval, imgToEval)`` equal (METEOR within ``METEOR_ULPS``); return how many
    images' METEOR differs in its last bits, and the most ulps."""
    (t_eval, t_img), (o_eval, o_img) = theirs, ours
    assert t_eval.keys() == o_eval.keys(), (t_eval.keys(), o_eval.keys())
    assert t_img.keys() == o_img.keys()
    differ, worst = 0, 0
    for m in t_eval:
        t_each = [t_img[i][m] for i in t_img]
        o_each = [o_img[i][m] for i in t_img]
        if m == "METEOR":
            d = ulps(t_each, o_each)
            c = int(ulps(t_eval[m], o_eval[m])[0])
            differ, worst = int((d != 0).sum()), max(int(d.max(initial=0)), c)
            assert worst <= METEOR_ULPS, (m, worst, t_eval[m], o_eval[m])
        else:
            assert same_bits(t_eval[m], o_eval[m]), (m, t_eval[m], o_eval[m])
            assert same_bits(t_each, o_each), m
    assert all(t_img[i]["image_id"] == o_img[i]["image_id"] for i in t_img)
    return differ, worst


def main() -> None:
    """Run the benchmark and print a table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--images", type=int, default=5_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, default=None, help="parbleu's threads (default all)")
    ap.add_argument(
        "--quick", action="store_true", help="CI size: 400 images, 1 run, no fresh-jar METEOR row"
    )
    ap.add_argument(
        "--no-meteor", action="store_true", help="leave METEOR out (then no METEOR jar runs)"
    )
    ap.add_argument(
        "--end-to-end",
        action="store_true",
        help="only the end-to-end suite (tokenization + BLEU, METEOR, ROUGE-L, CIDEr-D; "
        "with --no-meteor without METEOR)",
    )
    ap.add_argument(
        "--distinct-lines",
        action="store_true",
        help="with --end-to-end: a made-up word per repeat, so that no line repeats",
    )
    args = ap.parse_args()
    if args.distinct_lines and not args.end_to_end:
        ap.error("--distinct-lines applies to --end-to-end only")
    if args.quick:
        args.images, args.runs = 400, 1
    from pycocoevalcap.bleu.bleu import Bleu as TheirBleu
    from pycocoevalcap.cider.cider import Cider as TheirCider
    from pycocoevalcap.rouge.rouge import Rouge as TheirRouge

    if args.end_to_end:
        row = end_to_end(
            args.images, args.runs, with_meteor=not args.no_meteor, distinct=args.distinct_lines
        )
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
    if not args.no_meteor:
        warm, start = meteor(gts, res, args.runs, fresh=not args.quick)
        rows.append(("METEOR, a started jar / data loaded", *warm, "native, one thread"))
        if start is not None:
            rows.append(
                ("METEOR, a fresh jar / a fresh load", *start, "native, data load included")
            )
    rows.append(end_to_end(args.images, args.runs, with_meteor=False))
    if not args.no_meteor:
        rows.append(end_to_end(args.images, args.runs, with_meteor=True))

    print(
        f"\n{len(gts)} images (COCO-MINI val2017, leave-one-out, 4 references each); per metric: "
        f"PTB-tokenized once ({t_ptb:.2f} s, the jar, not in the ratios); end to end: raw "
        f"captions, each side its own tokenizer; all numbers equal (METEOR within "
        f"{METEOR_ULPS} ulps); best of {args.runs} runs\n"
    )
    print("| metric | parbleu | pycocoevalcap 1.2 (s) | parbleu (s) | pycocoevalcap / parbleu |")
    print("|---|---|---:|---:|---:|")
    for name, t_theirs, t_ours, how in rows:
        print(f"| {name} | {how} | {t_theirs:.3f} | {t_ours:.4f} | {t_theirs / t_ours:.1f}x |")


def meteor(
    gts: Captions, res: Captions, runs: int, fresh: bool
) -> tuple[tuple[float, float], tuple[float, float] | None]:
    """METEOR's best seconds, pycocoevalcap's jar against parbleu's native scorer: started
    (a jar warmed up by two calls; the data loaded and one warm-up call) and fresh (a jar
    started for the call, as ``COCOEvalCap`` does, against the data loaded for it). The fresh
    pair is alternated run by run, and so is the started pair; best of ``runs`` (at least 3
    on the started ones)."""
    from pycocoevalcap.meteor.meteor import Meteor as TheirMeteor

    got: dict[str, Any] = {}
    times: dict[str, list[float]] = {"theirs": [], "ours": [], "theirs0": [], "ours0": []}

    def call(key: str, scorer: Any) -> float:
        return median_time(lambda: got.__setitem__(key, scorer.compute_score(gts, res)), 1)

    def fresh_theirs() -> None:
        got["theirs0"] = TheirMeteor().compute_score(gts, res)  # the jar stops in __del__

    def fresh_ours() -> None:
        forget_meteor_data()
        got["ours0"] = coco.Meteor().compute_score(gts, res)

    for _ in range(runs if fresh else 0):
        times["theirs0"].append(median_time(fresh_theirs, 1))
        times["ours0"].append(median_time(fresh_ours, 1))
    if fresh:
        check_meteor("METEOR (fresh jar, fresh load)", got["theirs0"], got["ours0"])
    theirs, ours = TheirMeteor(), coco.Meteor()
    for _ in range(2):
        theirs.compute_score(gts, res)
    ours.compute_score(gts, res)
    for _ in range(max(runs, 3)):
        times["theirs"].append(call("theirs", theirs))
        times["ours"].append(call("ours", ours))
    del theirs
    check_meteor("METEOR (started jar, loaded data)", got["theirs"], got["ours"])
    best = {k: min(v) for k, v in times.items() if v}
    return (best["theirs"], best["ours"]), (best["theirs0"], best["ours0"]) if fresh else None


if __name__ == "__main__":
    main()
