"""The integration pages' examples run as written (each page's blocks in one namespace)."""

from __future__ import annotations

import re

import pytest

from helpers import REPO, require

BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def _blocks(page: str) -> list[str]:
    return BLOCK.findall((REPO / "docs" / page).read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", ["integrations-torchmetrics.md", "integrations-evaluate.md"])
def test_page_examples_run(page, capsys):
    blocks = _blocks(page)
    assert len(blocks) >= 2
    if "torchmetrics" in page:
        require("torchmetrics", "torch")
    ns: dict[str, object] = {"__name__": "docs_example"}
    for code in blocks:
        if "import evaluate\n" in code:
            require("evaluate", "evaluate")
        exec(compile(code, f"docs/{page}", "exec"), ns)
    assert capsys.readouterr().out  # the examples print their results
