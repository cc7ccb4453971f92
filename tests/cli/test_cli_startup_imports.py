"""What a plain scoring command imports: an allow-list, so start-up cost cannot creep back.

``parbleu REF -i HYP -m bleu -b`` runs in a fresh interpreter; every ``parbleu`` module it
loads must be in :data:`ALLOWED`, and none of :data:`HEAVY` (network, archives, numpy, the
test-set and distributed layers, pairwise, reporting) may be loaded. A new import on that path
fails here: make it lazy (a function-level import, or a module ``__getattr__``), or add it to
the list on purpose.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

#: The parbleu modules a plain ``-m bleu`` command may import.
ALLOWED = frozenset(
    {
        "parbleu",
        "parbleu._argtypes",
        "parbleu._core",
        "parbleu._inputs",
        "parbleu._options",
        "parbleu._refcache",
        "parbleu._stats_checks",
        "parbleu._text",
        "parbleu._version",
        "parbleu._workers",
        "parbleu.cli",
        "parbleu.cli.arguments",
        "parbleu.cli.errors",
        "parbleu.cli.imported_args",
        "parbleu.cli.io",
        "parbleu.cli.parser",
        "parbleu.cli.recording",
        "parbleu.cli.render",
        "parbleu.cli.score",
        "parbleu.cli.stream",
        "parbleu.cli.tabulate",
        "parbleu.cli.testsets",
        "parbleu.errors",
        "parbleu.flavors",
        "parbleu.flavors.registry",
        "parbleu.metrics",
        "parbleu.metrics._checks",
        "parbleu.metrics._table",
        "parbleu.metrics.base",
        "parbleu.metrics.bleu",
        "parbleu.metrics.capabilities",
        "parbleu.metrics.chrf",
        "parbleu.metrics.options",
        "parbleu.metrics.registry",
        "parbleu.metrics.schema",
        "parbleu.metrics.ter",
        "parbleu.metrics.words",
        "parbleu.progress",
        "parbleu.score",
        "parbleu.signature",
        "parbleu.streaming",
        "parbleu.tokenizers",
        "parbleu.tokenizers.base",
        "parbleu.tokenizers.registry",
        "parbleu.tokenizers.rust",
    }
)

#: Modules that cost start-up time and that scoring two files never needs.
HEAVY = (
    "asyncio",
    "concurrent",
    "email",
    "hashlib",
    "http",
    "numpy",
    "parbleu.compat",
    "parbleu.datasets",
    "parbleu.distributed",
    "parbleu.pairwise",
    "parbleu.reporting",
    "socket",
    "ssl",
    "subprocess",
    "tarfile",
    "tempfile",
    "urllib",
    "xml",
    "zipfile",
)

SCRIPT = """
import json, sys
from parbleu.cli import main
code = main([sys.argv[1], "-i", sys.argv[2], "-m", "bleu", "-b"])
sys.stdout.flush()
print(json.dumps([code, sorted(sys.modules)]))
"""


def _modules(tmp_path: Path) -> tuple[int, list[str], str]:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the cat sat on the mat\na b c d\n", encoding="utf-8")
    hyp.write_text("the cat sat on a mat\na b c e\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ref), str(hyp)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    code, modules = json.loads(out[-1])
    return code, modules, out[0]


def test_plain_scoring_imports_only_the_allow_list(tmp_path: Path) -> None:
    code, modules, score = _modules(tmp_path)
    assert code == 0
    assert float(score) > 0  # it scored (the -b output is the number)
    ours = {m for m in modules if m == "parbleu" or m.startswith("parbleu.")}
    assert sorted(ours - ALLOWED) == [], "new imports on the plain scoring path"
    heavy = sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert heavy == [], "heavy modules on the plain scoring path"


def test_lazy_package_attributes_still_resolve() -> None:
    # The public names are imported on first use; each must still be there (and `pairwise`
    # stays the function even after its submodule is imported).
    code = (
        "import parbleu, parbleu.pairwise\n"
        "missing = [n for n in parbleu.__all__ if not hasattr(parbleu, n)]\n"
        "assert not missing, missing\n"
        "assert callable(parbleu.pairwise) and parbleu.pairwise.__name__ == 'pairwise'\n"
        "from parbleu import datasets\n"
        "assert callable(datasets.download_file) and callable(datasets.file_digest)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
