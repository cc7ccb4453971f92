"""fairseq-score (libbleu's hashed n-grams) against recorded outputs."""

from __future__ import annotations

import io
from typing import Any

import pytest
from flavor_support import SHARED, close, records, requires_shared, with_edge_cases

from parbleu.flavors import fairseq

pytestmark = requires_shared


@pytest.mark.parametrize(
    "rec", with_edge_cases(records("fairseq/corpus.jsonl"), ".fairseq"), ids=lambda r: r["id"]
)
def test_fairseq(rec: dict[str, Any]) -> None:
    opts = rec["options"]
    order = opts.get("order", 4)
    st = fairseq.score_files(
        str(SHARED / rec["hyp"]), str(SHARED / rec["refs"][0]), opts["ignore_case"]
    )
    assert [st.match1, st.match2, st.match3, st.match4] == rec["counts"]
    assert [st.count1, st.count2, st.count3, st.count4] == rec["totals"]
    assert (st.predlen, st.reflen) == (rec["sys_len"], rec["ref_len"])
    assert close(st.score(order), rec["score"])
    assert st.result_string(order) == rec["formatted"]
    assert close(st.precision()[:order], rec["precisions"][:order])
    argv = ["-s", str(SHARED / rec["hyp"]), "-r", str(SHARED / rec["refs"][0]), "-o", str(order)]
    out = io.StringIO()
    assert fairseq.main([*argv, *(["--ignore-case"] if opts["ignore_case"] else [])], out) == 0
    # fairseq-score prints its Namespace(...) first (tests/flavors/test_flavor_cli_args.py).
    first, line = out.getvalue().split("\n")[:2]
    assert first.startswith("Namespace(sys=") and line == rec["formatted"]
