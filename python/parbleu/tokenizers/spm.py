"""spBLEU: SacreBLEU's SentencePiece tokenizers, through ``sentencepiece`` (``parbleu[spm]``).

``spm`` (an alias of ``flores101``), ``flores101``, ``flores200`` and ``spBLEU-1K``.

The model is SacreBLEU's: ``$SACREBLEU/models/<basename of its URL>`` (default
``~/.sacrebleu``). A model already there (put there by SacreBLEU, or by hand) is used as it is;
otherwise it is downloaded there once. SacreBLEU publishes no checksum of the models: the
SHA-256 of the first download is recorded beside it (``<model>.sha256``) and later downloads
must match it. ``PARBLEU_SPM_MODEL=FILE`` (or ``model_file=``) uses a local model file instead.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any

from ..errors import DatasetError, TokenizerNotAvailableError
from .base import PythonTokenizer

__all__ = ["ENV_SPM_MODEL", "TokenizerSPM", "model_path"]

#: Environment variable: a local SentencePiece model used instead of the downloaded one.
ENV_SPM_MODEL = "PARBLEU_SPM_MODEL"

_log = logging.getLogger("parbleu.tokenizers")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def model_path(key: str) -> str:
    """Return where SacreBLEU keeps the model of ``key`` (the same path for both tools)."""
    from ..datasets import cache_dir, spm_model

    url = spm_model(key)["url"]
    return os.path.join(cache_dir(), "models", os.path.basename(url))


def _read_record(record: str) -> str | None:
    """Return the SHA-256 recorded beside a model (``None``: no record yet)."""
    try:
        with open(record, encoding="ascii") as f:
            words = f.read().split()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise DatasetError(
            f"cannot read {record}, the SHA-256 recorded for the SentencePiece model "
            f"({getattr(e, 'strerror', None) or e}); delete it to accept the next download"
        ) from None
    if not words or not _SHA256.fullmatch(words[0]):
        raise DatasetError(
            f"{record} does not hold a SHA-256 (it is damaged); delete it to accept the next "
            "download of the SentencePiece model"
        )
    return words[0]


def _check_loads(path: str) -> None:
    """Raise ``ValueError`` unless ``path`` is a SentencePiece model that loads."""
    import sentencepiece

    try:
        sentencepiece.SentencePieceProcessor().Load(path)
    except (OSError, RuntimeError) as e:
        raise ValueError(f"not a SentencePiece model that loads: {e}") from None


def _ensure_model(key: str) -> str:
    from ..datasets import download_file, file_digest, spm_model

    path = model_path(key)
    if os.path.exists(path) and os.path.getsize(path) > 0:
        return path
    url = spm_model(key)["url"]
    record = path + ".sha256"
    expected = _read_record(record)
    # With no checksum to prove it whole (a server that sends no length can cut it short
    # unnoticed), the model must load before it is kept and its SHA-256 recorded.
    download_file(url, path, sha256=expected, check=_check_loads)
    if expected is None:
        try:
            with open(record, "w", encoding="ascii") as f:
                f.write(f"{file_digest(path, 'sha256')}  {os.path.basename(path)}\n")
        except OSError as e:  # the model is fine; only later checks are lost
            # parbleu's own check (SacreBLEU records no digest): OWN_LOG's prefix, not SacreBLEU's.
            _log.warning(
                f"could not record the SHA-256 of {path} in {record}: {e}",
                extra={"parbleu_own": True},
            )
    return path


class TokenizerSPM(PythonTokenizer):
    """SentencePiece tokenization as SacreBLEU's ``TokenizerSPM`` (pieces joined by spaces).

    Parameters
    ----------
    key
        ``spm`` (an alias of ``flores101``), ``flores101``, ``flores200`` or ``spBLEU-1K``.
    model_file
        A local model to use instead of the cached/downloaded one (default:
        ``$PARBLEU_SPM_MODEL`` if set). The signature stays the key's.
    """

    def __init__(self, key: str = "spm", model_file: str | None = None) -> None:
        from ..datasets import spm_model

        try:
            self.name = spm_model(key)["signature"]
        except DatasetError as e:
            raise TokenizerNotAvailableError(str(e)) from None
        if key == "spm":
            _log.warning(
                "Tokenizer 'spm' has been changed to 'flores101', and may be removed in the future."
            )
        try:
            import sentencepiece
        except ImportError as exc:
            raise TokenizerNotAvailableError(
                f"tokenize={key} needs the sentencepiece package ({exc}); install it with: "
                "pip install 'parbleu[spm]'"
            ) from None
        local = model_file or os.environ.get(ENV_SPM_MODEL)
        path = local or _ensure_model(key)
        self.model_file = path
        self.sp: Any = sentencepiece.SentencePieceProcessor()
        try:
            self.sp.Load(path)
        except (OSError, RuntimeError) as e:
            hint = "" if local else "; delete it to download it again"
            raise TokenizerNotAvailableError(
                f"tokenize={key}: cannot load the SentencePiece model {path} ({e}){hint}"
            ) from None

    def signature(self) -> str:
        """Return the model's name in signatures (``flores101``, ``flores200``, ``spBLEU-1K``)."""
        return self.name

    def __call__(self, line: str) -> str:
        """Tokenize one line into space-separated pieces."""
        return " ".join(self.sp.EncodeAsPieces(line))

    def batch(self, lines: list[str]) -> list[str]:
        """Tokenize many lines in one SentencePiece call (its batch encoder)."""
        return [" ".join(p) for p in self.sp.encode(lines, out_type=str)]
