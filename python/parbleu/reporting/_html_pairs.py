"""The side-by-side section of the report page: n-grams and segments of two systems."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._markup import SHOW_CHARS, SHOW_NGRAM, clip_text, esc, more, sys_attr, table, th


def _repeats(seg: dict[str, Any]) -> str:
    """`` (also #12, #40: the same texts)`` for a segment shown once for its copies."""
    n = seg.get("n_repeats", 0)
    if not n:
        return ""
    listed = ", ".join(f"#{i + 1}" for i in seg["repeats"])
    more = f" and {n - len(seg['repeats'])} more" if n > len(seg["repeats"]) else ""
    return f" (also {listed}{more}: the same reference and outputs)"


def _marked(pieces: Sequence[tuple[str, int]]) -> str:
    return " ".join(
        f'<span class="tok m{lv}">{esc(t)}</span>' if lv else esc(t) for t, lv in pieces
    )


def _tokens(tokens: Sequence[str], levels: Sequence[int], limit: int = SHOW_CHARS) -> str:
    """Tokens with their match level; past ``limit`` characters the rest folds away."""
    shown: list[tuple[str, int]] = []
    rest: list[tuple[str, int]] = []
    used = 0
    for t, lv in zip(tokens, levels):
        if used >= limit:
            rest.append((t, lv))
        elif used + len(t) > limit:  # the token that crosses the limit is split there
            shown.append((t[: limit - used], lv))
            rest.append((t[limit - used :], lv))
            used = limit
        else:
            shown.append((t, lv))
            used += len(t) + 1
    if not rest:
        return _marked(shown)
    hidden = sum(len(t) for t, _ in rest) + len(rest) - 1
    return _marked(shown) + " " + more(_marked(rest), hidden)


def pair_section(data: dict[str, Any]) -> str:
    if not data["pairs"]:
        return ""
    options = "".join(
        f'<option value="{i}">{esc(p["a"])} vs {esc(p["b"])}</option>'
        for i, p in enumerate(data["pairs"])
    )
    blocks = []
    for i, p in enumerate(data["pairs"]):
        a, b = p["a"], p["b"]
        parts = [f'<div class="pair-view" data-key="{i}"{sys_attr(a, b)}>']
        for side, mine, other in (("ngrams_a", a, b), ("ngrams_b", b, a)):
            head = [
                th("n-gram", num=False),
                th("n"),
                th(f"{mine}"),
                th(f"{other}"),
                th("in ref"),
            ]
            rows = [
                f'<tr><td class="txt">{clip_text(g["ngram"], SHOW_NGRAM)}</td>'
                f'<td data-v="{g["n"]}">{g["n"]}</td>'
                f'<td data-v="{g["mine"]}">{g["mine"]}</td>'
                f'<td data-v="{g["other"]}">{g["other"]}</td>'
                f'<td data-v="{g["ref"]}">{g["ref"]}</td></tr>'
                for g in p[side]
            ]
            parts.append(f"<h3>n-grams {esc(mine)} matches more often than {esc(other)}</h3>")
            parts.append(table(f"ngrams-{i}-{side[-1]}", head, rows))
        parts.append(
            f"<h3>Segments where they differ most (sentence {esc(p['metric'] or '')})</h3>"
        )
        for s in p["segments"]:
            wa = " win" if s["winner"] == a else ""
            wb = " win" if s["winner"] == b else ""
            src = s.get("src")
            parts.append(
                f'<div class="seg" data-index="{s["index"]}">'
                + (
                    f'<div class="src">#{s["index"] + 1} source: {clip_text(src)}</div>'
                    if src is not None
                    else ""
                )
                + f'<div class="ref">#{s["index"] + 1}{_repeats(s)} reference: '
                f"{clip_text(s['ref'])}</div>"
                f'<div class="head{wa}">{esc(a)}: '
                f'<span class="sent-score" data-v="{s["a_score"]!r}">'
                f"{s['a_score']:.2f}</span></div>"
                f'<div class="head{wb}">{esc(b)}: '
                f'<span class="sent-score" data-v="{s["b_score"]!r}">'
                f"{s['b_score']:.2f}</span></div>"
                f'<div class="hyp">{_tokens(s["a_tokens"], s["a_match"])}</div>'
                f'<div class="hyp">{_tokens(s["b_tokens"], s["b_match"])}</div></div>'
            )
        parts.append("</div>")
        blocks.append("".join(parts))
    scope = (
        "every pair of systems"
        if data.get("pair_scope") == "all"
        else f"the pairs of the baseline, {esc(data['baseline'])} (more systems than "
        f"<code>all_pairs_up_to</code>; <code>--baseline NAME</code> computes another's)"
    )
    return (
        '<section id="pairs"><h2>Two systems side by side</h2>'
        f'<p class="note">Computed for {scope}. '
        "n-grams of the first reference ranked by (matches of one + 1) / "
        "(matches of both + 2), as compare-mt does; highlighted tokens belong to an n-gram of "
        f"the reference (darker: longer, up to {data['max_order']}). Word-level analyses use "
        f"the first reference, tokenized as BLEU does ({esc(data['word_tokenizer'])}). "
        f"Texts longer than {SHOW_CHARS} characters are cut; click to see the rest.</p>"
        f'<label>Pair: <select id="pair-pick" class="pick" data-target=".pair-view">{options}'
        f'</select></label><p class="note" id="pair-note"></p>{"".join(blocks)}</section>'
    )
