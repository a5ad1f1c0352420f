"""bench/bench_reading.py's child entry on two records of the working tree (no reference
checkout): it runs in its own process and returns sane figures."""

from __future__ import annotations

import pytest

from bench.bench_reading import DATA, REPO, run_child, summarise


@pytest.mark.skipif(not all(p.is_file() for p in DATA), reason="the R1 dev traces (../shared/data/dev) are not present")
def test_child_entry_audits_two_records_of_the_working_tree() -> None:
    out = run_child(REPO, reps=2, reader_reps=1, limit=2, timeout=120)
    assert out["records"] == 2
    assert out["audit_file"] == str(REPO / "audit.py")
    assert out["chars"] > 0
    assert len(out["passes_s"]) == 2 and all(p > 0 for p in out["passes_s"])
    assert len(out["per_trace_s"]) == 2 and all(len(t) == 2 and min(t) > 0 for t in out["per_trace_s"])
    # a pass times every trace: its wall time is at least the sum of its traces' times
    assert out["passes_s"][0] >= sum(t[0] for t in out["per_trace_s"])
    assert out["peak_rss_mb"] >= out["rss_loaded_mb"] > 0
    assert out["reader"]["passes"] and out["reader"]["passes"][0]["audit_s"] > 0

    side = summarise([out])
    assert side["records"] == 2 and side["passes"] == 2
    assert side["mb_s_best"] >= side["mb_s_median"] > 0
    assert side["trace_median_ms"] > 0
    if side["hook"] is not None:  # the reader timed alone, when the tree has one the audits call
        assert side["reader_calls"] > 0 and 0 < side["reader_s"] <= out["reader"]["passes"][0]["audit_s"]
