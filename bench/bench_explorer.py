"""Explorer: server CPU per view when many readers open traces at once. Streamlit AppTest runs
the page script in this process, so CPU time (all threads) around a run is the server's work for
that view, without the browser. Per trace (1,000 steps; a freeform trace and an A* maze): a
reader's first view of a trace nobody has opened, another reader's first view of it, and a step
change (the next-step button) in an open session; with the first tab open, and with the tree
(the costliest view; only the open tab runs). Target: <= 0.2 s CPU per view (issue 17;
before this work one view cost about 0.8 s)."""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import REPO, print_table, row  # noqa: E402
from bench.bench_app import long_trace_record  # noqa: E402

TARGET = 0.2


def _maze_record(min_steps: int) -> dict:
    """A reference A* trace with one seeded fault, on the smallest square maze with enough steps."""
    from validators.astar.faults import generate_fault_record

    for size in range(20, 80, 4):
        for seed in range(20):
            rec = generate_fault_record(seed, "create_close_wall", size, size, "beyond_semantics")
            if rec is not None and rec["trace"].count("create") + rec["trace"].count("close") >= min_steps:
                rec["id"] = f"maze-{size}-{seed}"
                return rec
    raise RuntimeError("no maze trace long enough")


def _cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def _views(share: str, step: int, steps: int, tab: str | None = None) -> dict[str, float]:
    """CPU of the three kinds of view of one trace, in seconds, with the explorer's first tab
    open (or `tab`); step changes are the mean of `steps`."""
    from streamlit.testing.v1 import AppTest

    def session() -> AppTest:
        at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
        at.query_params["trace"] = share
        at.query_params["step"] = str(step)
        if tab:
            at.query_params["tab"] = tab
        at.switch_page("app_pages/explorer.py")
        return at

    def check(at: AppTest) -> None:
        if at.exception:
            raise RuntimeError(at.exception[0].message)

    first = session()
    cold = _cpu(first.run)
    check(first)
    second = session()
    warm = _cpu(second.run)
    check(second)
    change = 0.0
    for _ in range(steps):
        change += _cpu(lambda: second.button(key="next_step").click().run())
        check(second)
    return {"first": cold, "other": warm, "step": change / steps}


def _empty_explorer():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.switch_page("app_pages/explorer.py")
    return at


def run(quick: bool) -> list[dict]:
    from records_io.intake import iter_jsonl
    from db.engine import make_engine
    from db.queries import recent_traces
    from pipeline import audit_units

    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/explorer.db"
        os.environ["STEPSCOPE_DATABASE_URL"] = url
        os.environ["STEPSCOPE_DEMO"] = "0"
        engine = make_engine(url)
        records = [long_trace_record(1_000, 1), _maze_record(1_000)]
        data = "".join(json.dumps(r) + "\n" for r in records).encode()
        list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO(data))), engine))
        shares = {r["record_id"]: r["share_id"] for r in recent_traces(engine, 10)}
        from streamlit.testing.v1 import AppTest

        # A server that has shown any trace has imported and warmed plotly, pyvis and jinja: open
        # a small trace first, so "first view" is a trace nobody opened on a running server.
        small = long_trace_record(20, 2)
        list(audit_units(iter_jsonl(io.BufferedReader(io.BytesIO((json.dumps(small) + "\n").encode()))), engine))
        shares = {r["record_id"]: r["share_id"] for r in recent_traces(engine, 10)}
        _views(shares[small["id"]], 3, 1)
        # The harness's own cost (a fresh AppTest session, app.py, navigation, the explorer's
        # header with no trace), measured the same way and subtracted: it is not server work.
        harness = min(_cpu(lambda: _empty_explorer().run()) for _ in range(3))
        rows.append(row("AppTest harness per session (explorer, no trace; subtracted below)", harness, "s CPU"))
        for rec in records:
            n = len(rec["trace"].split("\n\n")) if rec["domain"] == "freeform" else None
            what = f"{rec['domain']} trace" + (f", {n:,} steps" if n else ", 1,000+ steps")
            for tab in (None, "Tree"):
                got = _views(shares[rec["id"]], 500, 3 if quick else 10, tab)
                got["first"] -= harness
                got["other"] -= harness
                shown = f"{what}, {tab or 'first'} tab"
                rows.append(row(f"explorer CPU, {shown}: first view of the trace", got["first"], "s CPU",
                                f"target {TARGET} s", got["first"] / TARGET))
                rows.append(row(f"explorer CPU, {shown}: another reader's first view", got["other"], "s CPU",
                                f"target {TARGET} s", got["other"] / TARGET))
                rows.append(row(f"explorer CPU, {shown}: step change", got["step"], "s CPU",
                                f"target {TARGET} s", got["step"] / TARGET))
    return rows


if __name__ == "__main__":
    print_table(run("--quick" in sys.argv))
