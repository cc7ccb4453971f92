"""Bad input to the coco metrics: one clear parbleu error each, never a score where the original
raises (issue 27's list: empty input, mismatched counts and ids, an image missing from ``res``,
absurd n-gram orders; Java and the jar are in ``test_coco_java.py``).

Where pycocoevalcap is installed, the original is run on the same input to show that it raises
too (or returns NaN): these are its failures, not new ones.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from parbleu.errors import (
    EmptyInputError,
    FlavorError,
    InvalidOptionError,
    InvalidTextError,
    ParbleuError,
)
from parbleu.flavors import coco

HAVE_ORIGINAL = importlib.util.find_spec("pycocoevalcap") is not None

G = {1: ["a dog runs"], 2: ["a cat sits"]}
R = {1: ["a dog"], 2: ["a cat"]}

#: (case, gts, res, parbleu's error and the original's exception class it also is)
INPUTS: list[tuple[str, Any, Any, type[Exception], type[Exception] | None]] = [
    ("empty", {}, {}, EmptyInputError, None),
    ("keys differ", {1: ["a"]}, {2: ["a"]}, FlavorError, AssertionError),
    ("image missing from res", G, {1: ["a dog"]}, FlavorError, AssertionError),
    ("image missing from gts", {1: ["a dog"]}, R, FlavorError, AssertionError),
    ("two hypotheses", G, {1: ["a", "b"], 2: ["a cat"]}, FlavorError, AssertionError),
    ("no hypothesis", G, {1: [], 2: ["a cat"]}, FlavorError, AssertionError),
    ("no reference", {1: [], 2: ["a cat"]}, R, FlavorError, AssertionError),
    ("hypothesis not a list", G, {1: "a dog", 2: ["a cat"]}, FlavorError, AssertionError),
    ("caption not a string", {1: [["a", "dog"]], 2: ["a cat"]}, R, FlavorError, AssertionError),
    ("not dicts", [["a"]], [["a"]], FlavorError, AssertionError),
]

METRICS: dict[str, Callable[[Any, Any], Any]] = {
    "Cider": lambda g, r: coco.Cider().compute_score(g, r),
    "Rouge": lambda g, r: coco.Rouge().compute_score(g, r),
    "Bleu": lambda g, r: coco.Bleu(4).compute_score(g, r, verbose=0),
    "evaluate": lambda g, r: coco.evaluate(
        g, r, metrics=["Bleu", "ROUGE_L", "CIDEr"], tokenize=False
    ),
}


def _cases() -> list[Any]:
    out = []
    for case, gts, res, err, orig in INPUTS:
        for metric in METRICS:
            if case == "empty" and metric == "Bleu":
                continue  # the original scores an empty set 0: test_bleu_of_nothing
            out.append(pytest.param(metric, gts, res, err, orig, id=f"{metric}-{case}"))
    return out


@pytest.mark.parametrize(("metric", "gts", "res", "err", "orig"), _cases())
def test_bad_input_is_one_clear_error(
    metric: str, gts: Any, res: Any, err: type[Exception], orig: type[Exception] | None
) -> None:
    with pytest.raises(err) as ei:
        METRICS[metric](gts, res)
    assert isinstance(ei.value, ParbleuError)
    if orig is not None:
        assert isinstance(ei.value, orig)
    assert str(ei.value).startswith("coco:")


def _original(metric: str) -> Callable[[Any, Any], Any]:
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    def bleu(g: Any, r: Any) -> Any:
        with contextlib.redirect_stdout(io.StringIO()):
            return Bleu(4).compute_score(g, r, verbose=0)

    return {"Cider": Cider().compute_score, "Rouge": Rouge().compute_score, "Bleu": bleu}[metric]


@pytest.mark.skipif(not HAVE_ORIGINAL, reason="pycocoevalcap is not installed (extra coco)")
@pytest.mark.parametrize(("case", "gts", "res"), [(c, g, r) for c, g, r, _, _ in INPUTS[:-1]])
@pytest.mark.parametrize("metric", ["Cider", "Rouge", "Bleu"])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_the_original_fails_there_too(metric: str, case: str, gts: Any, res: Any) -> None:
    if case == "empty" and metric == "Bleu":
        return
    try:
        mean, _ = _original(metric)(gts, res)
    except (AssertionError, ValueError, AttributeError, KeyError, TypeError):
        return
    assert metric == "Rouge" and case == "empty" and np.isnan(mean)  # numpy's mean of nothing


def test_bleu_of_nothing_is_the_originals_zeros() -> None:
    assert coco.Bleu(4).compute_score({}, {}, verbose=0) == ([0.0] * 4, [[], [], [], []])


def test_cider_without_reference_words() -> None:
    # The original: ValueError (max() of no document frequency).
    with pytest.raises(FlavorError, match="max") as ei:
        coco.Cider().compute_score({1: ["", "  "]}, {1: ["a dog"]})
    assert isinstance(ei.value, ValueError)


@pytest.mark.parametrize("n", [0, -1, 10**9, 2**70, 2.5, "4", None])
@pytest.mark.parametrize(
    "make",
    [
        lambda n: coco.Cider(n=n),
        lambda n: coco.Bleu(n),
        lambda n: coco.BleuScorer(n=n),
    ],
    ids=["Cider", "Bleu", "BleuScorer"],
)
def test_absurd_orders_are_refused(make: Callable[[Any], Any], n: Any) -> None:
    # The original: IndexError or empty score lists for n < 1, memory exhausted for 10**9.
    with pytest.raises(InvalidOptionError, match="n"):
        make(n)


@pytest.mark.parametrize("sigma", [0, 0.0, -6.0, float("nan"), float("inf"), "6", None, True])
def test_absurd_sigma_is_refused(sigma: Any) -> None:
    # The original: ZeroDivisionError at 0, NaN scores for NaN, |sigma| for a negative one.
    with pytest.raises(InvalidOptionError, match="sigma"):
        coco.Cider(sigma=sigma)


@pytest.mark.parametrize("option", ["tokenize", "verbose"])
@pytest.mark.parametrize("value", ["no", 2, -1, 0.5, None])
def test_evaluate_flags_are_checked(option: str, value: Any) -> None:
    # A truthy string would otherwise run the PTB tokenizer (Java) or print.
    with pytest.raises(InvalidOptionError, match=option):
        coco.evaluate({1: ["a dog"]}, {1: ["a dog"]}, metrics=["CIDEr"], **{option: value})


@pytest.mark.parametrize("workers", [1.5, "2", True, float("nan")])
@pytest.mark.parametrize("make", [coco.Cider, coco.Rouge], ids=["Cider", "Rouge"])
def test_absurd_workers_are_refused(make: Callable[..., Any], workers: Any) -> None:
    with pytest.raises(InvalidOptionError, match="workers"):
        make(workers=workers)


@pytest.mark.parametrize("workers", [0, -5, 10**9, 2**63])
@pytest.mark.parametrize("make", [coco.Cider, coco.Rouge], ids=["Cider", "Rouge"])
def test_out_of_range_workers_mean_all_cores(make: Callable[..., Any], workers: Any) -> None:
    # As everywhere in parbleu: < 1 is all cores, more than the cores is capped.
    gts = {1: ["a dog runs fast", "the dog runs"], 2: ["a cat sits", "cat on a mat"]}
    res = {1: ["a dog runs"], 2: ["a cat sits on a mat"]}
    want = make(workers=1).compute_score(gts, res)
    got = make(workers=workers).compute_score(gts, res)
    assert got[0] == want[0]
    assert np.array_equal(got[1], want[1])


@pytest.mark.parametrize(
    ("metrics", "err"),
    [(["nope"], InvalidOptionError), ([], InvalidOptionError), (["cider"], InvalidOptionError)],
)
def test_evaluate_metrics_checked(metrics: list[str], err: type[Exception]) -> None:
    with pytest.raises(err, match="metrics="):
        coco.evaluate(G, R, metrics=metrics, tokenize=False)


class _Coco:
    def __init__(self, anns: dict[int, list[dict[str, str]]]) -> None:
        self.imgToAnns = anns

    def getImgIds(self) -> list[int]:
        return list(self.imgToAnns)


def test_cocoevalcap_image_missing_from_results() -> None:
    gt = _Coco({1: [{"caption": "a dog runs"}], 2: [{"caption": "a cat"}]})
    res = _Coco({1: [{"caption": "a dog"}]})
    ev = coco.COCOEvalCap(gt, res, metrics=["CIDEr"], tokenize=False, verbose=False)
    with pytest.raises(FlavorError, match="image id 2") as ei:
        ev.evaluate()
    assert isinstance(ei.value, KeyError)


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parbleu", "--flavor", "coco", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("hyp", "ref", "extra", "code", "message"),
    [
        ("a b\n", "a b\nc d\n", [], 1, "has 1 line but reference file"),
        ("a b\n", "a b\n", ["--max-order", "0"], 2, "expected an integer from 1 to 100"),
        ("a b\n", "a b\n", ["--max-order", "5"], 1, "IndexError"),
    ],
    ids=["counts differ", "order 0", "order above 4"],
)
def test_cli_bad_input(
    tmp_path: Path, hyp: str, ref: str, extra: list[str], code: int, message: str
) -> None:
    (tmp_path / "hyp.txt").write_text(hyp, encoding="utf-8")
    (tmp_path / "ref.txt").write_text(ref, encoding="utf-8")
    p = _cli(tmp_path, "ref.txt", "-i", "hyp.txt", *extra)
    assert p.returncode == code, p.stderr
    assert message in p.stderr and "Traceback" not in p.stderr
    assert p.stdout == ""


# --- issue 36's adversarial battery ---------------------------------------------------------


@pytest.mark.parametrize(
    ("sigma", "what"),
    [(1e-200, "underflows"), (5e-324, "underflows"), (10**400, "too large"), (1e200, "overflows")],
)
def test_sigma_the_original_cannot_square(sigma: Any, what: str) -> None:
    # The original: ZeroDivisionError (1e-200, 5e-324) or OverflowError (10**400, 1e200),
    # where parbleu returned NaN, raised a raw OverflowError or returned a score.
    with pytest.raises(InvalidOptionError, match=f"^sigma=.*{what}"):
        coco.Cider(sigma=sigma)
    if HAVE_ORIGINAL:
        from pycocoevalcap.cider.cider import Cider

        with pytest.raises((ZeroDivisionError, OverflowError)):
            Cider(sigma=sigma).compute_score({1: ["a dog"]}, {1: ["a dog runs"]})


@pytest.mark.parametrize("sigma", [np.int64(6), np.float64(6.0), np.int32(6), 6])
def test_sigma_numpy_numbers_as_the_original(sigma: Any) -> None:
    got = coco.Cider(sigma=sigma).compute_score(G, R)
    want = coco.Cider(sigma=6.0).compute_score(G, R)
    assert got[0] == want[0]


@pytest.mark.parametrize("metric", ["Cider", "Rouge", "Bleu"])
@pytest.mark.parametrize("side", ["gts", "res"])
def test_lone_surrogate_names_the_image(metric: str, side: str) -> None:
    gts = {1: ["a dog"], "img9": ["a cat"]}
    res = {1: ["a dog"], "img9": ["a cat"]}
    (gts if side == "gts" else res)["img9"] = ["a \ud800 cat"]
    with pytest.raises(InvalidTextError, match=f"{side}\\['img9'\\].*surrogate U\\+D800"):
        METRICS[metric](gts, res)


@pytest.mark.parametrize("reflen", [float("inf"), float("nan"), -1.0, "3", 10**400])
def test_special_reflen_absurd(reflen: Any) -> None:
    # The original: ZeroDivisionError at infinity (ratio 0).
    with pytest.raises(InvalidOptionError, match="special_reflen"):
        coco.BleuScorer(n=4, special_reflen=reflen)


def test_special_reflen_finite_as_before() -> None:
    b = coco.BleuScorer(n=4, special_reflen=3)
    b += ("a dog runs", ["a dog runs fast"])
    assert b.compute_score(option="closest")[0][0] > 0.99
