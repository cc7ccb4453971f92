"""Flavors: each parbleu flavor against its original on WMT21 en-de (20 systems, reference A).

    python benchmarks/bench_flavors.py [--runs 3] [--originals DIR] [--moses DIR]

Same inputs, same process (the perl scripts in a subprocess, parbleu's equivalent in-process
from the same files). The originals that are not on PyPI are looked up in ``--originals``
(a directory with a copy of tensorflow/nmt's ``nmt/scripts/bleu.py`` as ``nmt_bleu.py``,
tensor2tensor's ``bleu_hook.py`` without its TensorFlow imports, pycocoevalcap's
``bleu_scorer.py``) and ``--moses`` (mosesdecoder's ``scripts/generic``); rows whose original
is missing are printed as such. NLTK is a dependency of the test extra; torchmetrics (torch)
and mteval (XML::Twig) are benchmarked when importable/installed. Every row checks that both
sides agree before timing. Prints a Markdown table of the best of ``--runs`` timings and ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import shutil
import subprocess
import sys
import time
import warnings
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from common import WMT, Table, en_de
from parbleu.flavors import coco, moses, nltk, t2t, tfnmt

REF = WMT / "references" / "newstest2021.en-de.ref.A.de"


def _load(path: Path, name: str) -> ModuleType | None:
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def best_time(fn: Callable[[], Any], runs: int) -> float:
    """Fastest of ``runs`` calls: the least disturbed by other jobs on a shared machine."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _row(
    table: Table,
    what: str,
    original: Callable[[], Any] | None,
    ours: Callable[[], Any],
    runs: int,
    ref_name: str,
    same: Callable[[Any, Any], bool] = lambda a, b: a == b,
) -> None:
    ours_value = ours()
    if original is None:
        table.add_raw(what, f"- ({ref_name} not available)", f"{best_time(ours, runs):.3f} s", "-")
        return
    orig_value = original()
    assert same(orig_value, ours_value), (what, orig_value, ours_value)
    t_orig = best_time(original, runs)
    t_ours = best_time(ours, runs)
    table.add(what, t_orig, t_ours, ref_name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--originals", type=Path, default=Path("/tmp/flavor-originals"))
    ap.add_argument("--moses", type=Path, default=None)
    args = ap.parse_args()
    moses_dir = args.moses or args.originals / "moses"
    warnings.simplefilter("ignore")

    systems, refs = en_de()
    ref_a = refs["A"]
    hyp_files = sorted((WMT / "system-outputs").glob("newstest2021.en-de.hyp.*.de"))
    names = list(systems)
    hyp_tok = {n: [h.split() for h in systems[n]] for n in names}
    ref_tok = [[r.split()] for r in ref_a]
    runs = args.runs
    t = Table("Flavors: 20 WMT21 en-de systems against reference A (total time, best of runs)")

    # --- NLTK ---------------------------------------------------------------------------
    import nltk.translate.bleu_score as nb
    import nltk.translate.chrf_score as nc
    import nltk.translate.gleu_score as ng

    first = names[0]

    def per_system(fn: Callable[..., Any], refs: Any, hyps: Any) -> Callable[[], list[Any]]:
        """One corpus call a system, for all systems."""
        return lambda: [fn(refs, hyps[n]) for n in names]

    def per_segment(fn: Callable[..., Any], refs: Any, hyps: Any) -> Callable[[], list[Any]]:
        """One sentence call a segment, for the first system."""
        return lambda: [fn(r, h) for r, h in zip(refs, hyps[first])]

    bleu_m3 = partial(nb.sentence_bleu, smoothing_function=nb.SmoothingFunction().method3)
    ours_bleu_m3 = partial(nltk.sentence_bleu, smoothing_function=nltk.SmoothingFunction().method3)
    segs = f"({len(ref_a)} segments, 1 system)"
    tok, raw = (ref_tok, hyp_tok), (ref_a, systems)
    nltk_rows = [  # (row, how it loops, inputs, NLTK's function, ours)
        ("corpus_bleu (str.split tokens)", per_system, tok, nb.corpus_bleu, nltk.corpus_bleu),
        (f"sentence_bleu loop, method3 {segs}", per_segment, tok, bleu_m3, ours_bleu_m3),
        (f"sentence_gleu loop {segs}", per_segment, tok, ng.sentence_gleu, nltk.sentence_gleu),
        (f"sentence_chrf loop {segs}", per_segment, raw, nc.sentence_chrf, nltk.sentence_chrf),
        ("corpus_gleu", per_system, tok, ng.corpus_gleu, nltk.corpus_gleu),
        ("corpus_chrf", per_system, raw, nc.corpus_chrf, nltk.corpus_chrf),
    ]
    for what, loop, (r, h), theirs, ours_fn in nltk_rows:
        _row(t, f"NLTK {what}", loop(theirs, r, h), loop(ours_fn, r, h), runs, "nltk 3.10.4")

    # --- Moses ----------------------------------------------------------------------------
    for script, detok in (("multi-bleu.perl", False), ("multi-bleu-detok.perl", True)):
        path = moses_dir / script
        have = path.is_file() and shutil.which("perl") is not None

        def perl(path: Path = path) -> list[bytes]:
            return [
                subprocess.run(
                    ["perl", str(path), str(REF)], stdin=f.open("rb"), capture_output=True
                ).stdout
                for f in hyp_files
            ]

        def ours(detok: bool = detok) -> list[bytes]:
            outs = []
            for f in hyp_files:
                out = io.StringIO()
                moses.main([str(REF)], detok, f.read_bytes(), out, io.StringIO())
                outs.append(out.getvalue().encode())
            return outs

        _row(t, f"{script} (files, printed line)", perl if have else None, ours, runs, "perl 5.36")

    # --- tensorflow/nmt, HF evaluate --------------------------------------------------------
    nmt = _load(args.originals / "nmt_bleu.py", "nmt_bleu")
    close: Callable[[Any, Any], bool] = lambda a, b: all(  # noqa: E731
        abs(x[0] - y[0]) <= 1e-12 * abs(x[0]) for x, y in zip(a, b)
    )
    _row(
        t,
        "tensorflow/nmt compute_bleu (str.split tokens)",
        (lambda: [nmt.compute_bleu(ref_tok, hyp_tok[n]) for n in names]) if nmt else None,
        lambda: [tfnmt.compute_bleu(ref_tok, hyp_tok[n]) for n in names],
        runs,
        "nmt bleu.py",
        close,
    )

    # --- tensor2tensor ----------------------------------------------------------------------
    hook = _load(args.originals / "bleu_hook.py", "bleu_hook")
    _row(
        t,
        "tensor2tensor bleu_wrapper (files, bleu_tokenize)",
        (lambda: [hook.bleu_wrapper(str(REF), str(f)) for f in hyp_files]) if hook else None,
        lambda: [t2t.bleu_wrapper(str(REF), str(f)) for f in hyp_files],
        runs,
        "bleu_hook.py",
    )

    # --- pycocoevalcap ----------------------------------------------------------------------
    scorer = _load(args.originals / "bleu_scorer.py", "bleu_scorer")
    gts = {str(i): [r] for i, r in enumerate(ref_a)}
    res = {n: {str(i): [h] for i, h in enumerate(systems[n])} for n in names}

    def coco_orig() -> list[Any]:
        with contextlib.redirect_stdout(io.StringIO()):
            return [scorer.Bleu(4).compute_score(gts, res[n])[0] for n in names]  # type: ignore[union-attr]

    def coco_ours() -> list[Any]:
        with contextlib.redirect_stdout(io.StringIO()):
            return [coco.Bleu(4).compute_score(gts, res[n])[0] for n in names]

    _row(
        t,
        "pycocoevalcap Bleu(4).compute_score (raw captions)",
        coco_orig if scorer else None,
        coco_ours,
        runs,
        "pycocoevalcap bleu",
    )

    # --- torchmetrics -----------------------------------------------------------------------
    try:
        from torchmetrics.functional.text import bleu_score as tm_bleu
    except ImportError:
        tm_bleu = None
    from parbleu.flavors import torchmetrics as ptm

    segs = [[r] for r in ref_a]
    _row(
        t,
        "torchmetrics bleu_score",
        (lambda: [float(tm_bleu(systems[n], segs)) for n in names]) if tm_bleu else None,
        lambda: [float(ptm.bleu_score(systems[n], segs)) for n in names],
        runs,
        "torchmetrics (needs torch)",
    )
    print(t.markdown())


if __name__ == "__main__":
    sys.exit(main())
