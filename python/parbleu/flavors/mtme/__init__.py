"""Google's mt-metrics-eval (MTME) statistics, on parbleu's core.

``parbleu.flavors.mtme.stats`` and ``parbleu.flavors.mtme.tau_optimization`` offer MTME's
public functions and classes (commit 68a481a) with the same names, arguments and return values,
so that an MTME script switches by changing an import::

    from parbleu.flavors.mtme import stats  # was: from mt_metrics_eval import stats

The correlation loops, Kendall variants, tie calibration and the PERM-BOTH permutation test
run in the Rust core, in parallel. Random draws: :func:`stats.set_random` chooses numpy's
global generator (MTME's own draws, identical p-values) or parbleu's counter-based generator
(the default: results independent of the thread count).
"""

from __future__ import annotations

__all__ = ["pce", "stats", "tau_optimization"]
