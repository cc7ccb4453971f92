"""NIST mteval-v13a.pl and mteval-v14.pl (Moses copies, commit ``34452895``): BLEU and NIST.

System, document and segment scores of BLEU (smoothed by default, ``--no-smoothing``) and NIST,
case-insensitive by default (ASCII-only lower-casing, as ``tr/[A-Z]/[a-z]/``; ``-c`` keeps
case), the default (13a) or ``--international-tokenization`` (Perl's Unicode classes and ``lc``),
``--brevity-penalty closest|shortest``, read from SGML (entities decoded only by the tokenizer) or
XML (entities decoded by the XML reader, then again by the tokenizer) files.

* :func:`score_lines`: plain-text lines (one reference stream per reference) as the classic WMT
  pipeline scores them: each line XML-escaped into a one-document SGML (``input_format="sgm"``,
  so a literal ``&amp;`` stays ``& amp ;``) or XML (``"xml"``) file.
* :func:`evaluate`: documents and segments already read (``{docid: {segid: text}}``).
* :func:`read_sgml` / :func:`read_xml` and :func:`main`: the script's own command line
  (``-r REF -s SRC -t TST [-c] [-b|-n] [-d N] ...``) and report.

Crashes of the original become :class:`~parbleu.errors.FlavorError` (also a
``ZeroDivisionError``, ``ValueError`` or ``RuntimeError`` as appropriate): v13a dies on an empty
hypothesis side ("Can't take log of 0", line 854) and on an empty reference side; NIST divides by
zero on any segment (or document) whose references are all empty; differing segment counts are
a "FATAL ERROR". :func:`main` prints Perl's message and returns 255 there.

Not reproduced: ``-e`` (spaces around non-ASCII characters) and ``-x "ngram info"`` raise
:class:`~parbleu.errors.InvalidOptionError`; sums of NIST information weights are added in
insertion order where Perl uses its hash order (last-bit differences, below 1e-13 relative).

Modules: :mod:`.scoring` (tokenization, BLEU, NIST, :func:`evaluate`), :mod:`.lines`
(:func:`score_lines`, :func:`system_bleu`), :mod:`.script` (SGML/XML files, :func:`main`);
this package re-exports their public names.
"""

from __future__ import annotations

from .lines import score_lines, system_bleu
from .scoring import MAX_N as MAX_N  # the highest order -d 3 reports
from .scoring import MtevalResult, evaluate, perl_number, tokenize
from .script import main, read_sgml, read_xml

__all__ = [
    "MtevalResult",
    "evaluate",
    "main",
    "perl_number",
    "read_sgml",
    "read_xml",
    "score_lines",
    "system_bleu",
    "tokenize",
]
