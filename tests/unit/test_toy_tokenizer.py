import subprocess
import sys

import parbleu


def test_toy_end_to_end(tmp_path):
    m = parbleu.BLEU(tokenize="toy")
    s = m.corpus_score(["a,b c"], [["a , b c"]])
    assert round(s.score, 6) == 100.0 and "tok:toy" in str(m.get_signature())
    (tmp_path / "r").write_text("a , b c\n")
    (tmp_path / "h").write_text("a,b c\n")
    out = subprocess.run(
        [sys.executable, "-m", "parbleu", str(tmp_path / "r"), "-i", str(tmp_path / "h"),
         "-tok", "toy", "-b"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "100.0"
