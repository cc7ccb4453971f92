"""Run MTME's own stats_test.py and tau_optimization_test.py against parbleu.flavors.mtme.

MTME is not on PyPI and CI cannot fetch it: run by hand with a checkout of
google-research/mt-metrics-eval (commit 68a481a)::

    python tools/run_mtme_tests.py /path/to/mt-metrics-eval

The test modules import ``mt_metrics_eval.stats`` / ``tau_optimization`` / ``pce``; those
names are aliased to parbleu's modules before the tests are loaded.
"""

from __future__ import annotations

import importlib.util
import sys
import types
import unittest
from pathlib import Path


def main() -> int:
    root = Path(sys.argv[1]) / "mt_metrics_eval"
    from parbleu.flavors.mtme import pce, stats, tau_optimization

    pkg = types.ModuleType("mt_metrics_eval")
    pkg.__path__ = []  # type: ignore[attr-defined]
    sys.modules["mt_metrics_eval"] = pkg
    for name, mod in (("stats", stats), ("tau_optimization", tau_optimization), ("pce", pce)):
        sys.modules[f"mt_metrics_eval.{name}"] = mod
        setattr(pkg, name, mod)
    suite = unittest.TestSuite()
    for test in ("stats_test", "tau_optimization_test"):
        spec = importlib.util.spec_from_file_location(test, root / f"{test}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        suite.addTests(unittest.defaultTestLoader.loadTestsFromModule(module))
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
