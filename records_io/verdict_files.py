"""Verdict files: one verdict per input unit, in input order, as JSONL (the verdict objects of
record-format.md section 2) or as Parquet (a few columns to filter on plus the whole verdict as
JSON text). The local and the Ray engine both write through this module, so the same input gives
the same file whichever engine ran it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import IO, Any

# Columns of a Parquet verdict file, in order; `verdict_json` is the JSONL line's text.
COLUMNS = ("source", "line", "id", "domain", "unreadable", "parse_ok", "answer_correct", "trace_valid",
           "first_invalid_step", "n_steps", "n_invalid", "gaps", "verdict_json")


def schema():  # -> pyarrow.Schema (pyarrow is imported only when Parquet is written)
    import pyarrow as pa

    return pa.schema([
        ("source", pa.string()), ("line", pa.int64()), ("id", pa.string()), ("domain", pa.string()),
        ("unreadable", pa.bool_()), ("parse_ok", pa.bool_()), ("answer_correct", pa.bool_()),
        ("trace_valid", pa.bool_()), ("first_invalid_step", pa.int64()), ("n_steps", pa.int64()),
        ("n_invalid", pa.int64()), ("gaps", pa.list_(pa.string())), ("verdict_json", pa.string()),
    ])


def verdict_json(verdict: dict[str, Any]) -> str:
    return json.dumps(verdict, ensure_ascii=False)


def verdict_row(source: str | None, line: int, verdict: dict[str, Any], unreadable: bool) -> dict[str, Any]:
    """The Parquet columns of one verdict."""
    return {
        "source": source, "line": line, "id": verdict.get("id"), "domain": verdict.get("domain"),
        "unreadable": unreadable, "parse_ok": verdict["parse"]["ok"],
        "answer_correct": verdict["answer_correct"], "trace_valid": verdict["trace_valid"],
        "first_invalid_step": verdict["first_invalid_step"], "n_steps": verdict["parse"]["n_steps"],
        "n_invalid": len(verdict["invalid_steps"]), "gaps": [g["kind"] for g in verdict["gaps"]],
        "verdict_json": verdict_json(verdict),
    }


def is_parquet(path: str | None) -> bool:
    return bool(path) and str(path).lower().endswith(".parquet")


class VerdictWriter:
    """Writes verdicts to `path`: Parquet when it ends in .parquet (written to a temporary name
    and renamed when complete), else JSONL; standard output for None or '-'."""

    ROW_GROUP = 10_000  # rows held before they are written: memory stays flat

    def __init__(self, path: str | None):
        self.path = None if path in (None, "-") else Path(path)
        self.parquet = is_parquet(path)
        self._rows: list[dict[str, Any]] = []
        self._writer = None
        self._text: IO[str] | None = None
        if self.parquet:
            import pyarrow.parquet as pq

            assert self.path is not None
            self._tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            self._writer = pq.ParquetWriter(str(self._tmp), schema())
        elif self.path is None:
            self._text = sys.stdout
        else:
            self._text = open(self.path, "w", encoding="utf-8")

    def add(self, source: str | None, line: int, verdict: dict[str, Any], unreadable: bool) -> None:
        if self._text is not None:
            self._text.write(verdict_json(verdict) + "\n")
            return
        self._rows.append(verdict_row(source, line, verdict, unreadable))
        if len(self._rows) >= self.ROW_GROUP:
            self._flush()

    def add_table(self, table: Any) -> None:
        """A pyarrow table with (at least) COLUMNS, already in input order."""
        if self._text is not None:
            self._text.writelines(v + "\n" for v in table.column("verdict_json").to_pylist())
            return
        self._flush()
        self._writer.write_table(table.select(list(COLUMNS)).cast(schema()))

    def _flush(self) -> None:
        if self._rows:
            import pyarrow as pa

            self._writer.write_table(pa.Table.from_pylist(self._rows, schema=schema()))
            self._rows = []

    def close(self) -> None:
        if self._writer is not None:
            self._flush()
            self._writer.close()
            os.replace(self._tmp, self.path)
            self._writer = None
        elif self._text is not None:
            self._text.flush()
            if self._text is not sys.stdout:
                self._text.close()
            self._text = None

    def abort(self) -> None:
        """Leave no half-written Parquet file behind."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
            self._tmp.unlink(missing_ok=True)
        elif self._text is not None and self._text is not sys.stdout:
            self._text.close()
            self._text = None


def tally(counts: Any, gaps: Any, *, unreadable: bool, parse_ok: bool, answer_correct: bool | None,
          trace_valid: bool | None, gap_kinds: list[str], new: bool, trace_check: str | None = None,
          trace_kind: str | None = None) -> None:
    """Add one verdict to the run's summary counters (collections.Counter). `trace_check`
    "no_error_found" is counted apart from the other null trace verdicts (not checked);
    `trace_kind` "summary" counts the traces that are summaries of reasoning (core/trace_kind.py)."""
    counts["records"] += 1
    counts["new"] += bool(new)
    if unreadable:
        counts["unreadable"] += 1
    elif not parse_ok:
        counts["parse_errors"] += 1
    counts[f"answer_{str(answer_correct).lower()}"] += 1
    counts[f"trace_{str(trace_valid).lower()}"] += 1
    if trace_valid is None and trace_check == "no_error_found":
        counts["trace_no_error_found"] += 1
    if trace_kind == "summary":
        counts["trace_summary"] += 1
    gaps.update(gap_kinds)
