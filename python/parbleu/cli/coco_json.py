"""COCO's caption JSON on the command line: ``--coco-refs ANN.json -i RES.json [RES2.json ...]``.

``ANN.json`` is a caption annotation file as COCO ships it (``captions_val2017.json``): an object
whose ``"annotations"`` list holds ``{"image_id", "caption"}`` objects, several per image (an
optional ``"images"`` list of ``{"id"}`` gives the image order). Each ``-i`` file is a results
file as pycocotools' ``COCO.loadRes`` takes it for ``COCOEvalCap``: a list of
``{"image_id", "caption"}``, one per image. Images are aligned by ``image_id`` (the same JSON
value: ``139`` and ``"139"`` differ, as in pycocotools).

The images scored are those of the results, in the annotation file's order (the order of
``COCOEvalCap`` with ``params["image_id"] = cocoRes.getImgIds()``, COCO's usual set-up), each
with all its reference captions: the numbers are ``COCOEvalCap``'s, to the bit. Several results
files are several systems (a table, ``--paired-bs``, ``compare``, ``report``); they must caption
the same images.

Refused, each in one line naming the file (and the image id or entry): a file that is not JSON
or not of these shapes, an entry without a caption string or with an ``image_id`` that is not an
integer or a string, a result for an image without a reference caption, two results for one
image, results files captioning different images, an empty results file.

Imported only when ``--coco-refs`` is given (a plain command never loads it).
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Hashable
from typing import Any, cast

from .errors import CliError
from .io import _read_bytes, same_files

__all__ = ["check_coco_args", "main_inputs", "read_annotations", "read_coco", "read_results"]

_log = logging.getLogger("parbleu.cli")
#: parbleu's own log line (``parbleu:`` prefix; see ``parbleu.cli.OWN_LOG``).
_OWN = {"parbleu_own": True}

ImageId = Hashable


def check_coco_args(args: argparse.Namespace, command: str) -> None:
    """Refuse options that cannot go with ``--coco-refs``, before anything is read.

    Parameters
    ----------
    args
        Parsed command line (``coco_refs`` set).
    command
        Prefix of the messages (``""`` for the main command, ``"compare: "``, ...).
    """
    if args.refs:
        raise CliError(
            f"{command}--coco-refs: the references are the annotation file; give no reference "
            f"file before -i/--input (found {args.refs[0]!r})"
        )
    if args.num_refs != 1:
        raise CliError(f"{command}--coco-refs: -nr/--num-refs is for text reference files")
    if getattr(args, "test_set", None) is not None:
        raise CliError(f"{command}--coco-refs: give the annotation file or -t/--test-set, not both")
    if getattr(args, "scheduler", None) is not None:
        raise CliError(f"{command}--coco-refs: JSON files are scored in memory, not on --scheduler")
    if args.input is None:
        raise CliError(
            f"{command}--coco-refs: give the results files with -i/--input (standard input "
            "is read as text lines)"
        )
    if not args.input:
        raise CliError(f"{command}-i/--input: no results file given")


def _load(path: str, what: str) -> Any:
    """Return the parsed JSON of a file, or raise one error naming it."""
    data = _read_bytes(path, what)
    try:
        return json.loads(data)
    except json.JSONDecodeError as e:
        raise CliError(
            f"{what} {path!r}: not JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from None
    except UnicodeDecodeError as e:
        raise CliError(f"{what} {path!r}: not JSON text (UTF-8): {e.reason}") from None
    except RecursionError:
        raise CliError(f"{what} {path!r}: nested too deeply to be a caption file") from None


def _kind(v: object) -> str:
    if v is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(v), "a number"
    )


def _entry(e: object, where: str) -> tuple[ImageId, str]:
    """``(image_id, caption)`` of one ``{"image_id", "caption"}`` object."""
    if not isinstance(e, dict):
        raise CliError(f'{where}: expected an object {{"image_id", "caption"}}, found {_kind(e)}')
    if "image_id" not in e:
        raise CliError(f'{where}: no "image_id"')
    img = e["image_id"]
    if isinstance(img, bool) or not isinstance(img, (int, str)):
        raise CliError(f'{where}: "image_id" is {_kind(img)}, expected an integer or a string')
    if "caption" not in e:
        raise CliError(f"{where} (image_id {img!r}): no caption")
    cap = e["caption"]
    if not isinstance(cap, str):
        raise CliError(f'{where} (image_id {img!r}): "caption" is {_kind(cap)}, not a string')
    return img, cap


def read_annotations(path: str) -> tuple[dict[ImageId, list[str]], dict[ImageId, int]]:
    """Read a COCO caption annotation file.

    Parameters
    ----------
    path
        The file (``.gz`` is decompressed).

    Returns
    -------
    tuple
        ``({image_id: [reference captions, in file order]}, {image_id: rank})``: the rank
        orders the images as pycocotools does (the ``"images"`` list, then first annotation).
    """
    what = "annotation file"
    doc = _load(path, what)
    name = f"{what} {path!r}"
    if not isinstance(doc, dict) or not isinstance(doc.get("annotations"), list):
        found = (
            _kind(doc) if not isinstance(doc, dict) else 'an object without an "annotations" list'
        )
        raise CliError(
            f'{name}: expected COCO\'s caption annotations, an object whose "annotations" list '
            f'holds {{"image_id", "caption"}} objects; found {found}'
        )
    rank: dict[ImageId, int] = {}
    images = doc.get("images")
    if images is not None:
        if not isinstance(images, list):
            raise CliError(f'{name}: "images" is {_kind(images)}, expected a list of {{"id"}}')
        for k, im in enumerate(images):
            img = im.get("id") if isinstance(im, dict) else None
            if isinstance(img, bool) or not isinstance(img, (int, str)):
                raise CliError(f'{name}: images[{k}]: expected an object with an integer "id"')
            rank.setdefault(img, len(rank))
    refs: dict[ImageId, list[str]] = {}
    for k, e in enumerate(doc["annotations"]):
        img, cap = _entry(e, f"{name}: annotations[{k}]")
        refs.setdefault(img, []).append(cap)
        rank.setdefault(img, len(rank))
    if not refs:
        raise CliError(f"{name} holds no caption: there is nothing to score against")
    return refs, rank


def read_results(path: str, refs: dict[ImageId, list[str]], ann: str) -> dict[ImageId, str]:
    """Read a results file (``[{"image_id", "caption"}]``), each image once and referenced.

    Parameters
    ----------
    path
        The file.
    refs
        The annotation file's captions (:func:`read_annotations`).
    ann
        The annotation file's name, for messages.

    Returns
    -------
    dict
        ``{image_id: caption}``, in the file's order.
    """
    what = "results file"
    doc = _load(path, what)
    name = f"{what} {path!r}"
    if not isinstance(doc, list):
        raise CliError(
            f'{name}: expected a list of {{"image_id", "caption"}} objects (the format of '
            f"COCOEvalCap's results, COCO.loadRes), found {_kind(doc)}"
        )
    if not doc:
        raise CliError(f"{name} holds no result: there is nothing to score")
    out: dict[ImageId, str] = {}
    for k, e in enumerate(doc):
        img, cap = _entry(e, f"{name}: [{k}]")
        if img in out:
            raise CliError(f"{name}: image_id {img!r} has two results ([{k}] and an earlier one)")
        if img not in refs:
            raise CliError(
                f"{name}: image_id {img!r} has no reference caption in annotation file {ann!r}"
            )
        out[img] = cap
    return out


def read_coco(ann: str, paths: list[str]) -> tuple[list[list[str | None]], dict[str, list[str]]]:
    """Read the annotation file and every results file, aligned by image.

    Parameters
    ----------
    ann
        The annotation file (``--coco-refs``).
    paths
        The results files (``-i``), one system each, given once each.

    Returns
    -------
    tuple
        ``(reference streams, {results file: hypotheses})``: one segment per image of the
        results, in the annotation file's order; an image with fewer references than the most
        has ``None`` in the streams it lacks.
    """
    refs, rank = read_annotations(ann)
    results = {p: read_results(p, refs, ann) for p in paths}
    first, res0 = paths[0], results[paths[0]]
    for p, res in results.items():
        extra = next((i for i in res if i not in res0), None)
        missing = next((i for i in res0 if i not in res), None)
        if extra is not None or missing is not None:
            raise CliError(
                f"results file {p!r}: "
                + (
                    f"image_id {extra!r} is not in results file {first!r}"
                    if extra is not None
                    else f"no result for image_id {missing!r} (results file {first!r} has one)"
                )
                + "; every results file must caption the same images"
            )
    images = sorted(res0, key=rank.__getitem__)
    if len(images) < len(refs):
        _log.info(
            f"{ann}: scoring the {len(images)} images of the results "
            f"(of {len(refs)} with references)",
            extra=_OWN,
        )
    width = max(len(refs[i]) for i in images)
    streams: list[list[str | None]] = [
        [refs[i][j] if j < len(refs[i]) else None for i in images] for j in range(width)
    ]
    return streams, {p: [res[i] for i in images] for p, res in results.items()}


def main_inputs(
    args: argparse.Namespace, paired: bool
) -> tuple[list[list[str]], list[str], list[list[str]], list[str], list[str]]:
    """Return the main command's inputs from ``--coco-refs`` and ``-i``.

    Returns
    -------
    tuple
        ``(reference streams, their names, systems, row labels, system names)``, as the main
        command reads text files (``paired``: the first system is the baseline).
    """
    same = same_files(args.input)
    if same is not None:
        raise CliError(
            f"-i/--input: {same[0]!r} and {same[1]!r} are the same file; each system needs its "
            "own file"
        )
    labels: list[str] = []
    for p in args.input:
        if p in labels:
            if paired and p == labels[0]:
                _log.info(f"Ignoring {p!r} as it was also given as the baseline.")
                continue
            raise CliError(
                f"-i/--input: {p!r} is given twice; each system needs a different file name"
            )
        labels.append(p)
    if "bleu" in args.metrics:
        _log.info(
            "--coco-refs: -m bleu is SacreBLEU's BLEU of the raw captions, not COCOEvalCap's "
            "Bleu_4 (docs/captioning.md)",
            extra=_OWN,
        )
    streams, systems = read_coco(args.coco_refs, labels)
    sources = [f"results file {p!r}" for p in labels]
    if paired:
        labels[0] = f"Baseline: {labels[0]}"
    names = [f"annotation file {args.coco_refs!r}"] * len(streams)
    # None marks an image with fewer references: every metric's reference streams take it.
    return cast("list[list[str]]", streams), names, list(systems.values()), labels, sources
