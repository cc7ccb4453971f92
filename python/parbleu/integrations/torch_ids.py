"""Sentence BLEU of token-id tensors, counted with torch on the tensors' own device.

The n-gram counting of TensorBLEU (Filipek 2025): for each order, the n-grams of the whole
batch (hypotheses and references, tagged with their row) are made compact with
``torch.unique(dim=0)``, counted with ``bincount``, clipped by the maximum over the reference
streams and summed per row. Only the ``(batch, 2 + 2 * order)`` statistics leave the device;
the scores are then SacreBLEU's arithmetic in parbleu's core, so they equal
``BLEU.sentence_scores_ids`` (and ``BLEU(tokenize="none")`` on the ids as text) exactly.

Padding follows :mod:`parbleu.ids`: ``pad_id`` is dropped wherever it occurs (the remaining
tokens are packed left first, so n-grams run across a dropped id in the middle exactly as on the
CPU path) and ``lengths`` keeps a prefix of each row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

try:
    import torch
except ImportError as exc:  # pragma: no cover - exercised without the extra
    raise ImportError(
        "parbleu.integrations.torch_ids needs torch: pip install 'parbleu[torch]'"
    ) from exc

from ..errors import InputTypeError, LengthMismatchError

if TYPE_CHECKING:
    from ..metrics.bleu import BLEU

__all__ = ["extract_stats_ids_torch", "sentence_scores_ids_torch"]


def _packed(x: Any, pad_id: int | None, lengths: Any, what: str) -> tuple[Any, Any]:
    """Pack the valid ids of each row to the left; return them and their count per row."""
    if not isinstance(x, torch.Tensor) or x.dim() != 2:
        raise InputTypeError(f"{what}: expected a 2-D (batch, length) torch tensor")
    if x.dtype.is_floating_point or x.dtype == torch.bool or x.dtype.is_complex:
        raise InputTypeError(f"{what}: token ids must be integers, got dtype {x.dtype}")
    x = x.to(torch.int64)
    b, width = x.shape
    valid = torch.ones_like(x, dtype=torch.bool)
    if pad_id is not None:
        valid &= x != int(pad_id)
    if lengths is not None:
        lens = torch.as_tensor(lengths, device=x.device).to(torch.int64).reshape(-1)
        if lens.shape[0] != b:
            raise LengthMismatchError(f"{what} lengths: expected {b} lengths, got {lens.shape[0]}")
        if bool(((lens < 0) | (lens > width)).any()):
            raise InputTypeError(f"{what} lengths: expected 0 <= length <= {width}")
        valid &= torch.arange(width, device=x.device)[None, :] < lens[:, None]
    # A stable sort of "invalid" keeps the valid ids in order, first.
    order = torch.sort((~valid).to(torch.int8), dim=1, stable=True).indices
    return torch.gather(x, 1, order), valid.sum(dim=1)


def _ngrams(x: Any, lens: Any, n: int) -> tuple[Any, Any]:
    """Rows ``(row, id_1..id_n)`` of every valid n-gram, and the number per row."""
    b, width = x.shape
    if width < n:
        empty = torch.zeros((0, n + 1), dtype=torch.int64, device=x.device)
        return empty, torch.zeros(b, dtype=torch.int64, device=x.device)
    grams = x.unfold(1, n, 1)  # (b, width - n + 1, n), a view
    count = (lens - n + 1).clamp(min=0)
    keep = torch.arange(width - n + 1, device=x.device)[None, :] < count[:, None]
    rows = torch.arange(b, device=x.device)[:, None].expand(b, width - n + 1)
    tagged = torch.cat([rows[keep][:, None], grams[keep]], dim=1)
    return tagged, count


def extract_stats_ids_torch(
    hyp_ids: Any,
    ref_ids: Sequence[Any],
    *,
    pad_id: int | None = None,
    lengths: Any = None,
    ref_lengths: Sequence[Any] | None = None,
    max_ngram_order: int = 4,
) -> Any:
    """BLEU statistics of token-id tensors, on their device.

    Parameters
    ----------
    hyp_ids
        ``(batch, length)`` integer tensor.
    ref_ids
        A list of reference streams, each a ``(batch, length_k)`` tensor on the same device.
    pad_id
        Id dropped wherever it occurs, or ``None``.
    lengths, ref_lengths
        Valid length of each hypothesis row / of each row of each stream, or ``None``.
    max_ngram_order
        Highest n-gram order.

    Returns
    -------
    torch.Tensor
        int64, ``(batch, 2 + 2 * max_ngram_order)``, SacreBLEU's column order (equal to
        :func:`parbleu.ids.extract_stats_ids`).
    """
    if isinstance(ref_ids, torch.Tensor) or not isinstance(ref_ids, (list, tuple)):
        raise InputTypeError(
            "references: expected a list of reference streams ([refs] for one reference per "
            "segment), each a 2-D tensor"
        )
    if not ref_ids:
        raise InputTypeError("references: no reference stream given")
    if ref_lengths is not None and len(ref_lengths) != len(ref_ids):
        raise LengthMismatchError(
            f"ref_lengths: {len(ref_lengths)} entries for {len(ref_ids)} reference streams"
        )
    hyp, hlen = _packed(hyp_ids, pad_id, lengths, "hypotheses")
    b = hyp.shape[0]
    if b == 0:
        from ..errors import EmptyInputError

        raise EmptyInputError("hypotheses: empty batch; expected at least one segment")
    refs = []
    for k, r in enumerate(ref_ids):
        rl = None if ref_lengths is None else ref_lengths[k]
        packed, rlen = _packed(r, pad_id, rl, f"references[{k}]")
        if packed.shape[0] != b:
            raise LengthMismatchError(
                f"references[{k}] has {packed.shape[0]} rows but there are {b} hypotheses; "
                "nothing is truncated"
            )
        refs.append((packed.to(hyp.device), rlen.to(hyp.device)))
    out = torch.zeros((b, 2 + 2 * max_ngram_order), dtype=torch.int64, device=hyp.device)
    out[:, 0] = hlen
    # Closest reference length, ties to the shorter one (SacreBLEU).
    rlens = torch.stack([rl for _, rl in refs], dim=1)
    key = (rlens - hlen[:, None]).abs() * (1 << 32) + rlens
    out[:, 1] = torch.gather(rlens, 1, key.argmin(dim=1, keepdim=True)).squeeze(1)
    for n in range(1, max_ngram_order + 1):
        h_grams, h_count = _ngrams(hyp, hlen, n)
        r_grams = [_ngrams(r, rl, n)[0] for r, rl in refs]
        both = torch.cat([h_grams, *r_grams], dim=0)
        if both.shape[0] == 0:
            continue
        uniq, inverse = torch.unique(both, dim=0, return_inverse=True)
        u = uniq.shape[0]
        h_counts = torch.bincount(inverse[: h_grams.shape[0]], minlength=u)
        ref_max = torch.zeros(u, dtype=torch.int64, device=hyp.device)
        start = h_grams.shape[0]
        for g in r_grams:
            cnt = torch.bincount(inverse[start : start + g.shape[0]], minlength=u)
            ref_max = torch.maximum(ref_max, cnt)
            start += g.shape[0]
        clipped = torch.minimum(h_counts, ref_max)
        matches = torch.zeros(b, dtype=torch.int64, device=hyp.device)
        matches.scatter_add_(0, uniq[:, 0], clipped)
        out[:, 1 + n] = matches
        out[:, 1 + max_ngram_order + n] = h_count
    return out


def sentence_scores_ids_torch(
    metric: BLEU,
    hyp_ids: Any,
    ref_ids: Sequence[Any],
    *,
    pad_id: int | None = None,
    lengths: Any = None,
    ref_lengths: Sequence[Any] | None = None,
) -> Any:
    """Sentence BLEU of every row, counted on the tensors' device (e.g. RL rewards on GPU).

    Parameters
    ----------
    metric
        The ``BLEU`` object: its smoothing, ``effective_order`` and ``max_ngram_order`` apply
        (its tokenizer and ``lowercase`` do not).
    hyp_ids, ref_ids, pad_id, lengths, ref_lengths
        As in :func:`extract_stats_ids_torch`.

    Returns
    -------
    torch.Tensor
        float64 scores (0-100) on ``hyp_ids``' device; equal to
        ``metric.sentence_scores_ids(...)``.
    """
    stats = extract_stats_ids_torch(
        hyp_ids,
        ref_ids,
        pad_id=pad_id,
        lengths=lengths,
        ref_lengths=ref_lengths,
        max_ngram_order=metric.max_ngram_order,
    )
    metric.num_refs = len(ref_ids)
    rows = stats.cpu().numpy()
    scores = metric.score_rows(rows, 1)
    return torch.from_numpy(scores).to(hyp_ids.device)
