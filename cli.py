"""Headless audits: `python cli.py audit INPUT.jsonl [--out V.jsonl|V.parquet] [--db URL] [--workers N]
[--engine ray [--address ADDR]]`; `python cli.py summary [--db URL] [--by model,domain]
[--format table|csv|json] [--selection]` for the model x domain table.

Contract: record-format.md section 3. One verdict per input line, in input order; a summary
on standard error; exit status 0 even when traces are invalid (non-zero only when the input
or database cannot be opened at all).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from records_io.intake import Converter
from records_io.verdict_files import VerdictWriter, tally
from sources.base import Options, SourceError


def _open_input(path: str, stack: ExitStack) -> tuple[IO[bytes], str]:
    if path == "-":
        return io.BufferedReader(sys.stdin.buffer, buffer_size=1 << 20), "<stdin>"  # type: ignore[arg-type]
    return stack.enter_context(open(path, "rb", buffering=1 << 20)), path


def _rollouts(args: argparse.Namespace) -> Converter:
    """Rows of step-labelled datasets (validators/step_rows.py) and verl / TRL rollout rows
    (rewards/rollouts.py) become records; other records pass unchanged."""
    from sources.records import auto_chain

    return auto_chain(args.domain, args.rollout_layout)


class Progress:
    """A counter on standard error: one line rewritten in place on a terminal; otherwise, for a
    large input whose size is known, a line at every tenth of it (logs of long runs show progress)."""

    LARGE = 10_000

    def __init__(self, total: int | None = None) -> None:
        self.total = total
        self.tty = sys.stderr.isatty()
        self.enabled = self.tty or (total is not None and total >= self.LARGE)
        self.next_tenth = 1
        self.start = time.perf_counter()

    def __call__(self, done: int) -> None:
        if not self.enabled:
            return
        rate = done / max(time.perf_counter() - self.start, 1e-9)
        of = f" of {self.total:,} ({done / self.total:.0%})" if self.total else ""
        line = f"audited {done:,}{of} records ({rate:,.0f}/s)"
        if self.tty:
            sys.stderr.write("\r" + line)
        elif self.total and done * 10 >= self.next_tenth * self.total:
            sys.stderr.write(line + "\n")
            self.next_tenth = done * 10 // self.total + 1
        sys.stderr.flush()

    def finish(self) -> None:
        if self.tty:
            sys.stderr.write("\n")


def _summary(counts: Counter, gaps: Counter, elapsed: float, extra: list[tuple[str, str]] = ()) -> str:
    n = counts["records"]
    def row(label: str, value: object) -> str:
        return f"  {label:<28} {value}"
    lines = [
        "Stepscope audit summary",
        row("input units", f"{n:,}"),
        row("unreadable (parse.ok=false)", f"{counts['unreadable']:,}"),
        row("parse warnings", f"{counts['parse_errors']:,}"),
        row("answer correct", f"{counts['answer_true']:,}"),
        row("answer wrong", f"{counts['answer_false']:,}"),
        row("answer undecided", f"{counts['answer_none']:,}"),
        row("trace valid", f"{counts['trace_true']:,}"),
        row("trace invalid", f"{counts['trace_false']:,}"),
        row("trace no error found", f"{counts['trace_no_error_found']:,}"),
        row("trace not checked", f"{counts['trace_none'] - counts['trace_no_error_found']:,}"),
        row("new records stored", f"{counts['new']:,}"),
    ]
    if counts["trace_summary"]:
        # core/trace_kind.py: checked like any trace, never the derivation
        lines.append(row("trace a summary of reasoning", f"{counts['trace_summary']:,} (the model's summary of its "
                                                         "reasoning, not the reasoning itself)"))
    for kind, c in sorted(gaps.items()):
        lines.append(row(f"gap {kind}", f"{c:,}"))
    for label, value in extra:
        lines.append(row(label, value))
    lines.append(row("time", f"{elapsed:.2f} s ({n / max(elapsed, 1e-9):,.0f} units/s)"))
    return "\n".join(lines) + "\n"


def _dataset_input(path: str) -> bool:
    """A folder (save_to_disk, Parquet or Arrow shards) or an Arrow file: read by the hf_dataset source."""
    return path != "-" and (os.path.isdir(path) or path.lower().endswith(".arrow"))


def cmd_audit(args: argparse.Namespace) -> int:
    if args.engine == "ray":
        return _audit_on_ray(args)
    from db.column_maps import StoredColumnMaps
    from db.engine import make_engine
    from pipeline import audit_units
    from sources.columns import MappingError, parse_map
    from sources.inputs import input_format, read_units, refusal
    from validators.domain_names import UnknownDomains

    started = time.perf_counter()
    try:
        engine = make_engine(args.db)
    except Exception as exc:  # noqa: BLE001 - a clear message instead of a traceback
        print(f"error: cannot open database: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    counts: Counter = Counter()
    gaps: Counter = Counter()
    with ExitStack() as stack:
        stream: IO[bytes] | None = None
        if _dataset_input(args.input):
            name, fmt = args.input, "dataset"
        else:
            try:
                stream, name = _open_input(args.input, stack)
            except OSError as exc:
                print(f"error: cannot read {args.input}: {exc.strerror or exc}", file=sys.stderr)
                return 2
            fmt = input_format(stream, name, args.input_format)
            if fmt in ("parquet", "eval") and not stream.seekable():
                stream = io.BytesIO(stream.read())
            refused = refusal(stream, name, fmt)
            if refused:
                print(f"error: {refused}", file=sys.stderr)
                return 2
        try:
            options = Options(domain=args.domain, rollout_layout=args.rollout_layout, mapping=parse_map(args.map),
                              memory=StoredColumnMaps(engine))
            plan, units = read_units(stream, name, None if args.input == "-" else Path(args.input), fmt, options,
                                     args.source)
        except (SourceError, MappingError) as exc:
            print(f"error: {name}: {exc}", file=sys.stderr)
            return 2
        progress = Progress(plan.total)
        writer = VerdictWriter(args.out)
        unknown = UnknownDomains()
        try:
            for outcome in audit_units(units, engine, source=name, workers=max(1, args.workers),
                                       on_progress=progress):
                v = outcome.verdict
                if outcome.error is None:
                    unknown.add(v.get("domain"))
                writer.add(name, outcome.unit_line, v, outcome.error is not None)
                tally(counts, gaps, unreadable=outcome.error is not None, parse_ok=v["parse"]["ok"],
                      answer_correct=v["answer_correct"], trace_valid=v["trace_valid"],
                      gap_kinds=[g["kind"] for g in v["gaps"]], new=outcome.new, trace_check=v.get("trace_check"),
                      trace_kind=v.get("trace_kind"))
        except BaseException:
            writer.abort()
            raise
        writer.close()
    progress.finish()
    for note in unknown.notes(name):
        print(f"warning: {note}", file=sys.stderr)
    extra = [("source", f"{plan.source} ({plan.reason})"), *plan.notes]
    sys.stderr.write(_summary(counts, gaps, time.perf_counter() - started, extra))
    return 0


def _audit_on_ray(args: argparse.Namespace) -> int:
    """`--engine ray`: the same audit on a Ray cluster (engines/ray_engine.py). Ray is imported
    only here, so the default install does not need it."""
    if args.workers != 1:
        print("note: --workers is for the local engine; Ray uses every CPU of the cluster", file=sys.stderr)
    if args.source or args.map:
        print("error: --source and --map are for the local engine (the Ray engine reads records, steps rows "
              "and rollout rows)", file=sys.stderr)
        return 2
    if args.input_format not in ("auto", "jsonl", "parquet"):
        print("error: the Ray engine reads JSONL and Parquet files (--input-format auto, jsonl or parquet)",
              file=sys.stderr)
        return 2
    if args.db and not args.db.startswith(("postgresql", "postgres:")):
        print("error: --engine ray writes from many processes and machines at once; --db must be a "
              "PostgreSQL URL (SQLite has one writer). Without --db, verdicts go to --out only.", file=sys.stderr)
        return 2
    if not args.address and not os.environ.get("RAY_ADDRESS"):
        # A cluster of our own for this run: on the loopback address only (engines/ray_engine.py,
        # LOOPBACK_ENV; read when Ray is imported).
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    try:
        from engines import ray_engine
    except ImportError as exc:
        print(f"error: --engine ray needs Ray ({exc}); install the extra: "
              ".venv/bin/pip install --require-hashes -r requirements-ray.txt", file=sys.stderr)
        return 2
    started = time.perf_counter()
    if args.db:
        from db.engine import make_engine
        try:
            make_engine(args.db)
        except Exception as exc:  # noqa: BLE001
            print(f"error: cannot open database: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 2
    try:
        files = ray_engine.input_files(args.input, None if args.input_format == "auto" else args.input_format)
    except ray_engine.InputError as exc:
        print(f"error: cannot read {exc}", file=sys.stderr)
        return 2
    # Verdicts go to --out, or to standard output when they go nowhere else.
    writer = VerdictWriter(args.out) if args.out or not args.db else None
    try:
        run = ray_engine.run_audit(files, address=args.address, db_url=args.db, writer=writer,
                                   default_domain=args.domain, convert=_rollouts(args))
    except BaseException as exc:
        if writer is not None:
            writer.abort()
        if isinstance(exc, ConnectionError):
            print(f"error: cannot reach the Ray cluster at {args.address}: {exc}", file=sys.stderr)
            return 2
        if isinstance(exc, Exception):
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            print(f"error: the Ray run failed ({type(exc).__name__}: {first[:500]})"
                  + ("; what was stored stays stored, and the same command again completes the run without "
                     "duplicates" if args.db else ""), file=sys.stderr)
            return 1
        raise
    if writer is not None:
        writer.close()
    elapsed = time.perf_counter() - started
    sys.stderr.write(_summary(run.counts, run.gaps, elapsed, extra=[
        ("engine", f"ray: {run.nodes} node(s), {run.cpus:g} CPUs, {len(files)} input file(s)"),
        ("connect / start cluster", f"{run.connect_seconds:.2f} s"),
    ]))
    return 0


def cmd_reaudit(args: argparse.Namespace) -> int:
    from db.engine import make_engine
    from pipeline import reaudit_stale

    engine = make_engine(args.db)
    progress = Progress()
    started = time.perf_counter()
    n = reaudit_stale(engine, on_progress=progress)
    progress.finish()
    print(f"re-audited {n:,} record(s) with verdicts from an older validator "
          f"in {time.perf_counter() - started:.2f} s", file=sys.stderr)
    return 0


def _export_record(args: argparse.Namespace) -> int:
    """`export --id`: one record as the explorer's "Download this record" writes it."""
    from db.engine import database_url, make_engine
    from db.record_export import find_records, record_json

    if args.format != "json":
        print("cli.py export: --id writes JSON only (--format json)", file=sys.stderr)
        return 2
    engine = make_engine(database_url(args.db))
    found = find_records(engine, args.id)
    if len(found) != 1:
        what = "no record" if not found else f"{len(found)} records ({', '.join(found)}); give one share id"
        print(f"cli.py export: --id {args.id} names {what}", file=sys.stderr)
        return 1
    _write_text(record_json(engine, found[0]) or "", args.out)
    print("exported 1 record", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    if args.id:
        return _export_record(args)
    from records_io.report import to_csv, to_html, to_json, to_parquet
    from db.engine import database_url, make_engine
    from db.queries import CorpusFilter, comments_for, filtered_pks, verdict_rows

    if args.format == "parquet" and not args.out:
        print("cli.py export: --format parquet needs --out FILE", file=sys.stderr)
        return 2
    engine = make_engine(database_url(args.db))
    flt = CorpusFilter(models=tuple(args.model), domains=tuple(args.domain), answer=args.answer, trace=args.trace,
                       gap=args.gap, q=args.q.strip(), rule=args.rule, meta_key=args.meta_key,
                       meta_value=args.meta_value, label=args.label)
    pks = filtered_pks(engine, flt)
    rows = verdict_rows(engine, pks=pks)
    comments = comments_for(engine, pks) if args.comments else None
    if args.format == "parquet":
        Path(args.out).write_bytes(to_parquet(rows, comments))
    else:
        text = {"csv": lambda: to_csv(rows, comments), "json": lambda: to_json(rows, comments),
                "html": lambda: to_html(rows, comments, title="Stepscope export", base_url=args.base_url)}[args.format]()
        _write_text(text, args.out)
    print(f"exported {len(rows):,} record(s)", file=sys.stderr)
    return 0


def _write_text(text: str, out: str | None) -> None:
    """To the file named by --out, or standard output without one."""
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _render(rows: list[dict], fmt: str) -> str:
    """Flat rows as an aligned text table, CSV or JSON (rates to 4 places in table and CSV)."""
    import csv
    import json

    if fmt == "json":
        return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    columns = list(dict.fromkeys(k for r in rows for k in r))

    def cell(value: object) -> str:
        if value is None:
            return ""
        return f"{value:.4f}" if isinstance(value, float) else str(value)

    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([[cell(r.get(c)) for c in columns] for r in rows])
        return out.getvalue()
    cells = [[cell(r.get(c)) for c in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths))]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths)) for row in cells]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def cmd_summary(args: argparse.Namespace) -> int:
    from db.engine import database_url, make_engine
    from db.problems import selection_metrics
    from db.summary import flat_rows, summary

    by = tuple(k.strip() for k in args.by.split(",") if k.strip())
    try:
        engine = make_engine(database_url(args.db))
    except Exception as exc:  # noqa: BLE001 - a clear message instead of a traceback
        print(f"error: cannot open database: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    if args.selection:
        curves = None if args.format == "json" else ()
        rows = [r.to_json() for r in selection_metrics(engine, tuple(args.domain), curve_models=curves)]
        if args.format != "json":
            rows = [{k: v for k, v in r.items() if k not in ("curve", "curve_cut", "curve_min_problems")} for r in rows]
    else:
        try:
            rows = summary(engine, by)
        except ValueError as exc:
            print(f"cli.py summary: {exc}", file=sys.stderr)
            return 2
        if args.format != "json":
            rows = flat_rows(rows)
    sys.stdout.write(_render(rows, args.format))
    _note_summaries(engine)
    return 0


def _note_summaries(engine) -> None:
    """Say on standard error how many stored traces are summaries of reasoning (core/trace_kind.py)."""
    from core.trace_kind import SUMMARY_BANNER
    from db.trace_kinds import summary_trace_count

    n = summary_trace_count(engine)
    if n:
        print(f"note: {n:,} stored trace(s) are the model's summary of its reasoning (meta.trace_kind=summary): "
              f"{SUMMARY_BANNER} Their trace verdicts judge the summary's claims.", file=sys.stderr)


def _file_agreement_rows(verdicts_path: str, labels_path: str) -> list[tuple[str, str, dict, int | None]]:
    """Verdict lines beside the labelled rows they were audited from: by id when both have ids, else line by line."""
    import json

    from records_io.step_rows import LABEL_KEYS

    def lines(path: str) -> list[dict]:
        with open(path, encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]

    verdicts, rows = lines(verdicts_path), lines(labels_path)
    by_id = {r["id"]: r for r in rows if r.get("id") is not None}
    if len(by_id) == len(rows) and all(v.get("id") in by_id for v in verdicts):
        pairs = [(v, by_id[v["id"]]) for v in verdicts]
    elif len(verdicts) == len(rows):
        pairs = list(zip(verdicts, rows))
    else:
        raise ValueError(f"{verdicts_path} has {len(verdicts)} verdicts and {labels_path} {len(rows)} rows, "
                         "and they cannot be joined by id")
    name = os.path.basename(labels_path)
    return [(name, v.get("domain") or "", {k: r[k] for k in LABEL_KEYS if k in r}, v.get("first_invalid_step"))
            for v, r in pairs]


def cmd_agreement(args: argparse.Namespace) -> int:
    from metrics.agreement import KINDS, agreement_table
    from metrics.score_agreement import SCORE_COLUMNS

    scores: list[dict] = []
    try:
        if args.verdicts:
            if not args.labels:
                print("cli.py agreement: a verdicts file needs --labels (the labelled rows it was audited from)",
                      file=sys.stderr)
                return 2
            table = agreement_table(_file_agreement_rows(args.verdicts, args.labels))
        else:
            from db.agreement import label_agreement, score_agreement
            from db.engine import database_url, make_engine

            engine = make_engine(database_url(args.db))
            table, scores = label_agreement(engine), score_agreement(engine, args.threshold)
    except (OSError, ValueError) as exc:
        print(f"cli.py agreement: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a clear message instead of a traceback
        print(f"error: cannot open database: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    columns = ["source", "domain", "traces", *KINDS, "accuracy", "acc_mistake", "acc_no_mistake", "processbench_f1"]
    if args.format != "table":
        rows = scores if args.scores else table
        sys.stdout.write(_render(rows, args.format))
        return 0
    sys.stdout.write(_render([{c: r[c] for c in columns} for r in table], "table"))
    if scores:
        sys.stdout.write(f"\nper-step scores against our step verdicts (a score below {args.threshold:g}: the "
                         "scorer says the step is wrong)\n")
        sys.stdout.write(_render([{c: r[c] for c in SCORE_COLUMNS if c != "threshold"} for r in scores], "table"))
    return 0


def cmd_labels_import(args: argparse.Namespace) -> int:
    """Outside judgments (metrics.outside_labels) joined by id to the stored records."""
    from metrics.outside_labels import read_judgments

    try:
        with open(args.file, "rb") as fh:
            good, bad = read_judgments(fh)
    except OSError as exc:
        print(f"cli.py labels import: {exc}", file=sys.stderr)
        return 2
    for line, message in bad:
        print(f"{args.file}:{line}: {message}", file=sys.stderr)
    from sqlalchemy.exc import SQLAlchemyError

    from db.engine import database_url, make_engine
    from db.outside import import_judgments

    try:
        report = import_judgments(make_engine(database_url(args.db)), good)
    except SQLAlchemyError as exc:  # a clear message instead of a traceback
        print(f"error: database: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    for line, message in report.ambiguous + report.warnings:
        print(f"{args.file}:{line}: {message}", file=sys.stderr)
    for line, rid in report.unknown:
        print(f"{args.file}:{line}: no stored record has id {rid!r}", file=sys.stderr)
    print(f"imported {report.imported:,} judgment(s) of {report.records:,} record(s); {len(bad):,} malformed "
          f"line(s), {len(report.unknown):,} unknown id(s), {len(report.ambiguous):,} ambiguous", file=sys.stderr)
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    """Remove what one source (an uploaded file, an audited input path) stored: whoever can
    open the database owns it, so the only guard is the confirmation."""
    from db.engine import database_url, make_engine
    from db.sources import delete_source, list_sources

    try:
        engine = make_engine(database_url(args.db))
    except Exception as exc:  # noqa: BLE001 - a clear message instead of a traceback
        print(f"error: cannot open database: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    sources = {s.source: s for s in list_sources(engine)}
    if args.list or args.source is None:
        rows = [{"source": s.source or "(none)", "records": s.records, "unreadable": s.malformed,
                 "last stored": str(s.last)[:19]} for s in sources.values()]
        sys.stdout.write(_render(rows, "table") if rows else "no records stored\n")
        return 0 if args.list else 2
    found = sources.get(args.source)
    if found is None:
        print(f"cli.py delete: no records from source {args.source!r}; `cli.py delete --list` shows the "
              "sources (an input's path as it was given to cli.py audit, an upload's file name)", file=sys.stderr)
        return 2
    what = f"{found.records:,} record(s) from source {args.source!r} with their steps, verdicts and comments"
    if not args.yes:
        if not sys.stdin.isatty():
            print(f"cli.py delete: this deletes {what}; pass --yes to confirm", file=sys.stderr)
            return 2
        if input(f"Delete {what}? [y/N] ").strip().lower() not in ("y", "yes"):
            print("nothing deleted", file=sys.stderr)
            return 1
    n = delete_source(engine, args.source)
    print(f"deleted {n:,} record(s) from source {args.source!r}", file=sys.stderr)
    return 0


def cmd_capture(args: argparse.Namespace) -> int:
    from capture.headless import main as capture_main

    return capture_main(args)


def cmd_generate(args: argparse.Namespace) -> int:
    import json

    from validators.generated import generated_records, parse_lengths

    try:
        records = generated_records(args.domain, parse_lengths(args.lengths), args.per_length, args.seed)
    except ValueError as exc:
        print(f"cli.py generate: {exc}", file=sys.stderr)
        return 2
    _write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), args.out)
    print(f"wrote {len(records):,} {args.domain} problem record(s)", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from db.queries import ANSWER_CHOICES, TRACE_CHOICES

    parser = argparse.ArgumentParser(prog="cli.py", description="Stepscope: audit reasoning traces step by step.")
    sub = parser.add_subparsers(dest="command", required=True)
    audit = sub.add_parser("audit", help="audit a file of trace records (JSONL; '-' for stdin)")
    audit.add_argument("input", help="records file (JSONL, JSON, Parquet, text, chat-completion responses, "
                       "lm-eval samples), a Hugging Face dataset folder, or -")
    audit.add_argument("--out", help="verdicts file: JSONL, or Parquet when it ends in .parquet; default standard "
                       "output (with --engine ray and --db: none)")
    audit.add_argument("--db", help="database URL; default $STEPSCOPE_DATABASE_URL or data/stepscope.db")
    audit.add_argument("--workers", type=int, default=1, help="worker processes for parsing and replay")
    audit.add_argument("--input-format", choices=["auto", "jsonl", "json", "text", "parquet", "eval"], default="auto",
                       help="how to read INPUT (auto: by extension, else JSONL; eval: an Inspect log archive)")
    audit.add_argument("--domain", help="domain for records that do not name one (and for text input); rows of "
                       "step-labelled datasets (a 'steps' list) without it get the task their input surely poses")
    audit.add_argument("--rollout-layout", choices=["auto", "verl", "trl"], default="auto",
                       help="RL rollout dumps: verl (input/output/gts/score rows) or TRL (prompt/completion and "
                            "a column per reward function); auto tells them by their columns, records pass as they are")
    audit.add_argument("--source", help="read INPUT as this source instead of detecting it: record, "
                       "chat_completion, step_rows, rollout, lm_eval (lm-evaluation-harness samples_*.jsonl), "
                       "inspect (Inspect .eval or .json logs; the inspect extra), hf_dataset (a save_to_disk folder, Parquet file or shards); the summary names the source used")
    audit.add_argument("--map", help="hf_dataset: which column holds which record field, e.g. "
                       "trace=reasoning,answer=output,id=qid,domain=task (also question=, reference_answer=, "
                       "problem.KEY=); default the record field names, else common aliases, named in the summary")
    audit.add_argument("--engine", choices=["local", "ray"], default="local",
                       help="local: this machine (--workers N); ray: a Ray cluster (needs requirements-ray.txt). "
                       "With ray, INPUT may be a file, a directory or a glob of JSONL/Parquet files")
    audit.add_argument("--address", help="--engine ray: the cluster ('auto', HOST:PORT, or ray://HOST:PORT for Ray "
                       "Client); default $RAY_ADDRESS, else a local cluster started for this run")
    audit.set_defaults(func=cmd_audit)
    reaudit = sub.add_parser("reaudit", help="re-run audits whose verdicts came from an older validator")
    reaudit.add_argument("--db", help="database URL; default $STEPSCOPE_DATABASE_URL or data/stepscope.db")
    reaudit.set_defaults(func=cmd_reaudit)
    export = sub.add_parser("export", help="write the stored verdicts of a corpus view (the same filters as the "
                            "corpus page) as CSV, JSON, HTML or Parquet")
    export.add_argument("--db", help="database URL; default $STEPSCOPE_DATABASE_URL or data/stepscope.db")
    export.add_argument("--format", choices=["csv", "json", "html", "parquet"], default="csv")
    export.add_argument("--out", help="output file; default standard output (not for parquet)")
    export.add_argument("--model", action="append", default=[], help="a model (repeatable); '(unknown)' for none")
    export.add_argument("--domain", action="append", default=[], help="a domain (repeatable)")
    export.add_argument("--answer", choices=list(ANSWER_CHOICES), help="answer verdict")
    export.add_argument("--trace", choices=list(TRACE_CHOICES), help="trace verdict")
    export.add_argument("--gap", help="a gap kind, e.g. right_answer_invalid_trace")
    export.add_argument("--rule", help="traces with an invalid step of this rule")
    export.add_argument("--q", default="", help="text in any step")
    export.add_argument("--meta-key", help="records whose meta has this key (the corpus page's 'Meta key')")
    export.add_argument("--meta-value", help="... with this value, as the corpus page lists it (e.g. 0.7, true)")
    export.add_argument("--id", help="one record (its share id, or its record id) as one JSON document: the record, "
                        "its verdict and its comments, as the explorer's 'Download this record' writes it (an id "
                        "that begins with '-', from a database older than that rule, is written --id=ID)")
    export.add_argument("--label", help="records with a comment carrying this label (e.g. 'misread rule')")
    export.add_argument("--comments", action="store_true", help="include reviewer comments")
    export.add_argument("--base-url", default="", help="the app's address, for links in the HTML report "
                        "(e.g. http://localhost:8501)")
    export.set_defaults(func=cmd_export)
    summ = sub.add_parser("summary", help="the model x domain table of the stored verdicts (records, answer correct "
                          "and unknown rates, trace valid rate, median first invalid step, gaps by kind); "
                          "--selection: pass@1, majority vote and verified@n over problems with several samples")
    summ.add_argument("--db", help="database URL; default $STEPSCOPE_DATABASE_URL or data/stepscope.db")
    summ.add_argument("--by", default="model,domain", help="group by these, comma-separated (model, domain; "
                      "'' for one row)")
    summ.add_argument("--format", choices=["table", "csv", "json"], default="table")
    summ.add_argument("--selection", action="store_true", help="selection metrics per model and domain instead "
                      "(JSON adds the curves against k)")
    summ.add_argument("--domain", action="append", default=[], help="--selection: only this domain (repeatable)")
    summ.set_defaults(func=cmd_summary)
    agree = sub.add_parser("agreement", help="our first invalid step against reference labels (BIG-Bench Mistake's "
                           "mistake_index, ProcessBench's label, imported first mistakes) per source and domain: "
                           "exact, earlier, later, we flag none, label says none; accuracy with and without a mistake "
                           "and ProcessBench's F1; and imported per-step scores against our step verdicts at a threshold")
    agree.add_argument("verdicts", nargs="?", help="verdicts JSONL from cli.py audit; without it, the stored "
                       "records that came with labels")
    agree.add_argument("--labels", help="the labelled rows VERDICTS was audited from (joined by id, else by line)")
    agree.add_argument("--db", help="database URL; default $STEPSCOPE_DATABASE_URL or data/stepscope.db")
    agree.add_argument("--format", choices=["table", "csv", "json"], default="table")
    agree.add_argument("--threshold", type=float, default=0.5, help="per-step scores (cli.py labels import): a "
                       "score below this says the step is wrong (default 0.5)")
    agree.add_argument("--scores", action="store_true", help="csv/json: the per-step score table (first flags and "
                       "step-level precision/recall against our invalid steps) instead of the label table; the text "
                       "table shows both")
    agree.set_defaults(func=cmd_agreement)
    labels = sub.add_parser("labels", help="outside judgments of stored traces (a PRM's per-step scores, an LLM "
                            "judge's first mistake), kept beside our verdicts")
    labels_sub = labels.add_subparsers(dest="labels_command", required=True)
    limport = labels_sub.add_parser("import", help="import a JSONL file of judgments joined to stored records by id "
                                    "(README, 'Outside judgments'): {\"id\", \"source\", \"step_scores\": [...]} or "
                                    "{\"id\", \"source\", \"first_mistake\": n|null}")
    limport.add_argument("file", help="judgments JSONL")
    limport.add_argument("--db", help="database URL; default $STEPSCOPE_DATABASE_URL or data/stepscope.db")
    limport.set_defaults(func=cmd_labels_import)
    delete = sub.add_parser("delete", help="delete every record one source stored (an uploaded file's name, an "
                            "input path given to cli.py audit), with its steps, verdicts and comments")
    delete.add_argument("--source", help="the source to delete, exactly as `--list` shows it")
    delete.add_argument("--list", action="store_true", help="list the sources with their record counts")
    delete.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    delete.add_argument("--db", help="database URL; default $STEPSCOPE_DATABASE_URL or data/stepscope.db")
    delete.set_defaults(func=cmd_delete)
    capture = sub.add_parser("capture", help="run a model on a record's problem (live, through litellm), "
                             "store and audit the answer; --rounds N runs the LLM-Modulo loop")
    _capture_arguments(capture)
    capture.set_defaults(func=cmd_capture)
    generate = sub.add_parser("generate", help="write problem records by length (last_letter, multiplication), "
                              "deterministic by seed, for live capture")
    generate.add_argument("domain", help="a domain with a generator: last_letter, multiplication")
    generate.add_argument("--lengths", default="2..12", help="'2..12', '2,4,8' or '5' (words; digits per factor)")
    generate.add_argument("--per-length", type=int, default=10, help="problems per length")
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("--out", help="JSONL file; default standard output")
    generate.set_defaults(func=cmd_generate)
    return parser


def _capture_arguments(parser: argparse.ArgumentParser) -> None:
    from capture.headless import add_arguments

    add_arguments(parser)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
