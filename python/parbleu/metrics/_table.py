"""The metric registry's tables, apart from the registry.

A metric finds its own entry here without importing the registry (which names the metric
classes' module for its types: an import cycle otherwise).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

#: Name -> the registry's ``MetricEntry``.
ENTRIES: dict[str, Any] = {}
#: Alias (and name) -> the entry's name.
LOOKUP: dict[str, str] = {}


def find(name: str) -> Any:
    """Return the entry of a metric name or alias (any case), or ``None``.

    The registry fills these tables when it is imported; ``parbleu.metrics`` imports it lazily,
    so a metric built without it (``parbleu.CHRF()`` in a fresh process) loads it here first.
    """
    if "parbleu.metrics.registry" not in sys.modules:
        # Loaded by name at call time, as the registry loads its factories: the registry
        # imports this module to fill it, so a static import here would be a cycle.
        importlib.import_module("parbleu.metrics.registry")

    key = LOOKUP.get(name.lower()) if isinstance(name, str) else None
    return ENTRIES[key] if key is not None else None
