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
from typing import Any

import pytest

#: The parbleu modules a plain ``-m bleu`` command may import.
ALLOWED = frozenset(
    {
        "parbleu",
        "parbleu._argtypes",
        "parbleu._core",
        "parbleu._inputs",
        "parbleu._lazylog",
        "parbleu._options",
        "parbleu._record",
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
        "parbleu.cli.testsets",
        "parbleu.errors",
        "parbleu.metrics",
        "parbleu.metrics._checks",
        "parbleu.metrics._table",
        "parbleu.metrics.base",
        "parbleu.metrics.bleu",
        "parbleu.metrics.capabilities",
        "parbleu.metrics.options",
        "parbleu.metrics.registry",
        "parbleu.metrics.schema",
        "parbleu.score",
        "parbleu.signature",
        "parbleu.tokenizers",
        "parbleu.tokenizers.base",
        "parbleu.tokenizers.registry",
        "parbleu.tokenizers.rust",
    }
)

#: Modules that cost start-up time and that scoring two files never needs (``dataclasses``
#: imports ``inspect``: the registries use ``parbleu._record``; argparse's default help
#: formatter imports ``shutil``, and with it ``bz2`` and ``lzma``: see ``cli/recording.py``;
#: ``logging`` comes when something logs: ``parbleu._lazylog``).
HEAVY = (
    "asyncio",
    "bz2",
    "concurrent",
    "dataclasses",
    "email",
    "gzip",
    "hashlib",
    "http",
    "inspect",
    "json",
    "logging",
    "lzma",
    "numpy",
    "parbleu.compat",
    "parbleu.datasets",
    "parbleu.distributed",
    "parbleu.flavors",
    "parbleu.metrics.chrf",
    "parbleu.metrics.ter",
    "parbleu.pairwise",
    "parbleu.reporting",
    "parbleu.streaming",
    "shutil",
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
import sys
from parbleu.cli import main
code = main([sys.argv[1], "-i", sys.argv[2], "-m", "bleu", "-b"])
sys.stdout.flush()
modules = sorted(sys.modules)
import json  # after the list: the command itself must not need it
print(json.dumps([code, modules]))
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


def test_flavor_choices_are_read_when_used(capsys: Any) -> None:
    # --flavor's choices come from the flavor registry only when read: help lists them all,
    # and a value outside them is argparse's usage error naming them.
    from parbleu.cli import main
    from parbleu.flavors import flavor_names

    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "--flavor {" + ",".join(flavor_names()) + "}" in out
    from parbleu.cli.parser import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["ref", "--flavor", "nope"])
    err = capsys.readouterr().err
    assert "nope" in err and all(repr(n) in err for n in flavor_names())
    assert build_parser().parse_args(["--flavor", "nltk"]).flavor == "nltk"
