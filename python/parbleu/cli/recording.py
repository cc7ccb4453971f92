"""An ``ArgumentParser`` that keeps the options it is given, for code that lists them.

argparse keeps its actions in private attributes; the streaming path needs every option's
destination, default and first flag (to tell which given options only the in-memory path
honours), so the main command's parser records each action as ``add_argument`` returns it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Sequence
from typing import Any

__all__ = ["LazyChoices", "RecordingParser"]


class RecordingParser(argparse.ArgumentParser):
    """An ``argparse.ArgumentParser`` whose :attr:`options` lists every action added.

    Actions added through argument groups and mutually exclusive groups are recorded too.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.options: list[argparse.Action] = []  # before __init__, which adds --help
        self._adding = False
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """Add an option (as argparse) and record it."""
        self._adding = True
        try:
            action = super().add_argument(*args, **kwargs)
        finally:
            self._adding = False
        self.options.append(action)
        return action

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse's add_argument builds a formatter only to check the metavar; a formatter
        # of the default width reads the terminal's, which imports shutil (and zlib, bz2,
        # lzma): a cost to every command. The check does not depend on the width.
        if self._adding:
            make: Any = self.formatter_class  # argparse's formatters all take a width
            formatter: argparse.HelpFormatter = make(prog=self.prog, width=80)
            return formatter
        return super()._get_formatter()

    def add_argument_group(self, *args: Any, **kwargs: Any) -> Any:
        """Add a group (as argparse) whose options are recorded here."""
        return _recording(super().add_argument_group(*args, **kwargs), self.options)

    def add_mutually_exclusive_group(self, **kwargs: Any) -> Any:
        """Add an exclusive group (as argparse) whose options are recorded here."""
        return _recording(super().add_mutually_exclusive_group(**kwargs), self.options)


def _recording(group: Any, options: list[argparse.Action]) -> Any:
    add = group.add_argument
    add_exclusive = group.add_mutually_exclusive_group

    def add_argument(*args: Any, **kwargs: Any) -> argparse.Action:
        action: argparse.Action = add(*args, **kwargs)
        options.append(action)
        return action

    def add_mutually_exclusive_group(**kwargs: Any) -> Any:
        return _recording(add_exclusive(**kwargs), options)

    group.add_argument = add_argument
    group.add_mutually_exclusive_group = add_mutually_exclusive_group
    return group


class LazyChoices:
    """``choices=`` of an option, read from ``names()`` when first used, then kept.

    argparse reads an option's choices only to check a value given to it and to word help,
    usage and errors (for an option of an argument group, not when it is added), so a
    command that never names the option never pays for ``names()`` (``--flavor``'s imports
    the flavor registry).

    Parameters
    ----------
    names
        Returns the choices, in order.
    """

    def __init__(self, names: Callable[[], Sequence[str]]) -> None:
        self._names = names
        self._read: tuple[str, ...] | None = None

    def _choices(self) -> tuple[str, ...]:
        if self._read is None:
            self._read = tuple(self._names())
        return self._read

    def __iter__(self) -> Iterator[str]:
        return iter(self._choices())

    def __contains__(self, value: object) -> bool:
        return value in self._choices()

    def __len__(self) -> int:
        return len(self._choices())

    def __getitem__(self, index: int) -> str:
        return self._choices()[index]
