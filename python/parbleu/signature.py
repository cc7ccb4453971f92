"""Reproducibility signatures, in SacreBLEU's format (``nrefs:1|case:mixed|...``).

A signature is kept as structured data (an ordered mapping) and only rendered; nothing ever
parses a signature string back.
"""

from __future__ import annotations

from typing import Any

from ._version import __version__

#: What parbleu writes in the ``version:`` field.
VERSION_FIELD = f"parbleu-{__version__}"


class Signature:
    """Options that produced a score, rendered like SacreBLEU's signatures.

    Parameters
    ----------
    args
        The metric's attributes; ``num_refs`` is required (-1 renders as ``var``).
    """

    def __init__(self, args: dict[str, Any]) -> None:
        self._abbr: dict[str, str] = {
            "version": "v",
            "nrefs": "#",
            "test": "t",
            "lang": "l",
            "subset": "S",
            "origlang": "o",
            "bs": "bs",
            "ar": "ar",
            "seed": "rs",
        }
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        num_refs = args["num_refs"]
        self.info: dict[str, Any] = {
            "version": VERSION_FIELD,
            "nrefs": "var" if num_refs == -1 else num_refs,
            "bs": args.get("n_bootstrap"),
            "ar": None,
            "seed": args.get("seed"),
            "test": args.get("test_set"),
            "lang": args.get("langpair"),
            "origlang": args.get("origlang"),
            "subset": args.get("subset"),
        }

    def format(self, short: bool = False) -> str:
        """Render the signature.

        Parameters
        ----------
        short
            Use the abbreviated field names (``#:1|c:mixed|...``).

        Returns
        -------
        str
            ``|``-separated ``name:value`` pairs; ``version`` always last, ``None`` values omitted.
        """
        pairs = []
        keys = [k for k in self.info if k != "version"] + ["version"]
        for name in keys:
            value = self.info[name]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._abbr[name] if short else name}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any, abbr: str | None = None) -> None:
        """Add or replace a field (``abbr``: its short name, for a field new to this signature)."""
        self.info[key] = value
        if abbr is not None:
            self._abbr.setdefault(key, abbr)
        elif key not in self._abbr:
            self._abbr[key] = key

    def abbreviate(self, fields: dict[str, str]) -> None:
        """Declare fields' short names (``{"case": "c"}``; a metric's option schema gives them)."""
        self._abbr.update(fields)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()
