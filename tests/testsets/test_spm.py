"""spBLEU: parbleu's SentencePiece tokenizers against SacreBLEU's, with a model trained here.

The model is trained on a small corpus with sentencepiece's trainer and placed where SacreBLEU
looks for each tokenizer's model (``$SACREBLEU/models/<URL basename>``): tokens, BLEU scores
and signatures must be SacreBLEU's, in the API and on the command line.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import parbleu
from helpers import require, train_spm_model
from parbleu import datasets
from parbleu.errors import DownloadError, TokenizerNotAvailableError

CORPUS = [
    "The quick brown fox jumps over the lazy dog.",
    "Der schnelle braune Fuchs springt über den faulen Hund.",
    "Le renard brun rapide saute par-dessus le chien paresseux.",
    "今日は良い天気ですね。",
    "Machine translation systems are evaluated with BLEU and chrF.",
    "Ein Satz mit Zahlen: 12,5 % und 3.000 Euro!",
] * 20
HYPS = [
    "The fast brown fox jumps over a lazy dog .",
    "Der schnelle Fuchs springt über den Hund.",
    "Le renard saute le chien.",
    "今日は天気が良い。",
    "MT systems are evaluated with BLEU.",
    "",
]
REFS = [CORPUS[:6], [s.upper() for s in CORPUS[:6]]]


def _train(path: Path) -> None:
    train_spm_model(path, CORPUS, vocab_size=80)


@pytest.fixture
def model_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    require("sentencepiece")
    cache = tmp_path / "cache"
    models = cache / "models"
    models.mkdir(parents=True)
    _train(models / "m.model")
    for key in ("flores101", "flores200", "spBLEU-1K"):
        (models / os.path.basename(datasets._registry.spm_model(key)["url"])).write_bytes(
            (models / "m.model").read_bytes()
        )
    monkeypatch.setenv("SACREBLEU", str(cache))
    import sacrebleu.tokenizers.tokenizer_spm as sb_spm

    monkeypatch.setattr(sb_spm, "SACREBLEU_DIR", str(cache))
    return cache


# SacreBLEU's "spm" alias warns with the deprecated Logger.warn.
@pytest.mark.filterwarnings("ignore:The 'warn' method is deprecated:DeprecationWarning")
@pytest.mark.parametrize("key", ["flores101", "flores200", "spBLEU-1K", "spm"])
def test_same_tokens_scores_signature(model_cache: Path, key: str) -> None:
    import sacrebleu
    from sacrebleu.metrics.bleu import _get_tokenizer

    sb_tok = _get_tokenizer(key)()
    from parbleu.tokenizers import get_tokenizer

    pb_tok = get_tokenizer(key)
    lines = [*CORPUS[:6], *HYPS, "  spaces   inside  ", "Ünïcödé ﬁ ligature"]
    assert [pb_tok(x) for x in lines] == [sb_tok(x) for x in lines]
    assert pb_tok.batch(lines) == [sb_tok(x) for x in lines]  # type: ignore[attr-defined]
    for lowercase in (False, True):
        sb = sacrebleu.BLEU(tokenize=key, lowercase=lowercase)
        pb = parbleu.BLEU(tokenize=key, lowercase=lowercase)
        s, p = sb.corpus_score(HYPS, REFS), pb.corpus_score(HYPS, REFS)
        assert p.score == s.score
        assert str(pb.get_signature()).replace(f"parbleu-{parbleu.__version__}", "2.6.0") == str(
            sb.get_signature()
        )
        assert [pb.sentence_score(h, [r]).score for h, r in zip(HYPS, REFS[0])] == [
            sb.sentence_score(h, [r]).score for h, r in zip(HYPS, REFS[0])
        ]


def test_cli_flores_same_stdout(
    model_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
    from cli_support import Job, as_sacrebleu, run_main, run_sacrebleu

    (tmp_path / "hyp").write_text("\n".join(HYPS) + "\n")
    (tmp_path / "ref").write_text("\n".join(REFS[0]) + "\n")
    cases = [
        ["ref", "-i", "hyp", "-tok", "flores101"],
        ["ref", "-i", "hyp", "-tok", "flores200", "-f", "text", "-m", "bleu", "chrf"],
        ["ref", "-i", "hyp", "-tok", "spBLEU-1K", "-sl"],
        ["ref", "-i", "hyp", "-tok", "flores200", "--short", "-f", "text"],
    ]
    expected = run_sacrebleu([Job(c, tmp_path) for c in cases], tmp_path)
    for argv, exp in zip(cases, expected):
        got = run_main(argv, monkeypatch, cwd=tmp_path)
        assert (got.code, as_sacrebleu(got.out)) == (exp.code, exp.out), argv
        assert exp.code == 0


def test_local_model_file(
    model_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from parbleu.tokenizers.spm import TokenizerSPM

    empty = tmp_path / "empty-cache"
    monkeypatch.setenv("SACREBLEU", str(empty))
    tok = TokenizerSPM("flores200", model_file=str(model_cache / "models" / "m.model"))
    assert tok.signature() == "flores200"
    monkeypatch.setenv("PARBLEU_SPM_MODEL", str(model_cache / "models" / "m.model"))
    assert parbleu.BLEU(tokenize="flores200").corpus_score(HYPS, REFS).score > 0
    assert not empty.exists()  # nothing downloaded
    monkeypatch.setenv("PARBLEU_SPM_MODEL", str(tmp_path / "missing.model"))
    with pytest.raises(TokenizerNotAvailableError, match="cannot load"):
        TokenizerSPM("flores200")


def test_download_records_and_checks_sha256(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require("sentencepiece")
    sys_path = Path(__file__).resolve().parent
    import sys

    sys.path.insert(0, str(sys_path))
    from datasets_support import Server, write_registry

    model = tmp_path / "m.model"
    _train(model)
    server = Server({"/spm.model": model.read_bytes()}).start()
    try:
        reg = {"datasets": {}, "subsets": {},
               "spm_models": {"flores200": {"url": server.base + "/spm.model",
                                            "signature": "flores200"}}}  # fmt: skip
        monkeypatch.setenv(datasets.ENV_REGISTRY, str(write_registry(tmp_path / "r.json", reg)))
        monkeypatch.setenv("SACREBLEU", str(tmp_path / "cache"))
        from parbleu.tokenizers.spm import TokenizerSPM, model_path

        TokenizerSPM("flores200")
        path = Path(model_path("flores200"))
        assert path == tmp_path / "cache" / "models" / "spm.model"
        record = Path(str(path) + ".sha256").read_text().split()[0]
        assert record == datasets.file_digest(str(model), "sha256")
        TokenizerSPM("flores200")
        assert len(server.requests) == 1  # cached
        path.unlink()
        server.files["/spm.model"] = b"a different model"
        with pytest.raises(DownloadError, match="SHA256"):
            TokenizerSPM("flores200")
        assert not path.exists()
    finally:
        server.stop()
