"""User text in a report is escaped: it renders as text, never as markup or script."""

from __future__ import annotations

import html
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from report_support import parse, sample

import parbleu
from parbleu.reporting._html import esc, json_for_script

EVIL = [
    "<script>alert(1)</script>",
    "</script><script>alert(2)</script>",
    "<!-- <script> x",
    '"><img src=x onerror=alert(3)>',
    "a & b &amp; &lt;tag&gt;",
    "line\u2028sep\u2029para",
    "<b onmouseover='x'>bold</b>",
]


def test_evil_system_output_and_names_render_as_text() -> None:
    ref, systems = sample(12)
    ref = list(ref)
    hyps = list(systems["Online-W"])
    for k, text in enumerate(EVIL):
        hyps[k] = text + " " + hyps[k]
        ref[k] = text + " " + ref[k]
    names = {'<script>alert("name")</script>': hyps, "a&b \"q\" 'x'": systems["Facebook-AI"]}
    files = {n: f"/tmp/</script><b>{k}.txt" for k, n in enumerate(names)}
    rep = parbleu.report([ref], names, n=10, top_segments=12, flavors=("nltk",), files=files,
                         title="<i>title</i>")  # fmt: skip
    page = rep.html()
    root = parse(page)
    # Only the page's own two scripts, and no element the inputs could have injected.
    assert len(root.iter("script")) == 2
    assert not root.iter("img") and not root.iter("b")[2:] and not root.iter("i")
    for node in root.iter():
        assert not any(a.startswith("on") for a in node.attrs), node
    # The texts are there, as text: raw references, tokenized hypotheses.
    segs = [d for d in root.iter("div") if "seg" in d.cls()]
    shown = [int(d.attrs["data-index"] or "") for d in segs]
    assert len([i for i in shown if i < len(EVIL)]) >= 3
    by_index = {s["index"]: s for s in rep.data["pairs"][0]["segments"]}
    for d in segs:
        i = int(d.attrs["data-index"] or "")
        ref_div, _, _, hyp_a, _ = (c for c in d.children if not isinstance(c, str))
        assert ref_div.text() == f"#{i + 1} reference: {ref[i]}"
        assert hyp_a.text() == " ".join(by_index[i]["a_tokens"])
        if i < len(EVIL):
            assert ref[i].startswith(EVIL[i])
    title = root.iter("title")[0].text()
    assert title == "<i>title</i>"
    assert '<script>alert("name")</script>' in [
        td.text() for td in root.by_id("score-table").iter("td")
    ]
    files_list = root.by_id("files").text()
    assert "/tmp/</script><b>0.txt" in files_list
    # The embedded data reads back as the report's data.
    assert json.loads(root.by_id("parbleu-data").text()) == json.loads(rep.to_json())


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_json_for_script_cannot_close_the_element(text: str) -> None:
    data = {"k" + text: [text, {"x": text}]}
    out = json_for_script(data)
    assert "<" not in out and ">" not in out and "&" not in out
    assert "\u2028" not in out and "\u2029" not in out
    assert json.loads(out) == data


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_esc_round_trips_and_leaves_no_markup(text: str) -> None:
    out = esc(text)
    assert "<" not in out and ">" not in out and '"' not in out and "'" not in out
    assert html.unescape(out) == text
