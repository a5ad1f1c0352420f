"""Problems and summaries over large corpora: grouping 100,000 traces by problem (with the
selection metrics), the model x domain summary, and the corpus page's first view over 100,000
and 1,000,000 traces, on SQLite and (with STEPSCOPE_TEST_POSTGRES_URL) PostgreSQL.

The stored rows are generated from a fixed seed and written with one bulk INSERT (SQLite) or
COPY (PostgreSQL) per table, not through the audit: the audit's own speed is bench_ingest's
figure, and 1,000,000 audits would take this machine hours. Each row is what the writer stores
for a small trace (record, trace verdict, gaps, one invalid step's verdict where there is one).
The grouping is compared with the same grouping done in Python over every row (the query loads
one row per trace, drops the copies of a record and groups it here): that is the reference run,
in the same process."""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import REPO, pg_schema, row  # noqa: E402

MODELS = [f"model-{i}" for i in range(8)]
DOMAINS = ["blocksworld", "mystery_blocksworld", "logistics", "countdown"]
GAPS = ["right_answer_invalid_trace", "answer_not_in_trace", "false_verification_claim"]
RULES = ["precondition", "wrong_state", "arithmetic", "not_open"]
BATCH = 50_000


def _rows(n: int, start: int, seed: int):
    """Record, verdict, gap and step-verdict rows for pks start+1 .. start+n (8 samples per
    problem and model, a few distinct answers per problem)."""
    rng = random.Random(seed + start)
    now = datetime.now(timezone.utc)
    records, verdicts, gaps, steps = [], [], [], []
    for pk in range(start + 1, start + n + 1):
        problem = pk // 64
        domain = DOMAINS[problem % len(DOMAINS)]
        model = MODELS[(pk // 8) % len(MODELS)]
        answer = rng.randrange(3)
        correct = None if rng.random() < 0.03 else answer == 0
        n_steps = rng.randrange(1, 60)
        invalid = rng.random() < 0.4
        first = rng.randrange(n_steps) if invalid else None
        records.append((pk, f"r{pk}", f"{pk:064x}", uuid.UUID(int=rng.getrandbits(128)).hex[:16], "ok", domain, model,
                        '{"n": %d}' % problem, f"{problem:032x}", "", str(answer), "{}", b"{}", False, now))
        verdicts.append((pk, "bench@1", True, n_steps, int(invalid), correct, not invalid if rng.random() > 0.1 else None,
                         first, (first / max(n_steps - 1, 1)) if first is not None else None,
                         None if correct else "wrong_value", "{}", f"{problem:028x}{answer:04x}", now))
        if invalid:
            steps.append((pk, first, "invalid", RULES[pk % len(RULES)], "bench"))
            if correct:
                gaps.append((pk, GAPS[0]))
        if rng.random() < 0.05:
            gaps.append((pk, GAPS[1 + pk % 2]))
    return records, verdicts, gaps, steps


RECORD_COLS = ("pk", "record_id", "content_hash", "share_id", "status", "domain", "model", "problem_json", "problem_hash", "trace",
               "answer", "meta_json", "raw", "raw_truncated", "created_at")
VERDICT_COLS = ("record_pk", "validator", "parse_ok", "n_steps", "n_invalid", "answer_correct", "trace_valid",
                "first_invalid_step", "first_invalid_rel", "answer_error_kind", "verdict_json", "answer_key",
                "audited_at")
TABLES = (("record", RECORD_COLS), ("trace_verdict", VERDICT_COLS), ("verdict_gap", ("record_pk", "kind")),
          ("step_verdict", ("record_pk", "step_idx", "status", "rule", "message")))


def bulk_fill(url: str, n: int, seed: int = 20) -> None:
    """Add n generated traces to the (migrated) database at url."""
    from db.engine import make_engine
    from db.store import refresh_statistics
    from db.tally import rebuild

    engine = make_engine(url)
    with engine.connect() as conn:
        start = conn.exec_driver_sql("SELECT coalesce(max(pk), 0) FROM record").scalar()
    done = 0
    while done < n:
        size = min(BATCH, n - done)
        parts = _rows(size, start + done, seed)
        with engine.begin() as conn:
            for (table, cols), values in zip(TABLES, parts):
                if not values:
                    continue
                if conn.dialect.name == "sqlite":
                    conn.exec_driver_sql(f"INSERT INTO {table} ({', '.join(cols)}) VALUES "
                                         f"({', '.join('?' * len(cols))})", values)
                else:
                    with conn.connection.dbapi_connection.cursor() as cur:  # type: ignore[union-attr]
                        with cur.copy(f"COPY {table} ({', '.join(cols)}) FROM STDIN") as copy:
                            for v in values:
                                copy.write_row(v)
        done += size
    with engine.begin() as conn:
        rebuild(conn)  # rows written around the writers: their tallies recounted once, as migration 9 does
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.exec_driver_sql("SELECT setval(pg_get_serial_sequence('record', 'pk'), (SELECT max(pk) FROM record))")
        refresh_statistics(engine)
    else:
        with engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")


def _timed(fn) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, out


def _python_grouping(url: str) -> object:
    """The reference: every row loaded, grouped in Python, then the same metrics."""
    from metrics.selection import selection_row
    from db.engine import make_engine

    groups: dict = defaultdict(lambda: defaultdict(list))
    latest: dict = {}  # (record_id, model) -> the row of its latest copy: a record counts once
    with make_engine(url).connect() as conn:
        for rid, model, domain, problem, key, correct in conn.exec_driver_sql(
                "SELECT r.record_id, r.model, r.domain, r.problem_hash, tv.answer_key, tv.answer_correct "
                "FROM record r LEFT JOIN trace_verdict tv ON tv.record_pk = r.pk ORDER BY r.pk"):
            latest[(rid, model) if rid is not None else object()] = (model, domain, problem, key, correct)
    for model, domain, problem, key, correct in latest.values():
        groups[(model, domain)][problem].append((key, correct))
        groups[("(all models)", domain)][problem].append((key, correct))
    return [selection_row(m, d, [ps[h] for h in sorted(ps)], curve=False) for (m, d), ps in groups.items()]


def _page_first_view(url: str) -> tuple[float, float]:
    from streamlit.testing.v1 import AppTest

    os.environ["STEPSCOPE_DATABASE_URL"] = url
    os.environ["STEPSCOPE_DEMO"] = "0"
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=300)
    at.switch_page("app_pages/corpus.py")
    start, cpu = time.perf_counter(), time.process_time()
    at.run()
    took = time.perf_counter() - start, time.process_time() - cpu
    if at.exception:
        raise RuntimeError(at.exception[0].message)
    return took


def _unfiltered_from_rows(engine) -> None:
    """What the unfiltered first view read before the tallies: every aggregate from rows."""
    from db.queries import (CorpusFilter, corpus_matrix, count_traces, filter_options, first_invalid_histogram,
                            invalid_by_rule)
    from db.summary import summary

    f = CorpusFilter()
    for fn in (count_traces, corpus_matrix, first_invalid_histogram, invalid_by_rule):
        fn(engine, f, from_rows=True)
    filter_options(engine, from_rows=True)
    summary(engine, from_rows=True)


def _measure(label: str, url: str, sizes: list[int]) -> list[dict]:
    from db.engine import make_engine
    from db.problems import problems_with_samples, selection_metrics
    from db.summary import summary

    rows = []
    have = 0
    engine = make_engine(url)
    _page_first_view(url)  # Streamlit, plotly and pandas imported once: not page time
    for n in sizes:
        t0 = time.perf_counter()
        bulk_fill(url, n - have)
        have = n
        print(f"  {label}: {n:,} traces generated in {time.perf_counter() - t0:.0f} s", flush=True)
        if n <= 100_000:
            ref_wall, ref_cpu, _ = _timed(lambda: _python_grouping(url))
            wall, cpu, _ = _timed(lambda: (problems_with_samples(engine), selection_metrics(engine, curve_models=())))
            rows.append(row(f"{label}: problems + selection metrics over {n:,} traces", wall, "s",
                            f"every row loaded and grouped in Python, same metrics: {ref_wall:.2f} s (CPU "
                            f"{ref_cpu:.2f} s); this CPU {cpu:.2f} s", wall / ref_wall))
            s_wall, s_cpu, _ = _timed(lambda: summary(engine, from_rows=True))
            t_wall, t_cpu, _ = _timed(lambda: summary(engine))
            rows.append(row(f"{label}: model x domain summary over {n:,} traces, recounted from rows", s_wall, "s",
                            f"CPU {s_cpu:.2f} s; with the grouping {wall + s_wall:.2f} s against a 2 s budget; "
                            f"from the tallies {t_wall:.3f} s (CPU {t_cpu:.3f} s)", (wall + s_wall) / 2))
            from db.problems import ALL_MODELS

            c_wall, c_cpu, _ = _timed(lambda: selection_metrics(engine, curve_models=(ALL_MODELS,)))
            rows.append(row(f"{label}: same + curves against k for '(all models)'", c_wall, "s",
                            f"CPU {c_cpu:.2f} s (the problems page's chart, cached per data revision)"))
        st.cache_data.clear() if (st := sys.modules.get("streamlit")) else None
        first, first_cpu = _page_first_view(url)
        budget = 1.0 if n <= 100_000 else 2.0
        ref_wall, ref_cpu, _ = _timed(lambda: _unfiltered_from_rows(engine))
        rows.append(row(f"{label}: corpus page first view over {n:,} traces", first, "s",
                        f"budget {budget:g} s; CPU of this process {first_cpu:.2f} s; its aggregates recounted "
                        f"from rows (the page before the tallies): {ref_wall:.2f} s (CPU {ref_cpu:.2f} s)",
                        first / budget))
    return rows


def run(quick: bool) -> list[dict]:
    sizes = [100_000] if quick else [100_000, 1_000_000]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rows += _measure("SQLite", f"sqlite:///{tmp}/problems.db", sizes)
    pg = os.environ.get("STEPSCOPE_TEST_POSTGRES_URL")
    if pg:
        with pg_schema(pg) as url:
            rows += _measure("PostgreSQL", url, sizes)
    return rows


if __name__ == "__main__":
    from bench._common import print_table

    print_table(run("--quick" in sys.argv))
