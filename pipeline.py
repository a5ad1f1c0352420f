"""record -> parse -> replay -> store -> verdict, shared by the app and the CLI.

Raw input is committed before any parsing; audits run in batches (optionally in worker
processes) and are written with bulk inserts; verdicts come back in input order. Memory is
bounded by the batch size, not by the number of records.
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from sqlalchemy.engine import Engine

from core.audit import audit_record, error_verdict
from core.intake import InputUnit
from core.record import TraceRecord
from db.rows import ResultRows, malformed_rows, result_rows
from db.store import store_raw, store_results, stored_validators
from validators.registry import validator_id

BATCH_SIZE = 500


@dataclass
class Outcome:
    """What the audit of one input unit produced, in input order."""

    unit_line: int
    record_pk: int
    verdict: dict[str, Any]
    new: bool
    error: str | None = None


def audit_to_rows(record: TraceRecord) -> ResultRows:
    """Worker entry point: pure audit, small picklable result."""
    return result_rows(audit_record(record))


def _malformed(unit: InputUnit) -> ResultRows:
    return malformed_rows(error_verdict(unit.guessed_id, unit.error or "unreadable input", unit.line).to_json())


def _batches(units: Iterable[InputUnit], size: int) -> Iterator[list[InputUnit]]:
    it = iter(units)
    while batch := list(itertools.islice(it, size)):
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
    """Store, audit and yield an Outcome per unit. Already-audited records (same content,
    same validator version) are not rewritten; their verdict is recomputed for the output."""
    pool = mp.get_context("spawn").Pool(workers) if workers > 1 else None
    done = 0
    try:
        for batch in _batches(units, batch_size):
            keys = store_raw(engine, batch, source)
            existing = stored_validators(engine, [pk for pk, new in keys if not new])
            records = [u.record for u in batch if u.record is not None]
            if pool is not None and len(records) > 1:
                audited = iter(pool.map(audit_to_rows, records, chunksize=max(1, len(records) // (workers * 4))))
            else:
                audited = (audit_to_rows(r) for r in records)
            writes: list[tuple[int, ResultRows]] = []
            outcomes: list[Outcome] = []
            for unit, (pk, new) in zip(batch, keys):
                rows = next(audited) if unit.record is not None else _malformed(unit)
                current = validator_id(unit.record.domain) if unit.record is not None else None
                if new or pk not in existing or existing[pk] != current:
                    writes.append((pk, rows))
                outcomes.append(Outcome(unit.line, pk, rows.verdict, new, unit.error))
            store_results(engine, writes)
            for outcome in outcomes:
                yield outcome
            done += len(batch)
            if on_progress:
                on_progress(done)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
