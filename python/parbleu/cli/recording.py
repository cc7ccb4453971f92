"""An ``ArgumentParser`` that keeps the options it is given, for code that lists them.

argparse keeps its actions in private attributes; the streaming path needs every option's
destination, default and first flag (to tell which given options only the in-memory path
honours), so the main command's parser records each action as ``add_argument`` returns it.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["RecordingParser"]


class RecordingParser(argparse.ArgumentParser):
    """An ``argparse.ArgumentParser`` whose :attr:`options` lists every action added.

    Actions added through argument groups and mutually exclusive groups are recorded too.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.options: list[argparse.Action] = []  # before __init__, which adds --help
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """Add an option (as argparse) and record it."""
        action = super().add_argument(*args, **kwargs)
        self.options.append(action)
        return action

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
