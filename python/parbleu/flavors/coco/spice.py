"""SPICE through pycocoevalcap's own ``spice-1.0.jar``, only where it can run.

SPICE parses captions with Stanford CoreNLP 3.6.0, which pycocoevalcap downloads at run time
(``get_stanford_models``, about 400 MB from nlp.stanford.edu) into its ``spice/lib`` folder.
parbleu never downloads anything: :class:`Spice` runs the original when those jars are already
there (and Java is present), and raises one clear error otherwise - so it is unavailable
offline unless the models were fetched beforehand.
"""

from __future__ import annotations

import importlib
import subprocess
from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import MissingDependencyError
from ...metrics.caption.checks import FLAVOR, captions
from ...metrics.caption.java import java, package_dir
from .._common import flavor_error

__all__ = ["Spice", "spice_available"]

CORENLP_JARS = ("stanford-corenlp-3.6.0.jar", "stanford-corenlp-3.6.0-models.jar")


def spice_available() -> bool:
    """Whether :class:`Spice` can run here (package, Java and CoreNLP models present)."""
    try:
        _check()
    except MissingDependencyError:
        return False
    return True


def _check() -> None:
    lib = package_dir("SPICE") / "spice" / "lib"
    java("SPICE")
    missing = [j for j in CORENLP_JARS if not (lib / j).is_file()]
    if missing:
        raise MissingDependencyError(
            f"coco: SPICE needs Stanford CoreNLP 3.6.0 ({', '.join(missing)}) in {lib}; "
            "pycocoevalcap downloads it at run time, which parbleu does not do. Fetch it once "
            "with network access: python -c 'from pycocoevalcap.spice.get_stanford_models "
            "import get_stanford_models; get_stanford_models()'"
        )


class Spice:
    """pycocoevalcap's ``Spice``, run only when its CoreNLP models are already installed."""

    def __init__(self) -> None:
        _check()
        self._impl: Any = importlib.import_module("pycocoevalcap.spice.spice").Spice()

    def compute_score(
        self, gts: Mapping[Any, Sequence[str]], res: Mapping[Any, Sequence[str]]
    ) -> tuple[float, list[Any]]:
        """SPICE of ``res`` against ``gts``: ``(mean F-score, [per-image result dicts])``."""
        captions(gts, res, "SPICE")
        try:
            out: tuple[float, list[Any]] = self._impl.compute_score(gts, res)
        except subprocess.CalledProcessError as e:
            raise flavor_error(
                FLAVOR, f"SPICE: the jar exited with status {e.returncode}", RuntimeError
            ) from None
        return out

    def method(self) -> str:
        """Return the metric's name."""
        return "SPICE"
