"""Hugging Face ``evaluate`` modules on parbleu, loadable offline, and a Trainer helper.

The hub's ``sacrebleu``, ``bleu``, ``chrf`` and ``ter`` modules are scripts that
``evaluate.load(name)`` downloads at run time; offline it fails. parbleu ships modules with the
same inputs, options and output keys (and the same numbers):

* ``evaluate.load(module_path("sacrebleu"))`` loads one with ``evaluate`` itself (``pip install
  'parbleu[evaluate]'``), as a real ``evaluate.Metric`` (``add_batch``, ``compute``, ...);
* :func:`load` (also ``parbleu.evaluate_load``) needs neither ``evaluate`` nor the hub: an
  object with the same ``compute(predictions=..., references=..., **options)``,
  ``add_batch`` and ``add``.

``sacrebleu``, ``chrf`` and ``ter`` are SacreBLEU's corpus scores (``references[i]`` holds the
references of ``predictions[i]``, all with the same count, as the hub modules require);
``bleu`` is the hub's vendored tensorflow/nmt ``compute_bleu`` on 13a tokens
(:func:`parbleu.flavors.tfnmt.hf_bleu`).

:func:`compute_metrics` builds the ``compute_metrics`` callable of ``transformers.Trainer`` /
``Seq2SeqTrainer``: token ids are decoded once with the tokenizer given, and each metric scores
the whole evaluation set in one call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import InputTypeError, InvalidOptionError, LengthMismatchError

if TYPE_CHECKING:
    from ..metrics import Metric
    from ..score import Score

S = TypeVar("S", bound="Score")

__all__ = [
    "MODULES",
    "EvaluateModule",
    "compute",
    "compute_metrics",
    "hub_result",
    "load",
    "module_class",
    "module_compute",
    "module_path",
]

#: Names of the modules parbleu provides.
MODULES = ("sacrebleu", "bleu", "chrf", "ter", "rouge")


def _per_prediction(references: Sequence[Any], name: str) -> list[list[str]]:
    """Return references per prediction as the hub modules read them (equal counts)."""
    if len(references) == 0:
        raise InputTypeError(f"{name}: references is empty")
    if isinstance(references[0], str):
        return [[r] for r in references]
    refs = [list(r) for r in references]
    k = len(refs[0])
    for i, r in enumerate(refs):
        if len(r) != k:
            raise LengthMismatchError(
                f"{name}: references[{i}] has {len(r)} references but references[0] has {k}; "
                "the hub module requires the same number of references for each prediction "
                "(it raises ValueError)"
            )
    return refs


def _streams(refs: list[list[str]]) -> list[list[str]]:
    k = len(refs[0]) if refs else 0
    return [[r[j] for r in refs] for j in range(k)]


def _check_lengths(predictions: Sequence[Any], refs: list[list[str]], name: str) -> None:
    if len(predictions) != len(refs):
        raise LengthMismatchError(
            f"{name}: {len(predictions)} predictions but {len(refs)} references; nothing is "
            "truncated"
        )


def _corpus_score(
    make: Callable[[], Metric[S]], predictions: Sequence[Any], references: Sequence[Any], name: str
) -> S:
    """Check the inputs of module ``name``, then score them with the metric ``make()`` gives."""
    refs = _per_prediction(references, name)
    _check_lengths(predictions, refs, name)
    return make().corpus_score(list(predictions), _streams(refs))


#: The keys of the hub modules' results on SacreBLEU's scores: each is the score's attribute of
#: the same name (on parbleu's scores too).
_RESULT_KEYS = {
    "sacrebleu": ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len"),
    "chrf": ("score", "char_order", "word_order", "beta"),
    "ter": ("score", "num_edits", "ref_length"),
}


def hub_result(name: str, score: Any) -> dict[str, Any]:
    """Return what the hub module ``name`` returns for a corpus score.

    Parameters
    ----------
    name
        ``"sacrebleu"``, ``"chrf"`` or ``"ter"``.
    score
        The corpus score: parbleu's, or SacreBLEU's (the hub module's own).

    Returns
    -------
    dict
        The hub module's keys, each the score's attribute of that name.
    """
    return {key: getattr(score, key) for key in _RESULT_KEYS[name]}


def _sacrebleu(
    predictions: Sequence[str],
    references: Sequence[Any],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str | None = None,
    use_effective_order: bool = False,
) -> dict[str, Any]:
    from ..compat import make_bleu

    out = _corpus_score(
        lambda: make_bleu(
            smooth_method, smooth_value, force, lowercase, tokenize, use_effective_order
        ),
        predictions,
        references,
        "sacrebleu",
    )
    return hub_result("sacrebleu", out)


def _chrf(
    predictions: Sequence[str],
    references: Sequence[Any],
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> dict[str, Any]:
    from ..metrics import CHRF

    out = _corpus_score(
        lambda: CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing),
        predictions,
        references,
        "chrf",
    )
    return hub_result("chrf", out)


def _ter(
    predictions: Sequence[str],
    references: Sequence[Any],
    normalized: bool = False,
    ignore_punct: bool = False,
    support_zh_ja_chars: bool = False,
    case_sensitive: bool = False,
) -> dict[str, Any]:
    from ..metrics import TER

    out = _corpus_score(
        lambda: TER(
            normalized=normalized,
            no_punct=ignore_punct,
            asian_support=support_zh_ja_chars,
            case_sensitive=case_sensitive,
        ),
        predictions,
        references,
        "ter",
    )
    return hub_result("ter", out)


def _bleu(predictions: Sequence[str], references: Sequence[Any], **kwargs: Any) -> dict[str, Any]:
    from ..flavors.tfnmt import hf_bleu

    if len(references) == 0:
        raise InputTypeError("bleu: references is empty")
    return hf_bleu(predictions, references, **kwargs)


def _rouge(predictions: Sequence[str], references: Sequence[Any], **kwargs: Any) -> dict[str, Any]:
    from .evaluate_rouge import rouge_compute

    return rouge_compute(predictions, references, **kwargs)


_COMPUTE: dict[str, Callable[..., dict[str, Any]]] = {
    "sacrebleu": _sacrebleu,
    "bleu": _bleu,
    "chrf": _chrf,
    "ter": _ter,
    "rouge": _rouge,
}


def _check_name(name: str) -> str:
    if name not in _COMPUTE:
        raise InvalidOptionError(
            f"module {name!r}: parbleu provides {', '.join(repr(m) for m in MODULES)}"
        )
    return name


def compute(
    name: str, predictions: Sequence[str], references: Sequence[Any], **options: Any
) -> dict[str, Any]:
    """Score as the hub module ``name``'s ``compute(predictions=..., references=..., **options)``.

    Parameters
    ----------
    name
        ``"sacrebleu"``, ``"bleu"``, ``"chrf"`` or ``"ter"``.
    predictions
        One string per segment.
    references
        Per prediction, a list of references (or one string).
    **options
        The hub module's options (e.g. ``tokenize``, ``lowercase``, ``word_order``).

    Returns
    -------
    dict
        The hub module's keys and values.
    """
    fn = _COMPUTE[_check_name(name)]
    if isinstance(predictions, str):
        raise InputTypeError(f"{name}: predictions is a string; expected a list of strings")
    try:
        return fn(list(predictions), references, **options)
    except TypeError as exc:
        if "unexpected keyword argument" in str(exc):
            raise InvalidOptionError(f"{name}: {exc}") from None
        raise


def module_compute(
    module: Any,
    name: str,
    predictions: Any,
    references: Any,
    options: dict[str, Any],
    full: Callable[..., Any],
) -> Any:
    """``compute`` of parbleu's ``evaluate.Metric`` modules: one process scores directly.

    ``evaluate.EvaluationModule.compute`` writes the inputs to an Arrow cache file, fingerprints
    and reads them back, which is what gathers the batches of several processes; for a single
    process given its inputs, with nothing queued, it took ~95 % of the call (20 systems x 50
    segments: 27 ms a call through evaluate, 1 ms scoring). That case scores the inputs as given
    (the same numbers; no cache file is written); every other case (``add_batch`` before,
    ``num_process > 1``, no inputs) is ``full``, evaluate's own ``compute``.

    Parameters
    ----------
    module
        The ``evaluate.Metric`` instance.
    name
        ``"sacrebleu"``, ``"bleu"``, ``"chrf"`` or ``"ter"``.
    predictions, references, options
        The arguments of ``compute``.
    full
        evaluate's ``compute`` (the module's ``super().compute``).

    Returns
    -------
    dict or None
        The hub module's result (``None`` on processes other than 0, as evaluate).
    """
    direct = (
        predictions is not None
        and references is not None
        and getattr(module, "num_process", 1) == 1
        and getattr(module, "writer", None) is None
        and getattr(module, "buf_writer", None) is None
    )
    if not direct:
        return full(predictions=predictions, references=references, **options)
    return compute(name, predictions, references, **options)


class EvaluateModule:
    """What ``evaluate.load(name)`` returns, for parbleu's modules, without ``evaluate``.

    Parameters
    ----------
    name
        ``"sacrebleu"``, ``"bleu"``, ``"chrf"`` or ``"ter"``.
    **defaults
        Options used by every :meth:`compute` (overridden by its own).
    """

    def __init__(self, name: str, **defaults: Any) -> None:
        self.name = _check_name(name)
        self.defaults = defaults
        self._predictions: list[str] = []
        self._references: list[Any] = []

    def add_batch(self, *, predictions: Sequence[str], references: Sequence[Any]) -> None:
        """Queue a batch for the next :meth:`compute`."""
        if len(predictions) != len(references):
            raise LengthMismatchError(
                f"{self.name}: add_batch got {len(predictions)} predictions and "
                f"{len(references)} references"
            )
        self._predictions.extend(predictions)
        self._references.extend(references)

    def add(self, *, prediction: str, reference: Any) -> None:
        """Queue one segment for the next :meth:`compute`."""
        self._predictions.append(prediction)
        self._references.append(reference)

    def compute(
        self,
        *,
        predictions: Sequence[str] | None = None,
        references: Sequence[Any] | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Score the given segments, or those queued with :meth:`add_batch` / :meth:`add`.

        Parameters
        ----------
        predictions, references
            As the hub module; ``None`` for the queued ones.
        **options
            The hub module's options.

        Returns
        -------
        dict
            The hub module's result.
        """
        if predictions is None and references is None:
            predictions, references = self._predictions, self._references
            self._predictions, self._references = [], []
        elif predictions is None or references is None:
            raise InputTypeError(f"{self.name}: give both predictions and references, or none")
        else:
            predictions = [*self._predictions, *predictions]
            references = [*self._references, *references]
            self._predictions, self._references = [], []
        return compute(self.name, predictions, references, **{**self.defaults, **options})

    def __repr__(self) -> str:
        return f"EvaluateModule(name={self.name!r})"


def load(name: str, **defaults: Any) -> EvaluateModule:
    """``evaluate.load(name)`` for ``sacrebleu``, ``bleu``, ``chrf``, ``ter``: no hub needed.

    Parameters
    ----------
    name
        The module name.
    **defaults
        Options for every ``compute``.

    Returns
    -------
    EvaluateModule
        An object with ``compute``, ``add_batch`` and ``add``.
    """
    return EvaluateModule(name, **defaults)


def module_path(name: str) -> str:
    """Directory to pass to ``evaluate.load`` for parbleu's module ``name`` (offline).

    Parameters
    ----------
    name
        ``"sacrebleu"``, ``"bleu"``, ``"chrf"`` or ``"ter"``.

    Returns
    -------
    str
        ``.../parbleu/integrations/evaluate_modules/<name>``.
    """
    return str(Path(__file__).with_name("evaluate_modules") / _check_name(name))


def _ids(x: Any) -> Any:
    import numpy as np

    if isinstance(x, tuple):  # (generated ids, ...) or (logits, ...)
        x = x[0]
    arr = np.asarray(x)
    if arr.ndim == 3:  # logits: the argmax is what a greedy decoder would emit
        arr = arr.argmax(axis=-1)
    if arr.ndim != 2:
        raise InputTypeError(
            f"compute_metrics: expected (batch, length) token ids, got shape {arr.shape}"
        )
    return arr


def compute_metrics(
    tokenizer: Any,
    metrics: Sequence[str] = ("sacrebleu",),
    *,
    ignore_index: int = -100,
    **options: Any,
) -> Callable[[Any], dict[str, float]]:
    """Build a ``compute_metrics`` for ``transformers.Trainer`` / ``Seq2SeqTrainer``.

    Parameters
    ----------
    tokenizer
        Anything with ``batch_decode(ids, skip_special_tokens=True)`` and ``pad_token_id``.
    metrics
        Names of the metric registry (``"bleu"``, ``"chrf"``, ``"chrf++"``, ``"ter"``,
        ``"rouge"``, and any metric registered later), or ``"sacrebleu"`` (BLEU, the hub
        module's name).
    ignore_index
        The label padding the Trainer uses; replaced by ``pad_token_id`` before decoding.
    **options
        ``tokenize``/``lowercase`` for BLEU, passed to :class:`parbleu.BLEU`.

    Returns
    -------
    callable
        ``f(eval_pred) -> {"bleu": ..., "chrf": ..., "ter": ...}``: one key per reported
        column (the metric's name; a metric with several scores, as ROUGE, one key each:
        ``"rouge1"``, ``"rouge2"``, ...); ``eval_pred`` is an ``EvalPrediction`` or a
        ``(predictions, label_ids)`` tuple. Ids are decoded once; each metric scores the whole
        set in one batch call.

    Raises
    ------
    InvalidOptionError
        An unknown name (the message lists the registry's names).
    """
    from ..metrics.registry import get_metric

    scorers: dict[str, Any] = {}
    for m in metrics:
        name = "bleu" if m == "sacrebleu" else m
        entry = get_metric(name, "compute_metrics")
        # BLEU takes **options, as it always has; other metrics their registry defaults.
        key = name.lower()
        made = entry.create(
            alias=key if key != entry.name else None,
            **(options if entry.name == "bleu" else {}),
        )
        cols = made.columns()
        for col in cols:
            scorers[entry.name if len(cols) == 1 else col.title] = col
    pad = getattr(tokenizer, "pad_token_id", None)

    def fn(eval_pred: Any) -> dict[str, float]:
        import numpy as np

        if hasattr(eval_pred, "predictions"):
            preds, labels = eval_pred.predictions, eval_pred.label_ids
        else:
            preds, labels = eval_pred
        p, lab = _ids(preds), _ids(labels)
        if pad is not None:
            p = np.where(p == ignore_index, pad, p)
            lab = np.where(lab == ignore_index, pad, lab)
        hyps = [s.strip() for s in tokenizer.batch_decode(p, skip_special_tokens=True)]
        refs = [s.strip() for s in tokenizer.batch_decode(lab, skip_special_tokens=True)]
        if len(hyps) != len(refs):
            raise LengthMismatchError(
                f"compute_metrics: {len(hyps)} predictions but {len(refs)} labels"
            )
        return {k: float(s.corpus_score(hyps, [refs]).score) for k, s in scorers.items()}

    return fn


_DESCRIPTIONS = {
    "sacrebleu": "SacreBLEU's corpus BLEU (parbleu: same keys and numbers as the hub module).",
    "bleu": "tensorflow/nmt BLEU on 13a tokens, as the hub's `bleu` module (parbleu).",
    "chrf": "SacreBLEU's chrF / chrF++ (parbleu: same keys and numbers as the hub module).",
    "ter": "SacreBLEU's TER (parbleu: same keys and numbers as the hub module).",
    "rouge": "rouge-score's ROUGE (parbleu: same keys and numbers as the hub module).",
}


def _info(evaluate: Any, datasets: Any, name: str) -> Any:
    """Return the ``MetricInfo`` of module ``name``: the hub module's two input layouts."""
    string = datasets.Value("string", id="sequence")
    return evaluate.MetricInfo(
        description=_DESCRIPTIONS[name],
        citation="",
        inputs_description=(compute.__doc__ or ""),
        features=[
            datasets.Features(
                {
                    "predictions": string,
                    "references": datasets.Sequence(string, id="references"),
                }
            ),
            datasets.Features({"predictions": string, "references": string}),
        ],
    )


def module_class(name: str, class_name: str, script: str) -> type:
    """Build the ``evaluate.Metric`` subclass of parbleu's module script for ``name``.

    The five scripts under ``evaluate_modules/`` differ only in the module name, so each one is
    a single call: ``Bleu = module_class("bleu", "Bleu", __name__)``. ``evaluate.load`` takes
    the first ``EvaluationModule`` subclass in the script's namespace; the class keeps the name
    and module a class written in the script would have (evaluate derives the module name from
    the class name, and pickling finds the class through them).

    Parameters
    ----------
    name
        The module name (one of :data:`MODULES`).
    class_name
        The class's ``__name__`` (``"Bleu"``, ``"ChrF"``, ...).
    script
        The script's ``__name__``.

    Returns
    -------
    type
        A subclass of ``evaluate.Metric``.
    """
    import datasets
    import evaluate

    _check_name(name)

    class Module(evaluate.Metric):  # type: ignore[misc]
        """The hub module's inputs, options and outputs (:mod:`parbleu.integrations.evaluate`)."""

        def _info(self) -> Any:
            return _info(evaluate, datasets, name)

        def _compute(self, predictions: Any, references: Any, **options: Any) -> dict[str, Any]:
            return compute(name, predictions, references, **options)

        def compute(
            self, *, predictions: Any = None, references: Any = None, **options: Any
        ) -> Any:
            """Score as evaluate does; one process given its inputs skips the Arrow cache."""
            return module_compute(self, name, predictions, references, options, super().compute)

    Module.__name__ = Module.__qualname__ = class_name
    Module.__module__ = script
    return Module
