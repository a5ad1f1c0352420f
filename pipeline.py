"""record -> parse -> replay -> store -> verdict, shared by the app and the CLI.

Raw input is committed before any parsing; audits run in batches (optionally in worker
processes) and are written with bulk inserts; verdicts come back in input order. Memory is
bounded by the batch size, not by the number of records.
"""

from __future__ import annotations

import gc
import json
import multiprocessing as mp
import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from audit import BULK_GC_THRESHOLD, audit_record, error_verdict, fewer_collections
from records_io.intake import InputUnit, iter_jsonl, object_to_record, unit_from_json_bytes
from core.limits import Limits, current_limits
from core.record import TraceRecord
from db.rows import ResultRows, malformed_rows, result_rows
from db.store import (DEMO_SOURCE, RECORD, TRACE_VERDICT, claim_setting, refresh_statistics, remove_demo, store_raw,
                      store_results, stored_validators)
from validators.registry import validator_id

# A batch is one transaction and one unit of work for the pool: capped by count (small traces:
# fewer commits and index-page writes per record) and by bytes (long traces: the pool gets
# work early and memory stays low). Measured with bench/bench_ingest.py and bench_workers.py:
# 2,000 records beat 500 by ~10%; 1 MB batches of 100 KB Countdown logs ran as fast as 8 MB
# ones in one process, scaled better with --workers 2 (1.36x -> 1.52x) and peaked at 160 MB
# instead of 475 MB.
BATCH_SIZE = 2000
BATCH_BYTES = 1 * 2**20
# PostgreSQL bulk loads refresh the planner's statistics each time this run's record count has
# doubled (from 2,000 on): estimates stay within 2x of the truth at a logarithmic cost.
ANALYZE_FIRST = 2_000


@dataclass
class Outcome:
    """What the audit of one input unit produced, in input order."""

    unit_line: int
    record_pk: int
    verdict: dict[str, Any]
    new: bool
    error: str | None = None


def audit_to_rows(record: TraceRecord, limits: Limits | None = None) -> ResultRows:
    """Worker entry point: pure audit, small picklable result."""
    return result_rows(audit_record(record, limits))


def _malformed(unit: InputUnit) -> ResultRows:
    return malformed_rows(error_verdict(unit.guessed_id, unit.error or "unreadable input", unit.line).to_json())


def unit_rows(unit: InputUnit, limits: Limits | None = None) -> ResultRows:
    """The audit of one input unit without storing it: a record's audit, or the verdict of an
    input that never became a record. The same rows `audit_units` stores."""
    return audit_to_rows(unit.record, limits) if unit.record is not None else _malformed(unit)


def _batches(units: Iterable[InputUnit], size: int, max_bytes: int = BATCH_BYTES) -> Iterator[list[InputUnit]]:
    """Batches of at most `size` units and about `max_bytes` of input, so memory stays bounded
    whether records are tiny or 100 KB thinking traces."""
    batch: list[InputUnit] = []
    held = 0
    for unit in units:
        batch.append(unit)
        held += len(unit.raw)
        if len(batch) >= size or held >= max_bytes:
            yield batch
            batch, held = [], 0
    if batch:
        yield batch


def audit_units(
    units: Iterable[InputUnit],
    engine: Engine,
    *,
    source: str | None = None,
    workers: int = 1,
    batch_size: int = BATCH_SIZE,
    on_progress: Callable[[int], None] | None = None,
) -> Iterator[Outcome]:
    """Store, audit and yield an Outcome per unit, in input order.

    The user's own data (any `source` but the demo's) first removes the demo records, so they
    never count beside it. Each batch's raw input is committed before it is audited. With workers, batch k+1 is
    audited in the pool while this process writes batch k's results, so parsing, replay and
    database writes overlap. Already-audited records (same content, same validator version)
    are not rewritten; their verdict is recomputed for the output.
    """
    with fewer_collections():
        yield from _audit_units(units, engine, source, workers, batch_size, on_progress)


def _audit_units(units: Iterable[InputUnit], engine: Engine, source: str | None, workers: int,
                 batch_size: int, on_progress: Callable[[int], None] | None) -> Iterator[Outcome]:
    pool = (mp.get_context("spawn").Pool(workers, initializer=gc.set_threshold, initargs=(BULK_GC_THRESHOLD, 10, 10))
            if workers > 1 else None)
    done, next_analyze = 0, ANALYZE_FIRST
    pending: tuple[list[InputUnit], list[tuple[int, bool]], dict[int, str | None], Callable[[], list[ResultRows]]] | None = None
    try:
        for n, batch in enumerate(_batches(units, batch_size)):
            if n == 0 and source != DEMO_SOURCE:
                remove_demo(engine)
            keys = store_raw(engine, batch, source)
            existing = stored_validators(engine, [pk for pk, new in keys if not new])
            records = [u.record for u in batch if u.record is not None]
            limits = current_limits()
            if pool is not None:
                job = pool.map_async(partial(audit_to_rows, limits=limits), records,
                                     chunksize=max(1, len(records) // (workers * 4)))
                audited: Callable[[], list[ResultRows]] = job.get
            else:
                audited = (lambda recs=records: [audit_to_rows(r, limits) for r in recs])
            if pending is not None:
                yield from _finish(engine, *pending)
                done += len(pending[0])
                if on_progress:
                    on_progress(done)
                if done >= next_analyze:
                    refresh_statistics(engine)
                    next_analyze = 2 * done
            pending = (batch, keys, existing, audited)
        if pending is not None:
            yield from _finish(engine, *pending)
            done += len(pending[0])
            if on_progress:
                on_progress(done)
    finally:
        if pool is not None:
            pool.close()
            pool.join()


def _finish(engine: Engine, batch: list[InputUnit], keys: list[tuple[int, bool]],
            existing: dict[int, str | None], audited: Callable[[], list[ResultRows]]) -> Iterator[Outcome]:
    results = iter(audited())
    writes: list[tuple[int, ResultRows]] = []
    outcomes: list[Outcome] = []
    for unit, (pk, new) in zip(batch, keys):
        rows = next(results) if unit.record is not None else _malformed(unit)
        current = validator_id(unit.record.domain) if unit.record is not None else None
        if new or pk not in existing or existing[pk] != current:
            writes.append((pk, rows))
        outcomes.append(Outcome(unit.line, pk, rows.verdict, new, unit.error))
    store_results(engine, writes)
    yield from outcomes

DEMO_FILE = Path(__file__).resolve().parent / "demo" / "demo_traces.jsonl"


def load_demo(engine: Engine, path: Path = DEMO_FILE) -> int:
    """Load the built-in demo set once per database (first start); returns records stored."""
    if os.environ.get("STEPSCOPE_DEMO", "1") == "0" or not path.exists():
        return 0
    if not claim_setting(engine, "demo_loaded", path.name):
        return 0
    with open(path, "rb") as fh:
        return sum(1 for _ in audit_units(iter_jsonl(fh), engine, source=DEMO_SOURCE))


def _stored_unit(row: Any) -> InputUnit:
    """Rebuild an input unit from a stored record: from its verbatim JSON when it is JSON,
    else (a plain-text upload, a converted rollout row) from the stored fields."""
    unit = unit_from_json_bytes(row.line_no or 1, bytes(row.raw))
    # A converted row (an RL rollout, rewards/rollouts.py) does not read back as the same record.
    if unit.record is None or (unit.record.trace, unit.record.answer, unit.record.domain) != (row.trace, row.answer,
                                                                                               row.domain):
        obj = {"id": row.record_id, "domain": row.domain, "format": row.format,
               "problem": json.loads(row.problem_json or "{}"), "trace": row.trace, "answer": row.answer,
               "model": row.model, "meta": json.loads(row.meta_json or "{}"),
               "reference_labels": json.loads(row.labels_json or "{}")}
        unit = InputUnit(line=row.line_no or 1, raw=bytes(row.raw), record=object_to_record(obj))
    return unit


def stale_count(engine: Engine) -> int:
    """Records whose stored verdict came from another validator version than the current one."""
    return sum(1 for _ in _stale(engine))


def _stale(engine: Engine) -> Iterator[tuple[int, int]]:
    """(record pk, stored size in bytes) of every record whose verdict is outdated."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(RECORD.c.pk, RECORD.c.domain, TRACE_VERDICT.c.validator, func.length(RECORD.c.raw))
            .select_from(RECORD.outerjoin(TRACE_VERDICT, TRACE_VERDICT.c.record_pk == RECORD.c.pk))
            .where(RECORD.c.status == "ok")
        )
        for pk, domain, stored, size in rows:
            if stored != validator_id(domain):
                yield pk, size or 0


def _chunks(stale: list[tuple[int, int]], size: int, max_bytes: int) -> Iterator[list[int]]:
    """Record keys in groups capped by count and by stored bytes, like input batches."""
    chunk: list[int] = []
    held = 0
    for pk, nbytes in stale:
        chunk.append(pk)
        held += nbytes
        if len(chunk) >= size or held >= max_bytes:
            yield chunk
            chunk, held = [], 0
    if chunk:
        yield chunk


def reaudit_stale(engine: Engine, batch_size: int = BATCH_SIZE,
                  on_progress: Callable[[int], None] | None = None) -> int:
    """Re-run the audit of every record with an outdated verdict; returns how many."""
    stale = list(_stale(engine))
    done = 0
    with fewer_collections():
        for chunk in _chunks(stale, batch_size, BATCH_BYTES):
            with engine.connect() as conn:
                rows = conn.execute(select(RECORD).where(RECORD.c.pk.in_(chunk))).all()
            limits = current_limits()
            writes = [(row.pk, audit_to_rows(_stored_unit(row).record, limits)) for row in rows]  # type: ignore[arg-type]
            store_results(engine, writes)
            done += len(writes)
            if on_progress:
                on_progress(done)
    return done
