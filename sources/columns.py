"""Which column of a table holds which record field: the user's `--map trace=reasoning,...`, else
the record-format names, else a common alias, named in the summary so nothing is guessed silently.

A table with one text column and no trace column (`completion`, `response`, not `answer`) has its text split
into trace and answer the way rollout completions are (rewards/split.py: `</think>`, `<answer>`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from core.record import RecordError
from rewards.problem import plain
from rewards.split import split_completion

RECORD_FIELDS = ("id", "domain", "format", "problem", "trace", "answer", "model", "meta")
PROBLEM_FIELDS = ("question", "reference_answer")
ALIASES: dict[str, tuple[str, ...]] = {
    "trace": ("reasoning_content", "reasoning", "thinking", "chain_of_thought", "cot", "rationale"),
    "answer": ("response", "output", "completion", "generation", "prediction"),
    "id": ("qid", "question_id", "example_id", "uid"),
    "domain": ("task", "data_source"),
    "model": ("model_name", "model_id"),
    "question": ("question", "prompt", "input", "query"),
    "reference_answer": ("reference_answer", "gold", "target", "ground_truth", "solution"),
}
_MAX_META = 500


class MappingError(ValueError):
    """A `--map` that cannot be used: bad syntax, an unknown field, a column the table lacks."""


@dataclass(frozen=True)
class ColumnMap:
    """field -> column, how each was found ('given', 'name', 'detected'), and whether the answer
    column's text is to be split into trace and answer."""

    columns: tuple[tuple[str, str], ...]
    found_by: tuple[tuple[str, str], ...]
    split_answer: bool = False

    def column(self, field: str) -> str | None:
        return dict(self.columns).get(field)

    def describe(self) -> str:
        how = dict(self.found_by)
        parts = [f"{field} <- {column}" + ("" if how[field] == "name" else f" ({how[field]})")
                 for field, column in self.columns]
        if self.split_answer:
            parts.append("trace and answer split from " + (self.column("answer") or "?"))
        return ", ".join(parts) or "none"


def parse_map(text: str | None) -> dict[str, str]:
    """`trace=reasoning,answer=output` -> {'trace': 'reasoning', 'answer': 'output'}."""
    out: dict[str, str] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        field, sep, column = part.partition("=")
        field, column = field.strip(), column.strip()
        if not sep or not field or not column:
            raise MappingError(f"--map wants FIELD=COLUMN pairs separated by commas, got {part.strip()!r}")
        if field not in RECORD_FIELDS + PROBLEM_FIELDS and not field.startswith("problem."):
            known = ", ".join(RECORD_FIELDS + PROBLEM_FIELDS)
            raise MappingError(f"--map: {field!r} is no record field (one of {known}, or problem.KEY)")
        out[field] = column
    return out


def plan_columns(columns: Sequence[str], given: Mapping[str, str]) -> ColumnMap:
    """The column map of a table with these columns; raises MappingError when a given column is
    missing or no column holds a trace or an answer."""
    present = list(columns)
    missing = [c for c in given.values() if c not in present]
    if missing:
        raise MappingError(f"--map names column(s) the table does not have: {', '.join(missing)} "
                           f"(its columns: {', '.join(present[:30])})")
    chosen: dict[str, str] = dict(given)
    how = {field: "given" for field in given}
    for field in RECORD_FIELDS:
        if field not in chosen and field in present and field not in chosen.values():
            chosen[field], how[field] = field, "name"
    for field, names in ALIASES.items():
        if field in chosen or (field in PROBLEM_FIELDS and "problem" in chosen):
            continue
        column = next((c for c in names if c in present and c not in chosen.values()), None)
        if column is not None:
            chosen[field], how[field] = column, "detected"
    if "trace" not in chosen and "answer" not in chosen:
        raise MappingError("no column holds a trace or an answer (looked for trace/answer and "
                           f"{', '.join(ALIASES['trace'] + ALIASES['answer'])}); name them with "
                           f"--map trace=COLUMN,answer=COLUMN (columns: {', '.join(present[:30])})")
    order = [f for f in RECORD_FIELDS + PROBLEM_FIELDS if f in chosen] + sorted(f for f in chosen if "." in f)
    return ColumnMap(tuple((f, chosen[f]) for f in order), tuple((f, how[f]) for f in order),
                     split_answer="trace" not in chosen and chosen.get("answer") != "answer")


def _text(value: Any, field: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RecordError(f"the {field} column holds {type(value).__name__}, not text")
    return value


def row_to_record(row: Mapping[str, Any], cmap: ColumnMap, default_domain: str | None = None) -> dict[str, Any]:
    """The record-format object of one table row; raises RecordError with the reason."""
    if not isinstance(row, Mapping):
        raise RecordError(f"a table row must be an object, got {type(row).__name__}")
    record: dict[str, Any] = {}
    problem: dict[str, Any] = {}
    used = set()
    for field, column in cmap.columns:
        used.add(column)
        value = plain(row.get(column))
        if value is None:
            continue
        if field in PROBLEM_FIELDS or field.startswith("problem."):
            problem[field.removeprefix("problem.")] = value
        elif field in ("trace", "answer"):
            record[field] = _text(value, f"{field} ({column})")
        elif field in ("id", "domain", "format", "model"):
            record[field] = str(value)
        else:
            record[field] = value
    if problem:
        base = record.get("problem")
        if base is not None and not isinstance(base, Mapping):
            raise RecordError("the problem column is not an object")
        record["problem"] = {**(base or {}), **problem}
    domain = record.get("domain") or default_domain
    if cmap.split_answer:
        split = split_completion(record.get("answer", ""), domain or "freeform")
        record["trace"], record["answer"] = split.trace, split.answer
    if domain and "domain" not in record:
        record["domain"] = domain
    extra = {str(k): v for k, v in row.items() if k not in used and isinstance(v, (str, int, float, bool))}
    meta = dict(record.get("meta") or {}) if isinstance(record.get("meta"), Mapping) else {}
    if extra:
        meta.setdefault("columns", {k: v[:_MAX_META] if isinstance(v, str) else v for k, v in extra.items()})
    meta.setdefault("source", "hf_dataset")
    record["meta"] = meta
    return record


class ColumnConverter:
    """The intake's hook (records_io.intake.Converter) for table rows; pickles (worker processes)."""

    def __init__(self, cmap: ColumnMap, domain: str | None = None, where: Mapping[str, Any] | None = None) -> None:
        self.cmap = cmap
        self.domain = domain
        self.where = dict(where or {})

    def __call__(self, obj: Any) -> Any:
        record = row_to_record(obj, self.cmap, self.domain)
        if self.where:
            record["meta"].setdefault("hf_dataset", self.where)
        return record
