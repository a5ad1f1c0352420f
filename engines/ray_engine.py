"""The Ray engine: `cli.py audit INPUT --engine ray [--address ...] [--db URL | --out FILE]`.

Ray Data does the work; nothing here schedules anything. The plan is two operators:

* **ReadRecords** (this module's `RecordFiles` datasource): one read task per input file (a JSONL
  file or shard, or a Parquet file with the record columns). It only splits the file into lines,
  with `records_io.intake.iter_jsonl_lines` (the local engine's own reader: line numbers, UTF-8 BOM,
  UTF-16, lines over the size limit), and ships them in blocks of about `pipeline.BATCH_BYTES`,
  so one large file still feeds every core.
* **MapBatches(audit_block)**: turns each line into an input unit (`records_io.intake.unit_from_line`)
  and audits it with the pure audit (`pipeline.unit_rows`); with `--db` it goes through
  `pipeline.audit_units`, which stores each batch's raw records and then its results in
  PostgreSQL (COPY; records keyed by content hash, results replaced under row locks), so a task
  that Ray retries after its worker died stores nothing twice.

The driver only reads back one small row per record (summary columns, plus the verdict's JSON when
verdicts are written to a file), in input order when a file is written. Verdicts are the local
engine's, byte for byte: the same code judges each unit, and the settings that can change a verdict
(`VERDICT_ENV`) go to every worker with the code (a Ray runtime environment).
"""

from __future__ import annotations

import gc
import glob
import io
import logging
import math
import os
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Iterator

import pyarrow as pa
import pyarrow.fs as pafs
import ray
from ray.data import Datasource, ReadTask
from ray.data.block import BlockMetadata

from records_io.intake import Converter, RawLine, iter_jsonl_lines, iter_parquet_lines, unit_from_line
from core.limits import Limits, current_limits
from records_io.verdict_files import VerdictWriter, tally, verdict_json
from records_io.verdict_files import schema as verdict_schema
from pipeline import ANALYZE_FIRST, BATCH_BYTES, BATCH_SIZE, BULK_GC_THRESHOLD, audit_units, unit_rows

REPO = Path(__file__).resolve().parent.parent
# Reading only splits lines (about a hundred times faster than auditing them): read tasks take no
# CPU slot, so a read task held back by Ray's backpressure never keeps an audit task from a core,
# and one read task runs at a time per this many CPUs. Different resources than the audit also keep
# Ray from fusing the two (one task per file would then read and audit it all).
READ_CPUS = 0
CPUS_PER_READER = 8
# A task whose worker dies is retried this many times (Ray Data's default is forever: one record
# that kills its worker would then stop the run from ever ending).
MAX_TASK_RETRIES = 5
# Settings that can change a verdict: the workers get this process's values.
# PYTHONHASHSEED changes no verdict (the reference planner's order is fixed, search.py); it is
# passed on so that a worker's set order, in anything else it prints, is this process's.
VERDICT_ENV = ("STEPSCOPE_MAX_LINE_BYTES", "STEPSCOPE_MAX_UPLOAD_BYTES", "STEPSCOPE_MAX_RECORDS",
               "STEPSCOPE_MAX_TRACE_CHARS", "STEPSCOPE_MAX_STEPS", "STEPSCOPE_MAZE_RULES", "PYTHONHASHSEED")
# What the workers do not need of this checkout (the code they run is shipped as Ray's working_dir).
SHIP_EXCLUDES = [".git", ".venv*/", "data/", "tests/", "docs/", "demo/", "bench/", "scripts/", ".ci/",
                 "*.db", "*.db-*", "*.parquet", "*.jsonl", "__pycache__/"]
INPUT_EXTENSIONS = (".jsonl", ".ndjson", ".parquet")

LINE_SCHEMA = pa.schema([("source", pa.string()), ("line", pa.int64()), ("raw", pa.large_binary()),
                         ("first", pa.bool_()), ("error", pa.string())])


class InputError(Exception):
    """The input cannot be found or read; the message says why."""


@dataclass(frozen=True)
class InputFile:
    path: str  # what a worker opens: an absolute local path or a URI
    name: str  # as the user named it (stored as the record's source)
    kind: str  # "jsonl" or "parquet"
    size: int


def _kind(path: str) -> str:
    return "parquet" if path.lower().endswith(".parquet") else "jsonl"


def input_files(spec: str, kind: str | None = None) -> list[InputFile]:
    """INPUT as files, in a fixed order: one file, every JSONL/Parquet file under a directory
    (sorted by path), or the files a glob matches (sorted). Each is read as Parquet when its name
    ends in .parquet, else as JSONL, unless `kind` says. Local paths must be visible to every
    node at the same path (a shared file system); URIs (s3://, gs://, ...) are read by the workers
    through pyarrow's file systems."""
    files = _input_files(spec)
    return [InputFile(f.path, f.name, kind, f.size) for f in files] if kind else files


def _input_files(spec: str) -> list[InputFile]:
    if spec == "-":
        raise InputError("the Ray engine reads files, not standard input; save the records to a file")
    if "://" in spec:
        return _uri_files(spec)
    if glob.has_magic(spec):
        names = sorted(p for p in glob.glob(spec, recursive=True) if os.path.isfile(p))
        if not names:
            raise InputError(f"no file matches {spec}")
    elif os.path.isdir(spec):
        names = sorted(
            os.path.join(root, f) for root, dirs, files in os.walk(spec) for f in files
            if f.lower().endswith(INPUT_EXTENSIONS) and not f.startswith((".", "_"))
        )
        if not names:
            raise InputError(f"{spec} holds no .jsonl, .ndjson or .parquet file")
    elif os.path.isfile(spec):
        names = [spec]
    else:
        raise InputError(f"{spec}: no such file or directory")
    out = []
    for name in names:
        if not os.access(name, os.R_OK):
            raise InputError(f"{name}: permission denied")
        out.append(InputFile(os.path.abspath(name), name, _kind(name), os.path.getsize(name)))
    return out


def _uri_files(spec: str) -> list[InputFile]:
    try:
        fs, path = pafs.FileSystem.from_uri(spec)
        info = fs.get_file_info(path)
        if info.type == pafs.FileType.Directory:
            infos = [i for i in fs.get_file_info(pafs.FileSelector(path, recursive=True))
                     if i.type == pafs.FileType.File and i.base_name.lower().endswith(INPUT_EXTENSIONS)
                     and not i.base_name.startswith((".", "_"))]
        elif info.type == pafs.FileType.File:
            infos = [info]
        else:
            raise InputError(f"{spec}: not found (globs are for local paths; name a file or a directory)")
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - any file system's own error, said plainly
        raise InputError(f"{spec}: {exc}") from None
    scheme = spec.split("://", 1)[0]
    out = []
    for i in sorted(infos, key=lambda i: i.path):
        uri = f"{scheme}://{i.path}"
        out.append(InputFile(uri, uri, _kind(i.path), i.size or 0))
    if not out:
        raise InputError(f"{spec} holds no .jsonl, .ndjson or .parquet file")
    return out


# --- reading (runs in Ray read tasks) ---------------------------------------------------------

def _open(path: str) -> tuple[pafs.FileSystem, str]:
    return pafs.FileSystem.from_uri(path) if "://" in path else (pafs.LocalFileSystem(), path)


def _file_lines(f: InputFile, max_line_bytes: int) -> Iterator[RawLine]:
    fs, path = _open(f.path)
    if f.kind == "parquet":
        with fs.open_input_file(path) as native:
            yield from iter_parquet_lines(native)
        return
    with fs.open_input_stream(path) as native:
        yield from iter_jsonl_lines(io.BufferedReader(native, buffer_size=1 << 20), max_line_bytes)


def read_blocks(files: list[InputFile], max_line_bytes: int) -> Iterator[pa.Table]:
    """Blocks of raw lines, capped like the local engine's batches (count and bytes)."""
    for f in files:
        cols: dict[str, list] = {name: [] for name in LINE_SCHEMA.names}
        held = 0
        for rl in _file_lines(f, max_line_bytes):
            cols["source"].append(f.name)
            cols["line"].append(rl.line)
            cols["raw"].append(rl.raw)
            cols["first"].append(rl.first)
            cols["error"].append(rl.error)
            held += len(rl.raw)
            if len(cols["line"]) >= BATCH_SIZE or held >= BATCH_BYTES:
                yield pa.table(cols, schema=LINE_SCHEMA)
                cols = {name: [] for name in LINE_SCHEMA.names}
                held = 0
        if cols["line"]:
            yield pa.table(cols, schema=LINE_SCHEMA)


class RecordFiles(Datasource):
    """Trace records in JSONL or Parquet files: one read task per file, in input order."""

    def __init__(self, files: list[InputFile], max_line_bytes: int):
        super().__init__()
        self._files = files
        self._max_line_bytes = max_line_bytes

    def get_name(self) -> str:
        return "Records"

    def estimate_inmemory_data_size(self) -> int | None:
        return sum(f.size for f in self._files)

    def get_read_tasks(self, parallelism: int, per_task_row_limit: int | None = None,
                       data_context: Any = None) -> list[ReadTask]:
        return [
            ReadTask(partial(read_blocks, [f], self._max_line_bytes),
                     BlockMetadata(num_rows=None, size_bytes=f.size, input_files=[f.path], exec_stats=None),
                     schema=LINE_SCHEMA, per_task_row_limit=per_task_row_limit)
            for f in self._files
        ]


# --- auditing (runs in Ray map tasks) ---------------------------------------------------------

OUT_SCHEMA = verdict_schema().append(pa.field("new", pa.bool_()))


def audit_block(batch: pa.Table, *, db_url: str | None, default_domain: str | None, limits: Limits,
                with_verdicts: bool, convert: Converter | None = None) -> pa.Table:
    """One block of raw lines -> one row per unit: the verdict's summary columns, its JSON (when
    a verdict file is written) and whether the record was new to the database."""
    if gc.get_threshold()[0] < BULK_GC_THRESHOLD:  # as the local engine's bulk audits (audit.fewer_collections)
        gc.set_threshold(BULK_GC_THRESHOLD, 10, 10)
    sources = batch.column("source").to_pylist()
    units = [unit_from_line(RawLine(line, raw, first, error), default_domain, convert)
             for line, raw, first, error in zip(batch.column("line").to_pylist(), batch.column("raw").to_pylist(),
                                                batch.column("first").to_pylist(), batch.column("error").to_pylist())]
    results: list[tuple[dict[str, Any], bool]] = []
    if db_url:
        from db.engine import make_engine

        engine = make_engine(db_url)
        start = 0
        while start < len(units):  # a block comes from one file; group by source all the same
            end = start
            while end < len(units) and sources[end] == sources[start]:
                end += 1
            results += [(o.verdict, o.new) for o in audit_units(units[start:end], engine, source=sources[start])]
            start = end
    else:
        results = [(unit_rows(u, limits).verdict, False) for u in units]
    cols: dict[str, list] = {name: [] for name in OUT_SCHEMA.names}
    for src, unit, (v, new) in zip(sources, units, results):
        cols["source"].append(src)
        cols["line"].append(unit.line)
        cols["id"].append(v.get("id"))
        cols["domain"].append(v.get("domain"))
        cols["unreadable"].append(unit.error is not None)
        cols["parse_ok"].append(v["parse"]["ok"])
        cols["answer_correct"].append(v["answer_correct"])
        cols["trace_valid"].append(v["trace_valid"])
        cols["first_invalid_step"].append(v["first_invalid_step"])
        cols["n_steps"].append(v["parse"]["n_steps"])
        cols["n_invalid"].append(len(v["invalid_steps"]))
        cols["gaps"].append([g["kind"] for g in v["gaps"]])
        cols["verdict_json"].append(verdict_json(v) if with_verdicts else None)
        cols["new"].append(bool(new))
    return pa.table(cols, schema=OUT_SCHEMA)


# --- the driver ---------------------------------------------------------------------------------

@dataclass
class RayRun:
    counts: Counter = field(default_factory=Counter)
    gaps: Counter = field(default_factory=Counter)
    files: int = 0
    cpus: float = 0.0
    nodes: int = 0
    connect_seconds: float = 0.0


def runtime_env() -> dict[str, Any]:
    """The code (this checkout, without tests, data and environments) and the verdict settings."""
    return {"working_dir": str(REPO), "excludes": SHIP_EXCLUDES,
            "env_vars": {k: os.environ[k] for k in VERDICT_ENV if k in os.environ}}


# Set before `import ray` (cli.py does, for a cluster of its own): Ray then gives this machine the
# loopback address instead of its network one, so a cluster started for one run is reached only
# from here. (Ray reads it as "clusters disabled", meant for Windows and macOS; one node is all
# such a cluster has anyway.)
LOOPBACK_ENV = ("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def connect(address: str | None) -> bool:
    """Join the cluster at `address` ('auto', 'HOST:PORT', 'ray://HOST:PORT', or $RAY_ADDRESS), or
    start one on this machine for this run; True when this call connected (and so should
    disconnect, which also stops a cluster it started)."""
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"address": address, "runtime_env": runtime_env(),
                              "logging_level": logging.WARNING, "log_to_driver": True}
    if address is None and not os.environ.get("RAY_ADDRESS"):
        kwargs.update(address="local", include_dashboard=False)
    ray.init(**kwargs)
    return True


def run_audit(files: list[InputFile], *, address: str | None = None, db_url: str | None = None,
              writer: VerdictWriter | None = None, default_domain: str | None = None,
              convert: Converter | None = None) -> RayRun:
    """Audit every record of these files (`input_files`) on Ray. Verdicts go to `writer` in input
    order (when given); records and results go to the PostgreSQL database at `db_url` (when given)."""
    limits = current_limits()
    engine = None
    if db_url:
        from db.engine import make_engine

        engine = make_engine(db_url)  # migrated here, once, before any worker writes
    run = RayRun(files=len(files))
    started = time.perf_counter()
    connected = connect(address)
    try:
        run.connect_seconds = time.perf_counter() - started
        run.cpus = ray.cluster_resources().get("CPU", 0.0)
        run.nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
        ctx = ray.data.DataContext.get_current()
        ctx.execution_options.preserve_order = writer is not None
        # Ray Data merges a task's output into blocks of up to 128 MiB by default: one block per
        # input file, so one audit task per file. Blocks the size of a local batch spread a file
        # over every core and keep each task's memory and transaction small.
        ctx.target_max_block_size = BATCH_BYTES
        # One read task per file, its blocks as read_blocks cuts them (not split further).
        ds = ray.data.read_datasource(RecordFiles(files, limits.max_line_bytes), num_cpus=READ_CPUS,
                                      concurrency=max(1, math.ceil(run.cpus / CPUS_PER_READER)),
                                      override_num_blocks=len(files))
        with warnings.catch_warnings():
            # Ray 2.60 deprecates passing Ray remote arguments through (`ray_remote_args`) but has no
            # named parameter for max_retries yet; the bound matters more than the warning (above).
            warnings.filterwarnings("ignore", message=r"`ray_remote_args` is deprecated")
            ds = ds.map_batches(audit_block, batch_size=None, batch_format="pyarrow", zero_copy_batch=True,
                                fn_kwargs={"db_url": db_url, "default_domain": default_domain, "limits": limits,
                                           "with_verdicts": writer is not None, "convert": convert},
                                num_cpus=1, max_retries=MAX_TASK_RETRIES)
        # (Without a verdict file, audit_block leaves verdict_json empty. Not ds.drop_columns: that
        # is one more operator, and Ray Data reserves CPUs per operator; it took one of this
        # machine's two audit slots.)
        next_analyze = ANALYZE_FIRST
        for table in ds.iter_batches(batch_size=None, batch_format="pyarrow"):
            if writer is not None:
                writer.add_table(table)
            cols = {name: table.column(name).to_pylist()
                    for name in ("unreadable", "parse_ok", "answer_correct", "trace_valid", "gaps", "new")}
            for unreadable, parse_ok, answer, trace, gaps, new in zip(*cols.values()):
                tally(run.counts, run.gaps, unreadable=unreadable, parse_ok=parse_ok, answer_correct=answer,
                      trace_valid=trace, gap_kinds=gaps, new=new)
            if engine is not None and run.counts["records"] >= next_analyze:
                from db.store import refresh_statistics

                refresh_statistics(engine)  # the planner's estimates during a bulk load, as locally
                next_analyze = 2 * run.counts["records"]
    finally:
        if connected:
            ray.shutdown()
    return run
