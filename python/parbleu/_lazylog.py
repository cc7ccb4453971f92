"""Loggers that import :mod:`logging` when first used, and a hook for when anything imports it.

``logging`` (with ``traceback``, ``linecache``, ``tokenize``, ``string``, ``threading``) is a
good part of what a one-file ``parbleu`` command costs, and most commands log nothing. Modules
on that path take their logger from :func:`get_logger`; the command line configures its output
with :func:`when_logging_loads`, which runs at once if ``logging`` is already imported, or else
right after anything imports it (before any record can be emitted).
"""

from __future__ import annotations

import sys
from typing import Any, Callable

__all__ = ["LazyLogger", "get_logger", "when_logging_loads"]


class LazyLogger:
    """``logging.getLogger(name)``, imported on first attribute access.

    Parameters
    ----------
    name
        The logger's name.
    """

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        import logging

        return getattr(logging.getLogger(self._name), attr)


def get_logger(name: str) -> Any:
    """Return a :class:`LazyLogger` for ``name`` (typed ``Any``: it is used as a Logger)."""
    return LazyLogger(name)


class _Loader:
    """``logging``'s own loader, then ``setup`` once the module has run."""

    def __init__(self, loader: Any, setup: Callable[[], None]) -> None:
        self._loader = loader
        self._setup = setup

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        module.__loader__ = self._loader  # as if imported plainly (get_source, reload)
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._setup()

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._loader, attr)


class _Finder:
    """A ``sys.meta_path`` entry that wraps the loader of ``logging`` (and nothing else)."""

    def __init__(self, setup: Callable[[], None]) -> None:
        self.setup = setup

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "logging":
            return None
        self.remove()
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _Loader(spec.loader, self.setup)
                return spec
        return None

    def remove(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)


def when_logging_loads(setup: Callable[[], None]) -> Callable[[], None]:
    """Run ``setup`` now if :mod:`logging` is imported, else right after it is imported.

    Parameters
    ----------
    setup
        Configures logging (adds handlers); it may ``import logging``.

    Returns
    -------
    callable
        Cancels ``setup`` if it has not run yet.
    """
    if "logging" in sys.modules:
        setup()
        return lambda: None
    finder = _Finder(setup)
    sys.meta_path.insert(0, finder)
    return finder.remove
