"""``mteval.system_bleu`` (the flavors table's fast path) equals ``score_lines`` to the bit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import read_lines
from parbleu.errors import ParbleuError
from parbleu.flavors import get_flavor, mteval

WMT = "data/wmt21"
SYSTEMS = ("Facebook-AI", "Online-W", "VolcTrans-GLAT", "UEdin", "NVIDIA-NeMo")


def _full(hyps: list[str], refs: list[list[str]], version: str) -> float:
    r = mteval.score_lines(hyps, refs, version=version, method="bleu", orders=4)
    return float(r.bleu or 0.0)


@pytest.mark.parametrize("version", ["v13a", "v14"])
def test_wmt21_systems_against_two_references(version: str) -> None:
    refs = [list(read_lines(f"{WMT}/references/newstest2021.en-de.ref.{x}.de"))[:400] for x in "AC"]
    for name in SYSTEMS:  # several systems in a row: the references' tokens are reused
        hyps = list(read_lines(f"{WMT}/system-outputs/newstest2021.en-de.hyp.{name}.de"))[:400]
        assert mteval.system_bleu(hyps, refs, version) == _full(hyps, refs, version), name
    one = refs[:1]  # other references: the kept tokens must not be used
    assert mteval.system_bleu(hyps, one, version) == _full(hyps, one, version)


def test_the_registry_flavor_uses_it() -> None:
    hyps, refs = ["a b c d e"], [["a b c d f"]]
    assert get_flavor("mteval-v13a").score(hyps, refs) == _full(hyps, refs, "v13a")


TEXT = st.text(alphabet=st.sampled_from(list("ab c.,&<>'\"-\t\u00a0\u2028é9")), max_size=30)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.lists(TEXT, min_size=n, max_size=n),
            st.lists(st.lists(TEXT, min_size=n, max_size=n), min_size=1, max_size=3),
        )
    ),
    st.sampled_from(["v13a", "v14"]),
)
def test_same_bits_or_same_error(data: tuple[list[str], list[list[str]]], version: str) -> None:
    hyps, refs = data
    try:
        want: float | str = _full(hyps, refs, version)
    except (ParbleuError, ArithmeticError, ValueError) as e:
        want = f"{type(e).__name__}: {e}"
    try:
        got: float | str = mteval.system_bleu(hyps, refs, version)
    except (ParbleuError, ArithmeticError, ValueError) as e:
        got = f"{type(e).__name__}: {e}"
    assert got == want


def test_unequal_lengths_raise_as_the_script() -> None:
    with pytest.raises(ParbleuError) as full:
        _full(["a", "b"], [["a"]], "v13a")
    with pytest.raises(ParbleuError) as fast:
        mteval.system_bleu(["a", "b"], [["a"]], "v13a")
    assert str(fast.value) == str(full.value)
