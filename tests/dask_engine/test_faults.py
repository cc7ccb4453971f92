"""A worker process killed in the middle of a job: Dask reruns its tasks, the score is the same."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

from dask_support import require_dask

import parbleu
from helpers import read_lines, requires_shared

require_dask()

from parbleu import distributed as dist  # noqa: E402

HYP = "data/wmt21/system-outputs/newstest2021.en-de.hyp.Online-W.de"
REF_A = "data/wmt21/references/newstest2021.en-de.ref.A.de"
REF_C = "data/wmt21/references/newstest2021.en-de.ref.C.de"


@requires_shared
def test_worker_killed_mid_job(client: Any, tmp_path: Path) -> None:
    copies = 6
    hyps = [x.rstrip() for x in read_lines(HYP)] * copies
    ra = [x.rstrip() for x in read_lines(REF_A)] * copies
    rc = [x.rstrip() for x in read_lines(REF_C)] * copies
    for name, lines in (("h", hyps), ("a", ra), ("c", rc)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    metrics = [parbleu.TER(), parbleu.BLEU(), parbleu.CHRF()]
    result: dict[str, Any] = {}

    def job() -> None:
        try:
            result["scores"] = dist.score_files(
                str(tmp_path / "h"),
                [str(tmp_path / "a"), str(tmp_path / "c")],
                metrics,
                scheduler=client,
                part_lines=100,
                block_lines=25,
            )
        except BaseException as e:  # reported below, in the test's thread
            result["error"] = e

    pids = client.run(os.getpid)
    thread = threading.Thread(target=job)
    thread.start()
    victim = None
    deadline = time.monotonic() + 60
    while victim is None and time.monotonic() < deadline and thread.is_alive():
        busy = {w: keys for w, keys in client.processing().items() if keys}
        done = sum(1 for ts in client.who_has().values() if ts)
        if busy and done >= 2:
            victim = next(iter(busy))
            os.kill(pids[victim], signal.SIGKILL)
            break
        time.sleep(0.02)
    thread.join(timeout=240)
    assert not thread.is_alive(), "the job did not finish after the worker was killed"
    assert victim is not None, "the job ended before a worker could be killed"
    assert "error" not in result, result.get("error")
    scores = list(result["scores"].values())
    want = [m.corpus_score(hyps, [ra, rc]) for m in (parbleu.TER(), parbleu.BLEU(), parbleu.CHRF())]
    assert [str(s) for s in scores] == [str(w) for w in want]
    assert [s.score for s in scores] == [w.score for w in want]
