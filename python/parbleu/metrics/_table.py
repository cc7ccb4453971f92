"""The metric registry's tables, apart from the registry.

A metric finds its own entry here without importing the registry (which names the metric
classes' module for its types: an import cycle otherwise).
"""

from __future__ import annotations

from typing import Any

#: Name -> the registry's ``MetricEntry``.
ENTRIES: dict[str, Any] = {}
#: Alias (and name) -> the entry's name.
LOOKUP: dict[str, str] = {}


def find(name: str) -> Any:
    """Return the entry of a metric name or alias (any case), or ``None``."""
    key = LOOKUP.get(name.lower()) if isinstance(name, str) else None
    return ENTRIES[key] if key is not None else None
