"""``parbleu._lazylog``: loggers and log set-up that wait for ``logging`` to be imported."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
from parbleu._lazylog import get_logger, when_logging_loads
log = get_logger("parbleu.test")
seen = []
cancel = when_logging_loads(lambda: seen.append(sys.modules["logging"].getLogger("parbleu")))
assert "logging" not in sys.modules and seen == []
import json  # another import leaves the hook alone
assert seen == []
import logging.handlers  # the package first: the set-up runs once it is there
assert len(seen) == 1 and seen[0] is logging.getLogger("parbleu")
assert logging.__loader__.__class__.__name__ != "_Loader"  # plain loader again
assert log.name == "parbleu.test" and log.getEffectiveLevel() == logging.WARNING
cancel()
ran = []
when_logging_loads(lambda: ran.append(1))  # logging imported: at once
assert ran == [1]
"""


def test_setup_runs_when_logging_is_imported() -> None:
    subprocess.run([sys.executable, "-c", CODE], check=True)


def test_cancel_before_the_import() -> None:
    code = (
        "import sys\n"
        "from parbleu._lazylog import when_logging_loads\n"
        "ran = []\n"
        "cancel = when_logging_loads(lambda: ran.append(1))\n"
        "cancel()\n"
        "import logging\n"
        "assert ran == [] and not any(type(f).__name__ == '_Finder' for f in sys.meta_path)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
