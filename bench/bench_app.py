"""App: server-side time to build the explorer for 1k/5k/20k-step traces and the corpus page
over 10k and 100k stored traces (Streamlit AppTest runs the page script in-process: that is
the server's work for one page view, without the browser). --quick: the corpus page over 10k and
25k traces (each stored by a real audit, which is most of the section's time)."""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import REPO, print_table, row, timed  # noqa: E402


def long_trace_record(n_steps: int, seed: int) -> dict:
    """A search-shaped trace when the maze generator is available, else n paragraphs."""
    rng = random.Random(seed)
    paras = [f"Step {i}: " + " ".join(rng.choice(["wait", "check", "open", "close", "plan"]) for _ in range(10))
             for i in range(n_steps)]
    return {"id": f"long-{n_steps}", "domain": "freeform", "model": "bench", "trace": "\n\n".join(paras),
            "answer": "done"}


def _page_time(url: str, page: str, params: dict[str, str]) -> tuple[float, float]:
    from streamlit.testing.v1 import AppTest

    os.environ["STEPSCOPE_DATABASE_URL"] = url
    os.environ["STEPSCOPE_DEMO"] = "0"

    def once() -> None:
        at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
        for k, v in params.items():
            at.query_params[k] = v
        at.switch_page(f"app_pages/{page}.py")
        at.run()
        if at.exception:
            raise RuntimeError(at.exception[0].message)

    cold, _ = timed(once)
    warm, _ = timed(once)
    return cold, warm


def run(quick: bool) -> list[dict]:
    import io

    from records_io.intake import iter_jsonl
    from db.engine import make_engine
    from db.queries import corpus_counts, recent_traces
    from pipeline import audit_units
    from bench.bench_ingest import ingest, make_jsonl

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/app.db"
        engine = make_engine(url)
        _page_time(url, "home", {})  # first import of Streamlit, plotly and pyvis is not page time
        for n in (1_000, 5_000, 20_000):
            rec = long_trace_record(n, n)
            list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO(json.dumps(rec).encode()))), engine))
            share = next(r["share_id"] for r in recent_traces(engine, 5) if r["record_id"] == rec["id"])
            cold, warm = _page_time(url, "explorer", {"trace": share, "step": str(n // 2)})
            rows.append(row(f"explorer, {n:,}-step trace (first view)", cold, "s", "budget 2 s", cold / 2))
            rows.append(row(f"explorer, {n:,}-step trace (cached)", warm, "s", "budget 2 s", warm / 2))
        for n in (10_000, 25_000) if quick else (10_000, 100_000):  # quick: bench_problems has 100,000 bulk-written
            have = 3
            src = Path(tmp) / f"c{n}.jsonl"
            make_jsonl(src, n - have if n == 10_000 else n - 10_000, seed=n)
            ingest(src, url)
            stored = corpus_counts(engine).records
            cold, warm = _page_time(url, "corpus", {})
            rows.append(row(f"corpus page over {stored:,} traces (first view)", cold, "s", "budget 1 s", cold))
            rows.append(row(f"corpus page over {stored:,} traces (cached)", warm, "s", "budget 1 s", warm))
            cold, warm = _page_time(url, "corpus", {"model": "m3", "q": "plan"})
            rows.append(row(f"corpus page over {stored:,} traces, model+text filter", cold, "s", "budget 1 s",
                            cold))
    return rows


if __name__ == "__main__":
    print_table(run("--quick" in sys.argv))
