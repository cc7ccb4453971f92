"""What one command or the first call costs: whole processes, and first against later calls.

    python benchmarks/bench_startup.py [--runs 15]

(a) ``parbleu REF -i HYP -m bleu -b`` and ``sacrebleu REF -i HYP -m bleu -b`` (also chrF and
    TER) as whole processes, run alternately ``--runs`` times each, median wall time and ratio;
    one WMT21 en-de system (1,002 segments) against reference A. Also ``import parbleu``,
    ``import numpy`` and an empty ``python -c pass`` as whole processes, for scale.
(b) in a fresh process: the first ``corpus_score`` of each metric (references prepared, lazy
    imports done) against the median of the next calls on the same inputs, for parbleu and
    SacreBLEU.
Prints Markdown tables. parbleu's bytecode is compiled first, as installing it does.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from common import REPO, WMT

REF = WMT / "references" / "newstest2021.en-de.ref.A.de"
HYP = WMT / "system-outputs" / "newstest2021.en-de.hyp.Online-W.de"
BIN = Path(sys.executable).parent


def _command(tool: str) -> list[str]:
    exe = BIN / tool
    if exe.exists():
        return [str(exe)]
    module = "parbleu" if tool == "parbleu" else "sacrebleu"
    return [sys.executable, "-m", module]


def timed(argv: list[str]) -> tuple[float, float, bytes]:
    """Wall and CPU seconds (user + system, the child's own) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    run = subprocess.run(argv, capture_output=True, check=True, cwd=REPO, env=_ENV)
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return dt, cpu, run.stdout


_ENV = {k: v for k, v in os.environ.items() if not k.startswith(("SACREBLEU_", "PARBLEU_"))}


def processes(runs: int, metrics: list[str]) -> list[tuple[str, list[float], list[float]]]:
    """Per metric: the command, then sacrebleu's and parbleu's median [wall, CPU] seconds."""
    rows = []
    for metric in metrics:
        args = [str(REF), "-i", str(HYP), "-m", metric, "-b"]
        times: dict[str, list[tuple[float, float]]] = {"parbleu": [], "sacrebleu": []}
        outs = {}
        for _ in range(runs):
            for tool in times:
                dt, cpu, outs[tool] = timed([*_command(tool), *args])
                times[tool].append((dt, cpu))
        if outs["parbleu"] != outs["sacrebleu"]:
            raise SystemExit(f"{metric}: scores differ: {outs}")
        med = {t: [statistics.median(x[k] for x in v) for k in (0, 1)] for t, v in times.items()}
        rows.append((f"`{{tool}} REF -i HYP -m {metric} -b`", med["sacrebleu"], med["parbleu"]))
    return rows


def bare(code: str, runs: int) -> float:
    return statistics.median(timed([sys.executable, "-c", code])[0] for _ in range(runs))


FIRST_CALL = """
import json, sys, time
sys.path.insert(0, {bench!r})
from common import read
hyp = read(__import__('pathlib').Path({hyp!r}))
ref = read(__import__('pathlib').Path({ref!r}))
import {mod} as m
out = {{}}
for name in {names!r}:
    metric = getattr(m, name)()
    t0 = time.perf_counter(); first = metric.corpus_score(hyp, [ref]).score
    t1 = time.perf_counter()
    later = []
    for _ in range({later}):
        t = time.perf_counter(); metric.corpus_score(hyp, [ref])
        later.append(time.perf_counter() - t)
    later.sort()
    out[name] = [t1 - t0, later[len(later) // 2], first]
print(json.dumps(out))
"""


def first_calls(mod: str, later: int, names: list[str]) -> dict[str, list[float]]:
    code = FIRST_CALL.format(
        bench=str(REPO / "benchmarks"),
        hyp=str(HYP),
        ref=str(REF),
        mod=mod,
        later=later,
        names=tuple(names),
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=True, text=True, env=_ENV
    ).stdout
    result: dict[str, list[float]] = json.loads(out.splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="processes per tool and metric")
    ap.add_argument("--later", type=int, default=5, help="later calls timed in (b)")
    ap.add_argument(
        "--metrics",
        nargs="+",
        default=["bleu", "chrf"],
        choices=["bleu", "chrf", "ter"],
        help="metrics timed (SacreBLEU's TER takes about 40 s a run here)",
    )
    args = ap.parse_args()
    if not REF.is_file():
        raise SystemExit(f"missing {REF}")
    # An installed package has its bytecode compiled (pip does it); an editable install
    # under PYTHONDONTWRITEBYTECODE would compile every module in every process instead.
    import parbleu

    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(Path(parbleu.__file__).parent)],
        check=True,
    )

    print(f"load average before: {os.getloadavg()[0]:.2f}\n")
    print("### (a) whole processes (median of", args.runs, "runs each, alternating)\n")
    print("wall time, and CPU time (user + system) of the process in parentheses\n")
    print("| command | sacrebleu | parbleu | sacrebleu / parbleu |")
    print("|---|---:|---:|---:|")
    for what, sb, pb in processes(args.runs, args.metrics):
        print(
            f"| {what} | {sb[0]:.3f} s ({sb[1]:.3f} s) | {pb[0]:.3f} s ({pb[1]:.3f} s) "
            f"| {sb[0] / pb[0]:.1f}x ({sb[1] / pb[1]:.1f}x) |"
        )
    for what, code in (
        ("`python -c pass`", "pass"),
        ("`python -c 'import numpy'`", "import numpy"),
        ("`python -c 'import parbleu'`", "import parbleu"),
        ("`python -c 'import sacrebleu'`", "import sacrebleu"),
    ):
        print(f"| {what} | | {bare(code, args.runs):.3f} s | |")

    print("\n### (b) first corpus_score in a process against later ones (1,002 segments)\n")
    print("| metric | tool | first call | later call (median) | first / later |")
    print("|---|---|---:|---:|---:|")
    names = [m.upper() for m in args.metrics]
    ours = first_calls("parbleu", args.later, names)
    theirs = first_calls("sacrebleu", args.later, names)
    for name in names:
        if ours[name][2] != theirs[name][2]:
            raise SystemExit(f"{name}: scores differ: {ours[name][2]} != {theirs[name][2]}")
        for tool, r in (("sacrebleu", theirs[name]), ("parbleu", ours[name])):
            print(
                f"| {name} | {tool} | {r[0] * 1000:.1f} ms | {r[1] * 1000:.1f} ms "
                f"| {r[0] / r[1]:.1f} |"
            )

    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
