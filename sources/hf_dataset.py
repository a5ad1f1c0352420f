"""Hugging Face datasets kept on disk, read with pyarrow in batches (a dataset larger than memory
is never loaded whole, and `datasets` is not needed):

* a folder written by `Dataset.save_to_disk`: `data-XXXXX-of-NNNNN.arrow` files in Arrow IPC
  *stream* format, listed in order by `state.json` (`_data_files`), beside `dataset_info.json`;
  a `DatasetDict` folder holds `dataset_dict.json` (`{"splits": [...]}`) and one such folder per
  split;
* Parquet: one file, or a folder of shards (the Hub's `data/train-00000-of-00002.parquet`).

Rows become JSONL lines (records_io.intake.line_from_columns) numbered across the files, so a bad row
or a file cut short is one unit with its reason and every other row still goes through.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from records_io.intake import RawLine, iter_parquet_lines, line_from_columns
from sources.base import Options, Plan, Probe, Source, SourceError
from sources.columns import RECORD_FIELDS, ColumnConverter, ColumnMap, MappingError, plan_columns

SOURCE = "hf_dataset"
BATCH_ROWS = 2000


def is_save_to_disk(path: Path) -> bool:
    return path.is_dir() and ((path / "state.json").is_file() or (path / "dataset_dict.json").is_file())


def is_dataset_path(path: Path) -> bool:
    """A save_to_disk folder, a folder of Parquet or Arrow shards, or one Parquet/Arrow file."""
    if path.is_dir():
        return is_save_to_disk(path) or any(path.rglob("*.parquet")) or any(path.rglob("*.arrow"))
    return path.suffix.lower() in (".parquet", ".arrow")


def _split_files(folder: Path) -> list[Path]:
    try:
        state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
        names = [entry["filename"] for entry in state.get("_data_files", [])]
    except (OSError, ValueError, KeyError, TypeError):
        names = []
    return [folder / n for n in names] if names else sorted(folder.glob("*.arrow"))


def dataset_files(path: Path) -> list[Path]:
    """The data files of a dataset path, in row order (splits in `dataset_dict.json`'s order)."""
    if not path.is_dir():
        return [path]
    if (path / "dataset_dict.json").is_file():
        try:
            splits = json.loads((path / "dataset_dict.json").read_text(encoding="utf-8"))["splits"]
        except (OSError, ValueError, KeyError, TypeError):
            splits = sorted(p.name for p in path.iterdir() if p.is_dir())
        return [f for split in splits for f in _split_files(path / split)]
    if (path / "state.json").is_file():
        return _split_files(path)
    parquet = sorted(path.rglob("*.parquet"))
    return parquet or sorted(path.rglob("*.arrow"))


def _open_arrow(path: Path):  # -> pyarrow RecordBatch reader
    import pyarrow as pa

    try:
        return pa.ipc.open_stream(pa.memory_map(str(path)))
    except pa.ArrowInvalid:
        return pa.ipc.open_file(pa.memory_map(str(path)))  # Arrow IPC file format (Feather v2)


def file_columns(path: Path) -> list[str]:
    """The column names of one data file, from its schema only."""
    import pyarrow.parquet as pq

    if path.suffix.lower() == ".parquet":
        return list(pq.ParquetFile(str(path)).schema_arrow.names)
    return list(_open_arrow(path).schema.names)


def dataset_columns(path: Path) -> list[str]:
    """The columns of the first readable file (shards of one dataset share a schema)."""
    for file in dataset_files(path):
        try:
            return file_columns(file)
        except Exception:  # noqa: BLE001 - a broken shard is reported when it is read
            continue
    return []


def dataset_rows(path: Path) -> int | None:
    """The number of rows, for progress: Parquet's metadata, or the Arrow files' batch headers
    (memory-mapped, so counting copies no data); None when a file cannot be read."""
    import pyarrow.parquet as pq

    total = 0
    for file in dataset_files(path):
        try:
            if file.suffix.lower() == ".parquet":
                total += pq.ParquetFile(str(file)).metadata.num_rows
            else:
                total += sum(batch.num_rows for batch in _open_arrow(file))
        except Exception:  # noqa: BLE001 - the reader reports the file
            return None
    return total


def _batches(path: Path, batch_rows: int) -> Iterator:
    import pyarrow.parquet as pq

    if path.suffix.lower() == ".parquet":
        yield from pq.ParquetFile(str(path)).iter_batches(batch_size=batch_rows)
        return
    for batch in _open_arrow(path):
        yield from (batch.slice(i, batch_rows) for i in range(0, max(batch.num_rows, 1), batch_rows))


def iter_dataset_lines(path: Path, batch_rows: int = BATCH_ROWS) -> Iterator[RawLine]:
    """Every row of every data file as a JSONL line, numbered from 1 across the files; a file
    that cannot be read, or is cut short, adds one line saying so after the rows read from it."""
    n = 0
    files = dataset_files(path)
    if not files:
        yield RawLine(1, b"", error=f"{path}: no data files (data-*.arrow, *.parquet) found")
        return
    for file in files:
        try:
            for batch in _batches(file, batch_rows):
                for row in batch.to_pylist():
                    n += 1
                    yield line_from_columns(n, row)
        except Exception as exc:  # noqa: BLE001 - say so, keep what was read
            n += 1
            kind = "Parquet" if file.suffix.lower() == ".parquet" else "Arrow"
            yield RawLine(n, b"", error=f"{file.name}: not a readable {kind} file after the rows read from it: "
                                        f"{type(exc).__name__}: {exc}")


def _is_record_or_rollout_table(columns: tuple[str, ...]) -> bool:
    cols = set(columns)
    return ("trace" in cols or cols <= set(RECORD_FIELDS) or "steps" in cols
            or {"input", "output"} <= cols or {"prompt", "completion"} <= cols)


def _detect(probe: Probe, options: Options) -> str | None:
    if probe.fmt == "dataset" and probe.path is not None:
        if is_save_to_disk(probe.path):
            return "a Dataset.save_to_disk folder"
        return "a folder of dataset shards" if probe.path.is_dir() else "an Arrow file"
    if probe.fmt in ("parquet", "jsonl", "json") and options.mapping:
        return "--map given"
    if probe.fmt == "parquet" and probe.columns and not _is_record_or_rollout_table(probe.columns):
        return "Parquet columns that are not the record format"
    return None


def _mapping(columns: tuple[str, ...], options: Options) -> tuple[dict[str, str], bool]:
    """The column map to use: the one given, else one remembered for these very columns."""
    if options.mapping or options.memory is None or not columns:
        return dict(options.mapping), False
    recalled = options.memory.recall(tuple(columns))
    return (dict(recalled), True) if recalled else ({}, False)


def _plan(probe: Probe, options: Options, reason: str) -> Plan:
    columns = probe.columns or (tuple(probe.first) if isinstance(probe.first, dict) else ())
    recalled = False
    if not columns and probe.fmt in ("parquet", "dataset"):
        # No schema to read: the reader reports the file as one unit with its reason.
        cmap = ColumnMap((), ())
    else:
        mapping, recalled = _mapping(columns, options)
        try:
            cmap = plan_columns(columns, mapping)
        except MappingError as exc:
            raise SourceError(str(exc) + (" (a column map remembered from an earlier --map)" if recalled else "")) from None
        if options.mapping and options.memory is not None:
            options.memory.remember(tuple(columns), dict(options.mapping), SOURCE)
    convert = ColumnConverter(cmap, options.domain, {"path": probe.name})
    notes = (("columns", cmap.describe() + (" (given by an earlier --map for these columns)" if recalled else "")),)
    if probe.path is None or probe.fmt not in ("parquet", "dataset"):
        return Plan(SOURCE, reason, convert, notes=notes)
    path = probe.path
    if probe.fmt == "parquet":
        return Plan(SOURCE, reason, convert, lines=lambda: iter_parquet_lines(str(path)), notes=notes,
                    total=_parquet_rows(path))
    return Plan(SOURCE, reason, convert, lines=lambda: iter_dataset_lines(path), notes=notes,
                total=dataset_rows(path))


def _parquet_rows(path: Path) -> int | None:
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(str(path)).metadata.num_rows
    except Exception:  # noqa: BLE001 - the reader reports the file
        return None


SOURCES = (Source(SOURCE, "Hugging Face datasets on disk (save_to_disk folders, Parquet files or shards)", 20,
                  _detect, _plan),)
