"""`cli.py audit --workers N`: wall time for the same generated corpus with 1 and 2 worker
processes (fresh databases), and the speed-up, on this machine's cores."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import REPO, print_table, row  # noqa: E402


def make_corpus(path: Path, n: int, seed: int = 11) -> None:
    """Countdown search logs from the reference DFS (about 110 KB, 2,500 steps each): replay
    and storage are real work, like auditing long traces."""
    from validators.countdown.generate import dfs_log

    rng = random.Random(seed)
    with open(path, "w") as fh:
        for i in range(n):
            nums = [rng.randint(1, 40) for _ in range(4)]
            target = rng.randint(10, 100)
            fh.write(json.dumps({"id": f"w{i}", "domain": "countdown", "format": "sos",
                                 "problem": {"numbers": nums, "target": target},
                                 "trace": dfs_log(target, nums), "answer": ""}) + "\n")


def _audit(src: Path, db: Path, workers: int) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "cli.py", "audit", str(src), "--out", os.devnull, "--db", f"sqlite:///{db}",
                    "--workers", str(workers)], cwd=REPO, check=True, capture_output=True)
    return time.perf_counter() - start


def run(quick: bool) -> list[dict]:
    n = 60 if quick else 1_200
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "corpus.jsonl"
        make_corpus(src, n)
        one = _audit(src, Path(tmp) / "one.db", 1)
        two = _audit(src, Path(tmp) / "two.db", 2)
    return [
        row(f"audit {n:,} Countdown logs, 1 process", n / one, "records/s"),
        row(f"audit {n:,} Countdown logs, --workers 2", n / two, "records/s", "1 process (speed-up)", one / two),
    ]


if __name__ == "__main__":
    print_table(run("--quick" in sys.argv))
