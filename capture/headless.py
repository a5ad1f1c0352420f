"""`python cli.py capture RECORD.json --model MODEL [--api-base URL] [--api chat|responses] [--rounds N] [--db URL]`.

The problem comes from the record (its trace and answer are ignored). The capture is stored and
audited; standard output gets its verdict (record-format §2) with the captured `trace` and
`answer` added, plus a `capture` summary. With `--api responses` the call goes through the
Responses API, and an o1/o3-style model's reasoning summary is the trace: the verdict's
`trace_kind` is "summary" and standard error says it is a summary, not the reasoning. Progress and errors go to standard error.
Exit status: 0 stored (also when cut short: `capture.incomplete` says so), 1 the model call
failed before anything arrived (nothing stored), 2 unreadable input or database.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from capture.client import ModelSettings
from capture.keys import find_api_key, scrub, secret_values
from capture.prompts import PromptError, get_template
from records_io.intake import object_to_record
from core.record import TraceRecord
from core.trace_kind import SUMMARY_BANNER, is_summary


def read_source(path: str) -> TraceRecord:
    """The one record a capture starts from: a JSON object, a one-element array, or one JSONL line."""
    data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    text = data.decode("utf-8-sig")
    try:
        doc = json.loads(text)
        items = doc if isinstance(doc, list) else [doc]
    except ValueError:
        items = [json.loads(line) for line in text.splitlines() if line.strip()]
    if len(items) != 1:
        raise ValueError(f"the file holds {len(items)} records; a capture starts from exactly one")
    return object_to_record(items[0])


class _Printer:
    """Streams deltas to standard error when it is a terminal; round summaries always."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.live = err.isatty()
        self.kind: str | None = None

    def __call__(self, kind: str, round_no: int, data: Any) -> None:
        if kind == "round_start":
            self.err.write(f"round {round_no}: sending {len(data):,} characters\n")
        elif kind in ("thinking", "answer") and self.live:
            if kind != self.kind:
                self.err.write(f"\n[{kind}]\n")
                self.kind = kind
            self.err.write(data)
        elif kind == "round_end":
            self.kind = None
            comp = data.completion
            got = f"{len(data.thinking):,} thinking / {len(data.answer):,} answer characters"
            state = ""
            if data.verdict is not None:
                ok = data.answer_correct
                error = data.verdict.get("answer_error") or {}
                state = {True: "answer valid", None: "answer undecided"}.get(
                    ok, f"answer invalid ({error.get('kind')}{' at step ' + str(error['step']) if error.get('step') else ''})")
            if comp is not None and not comp.thinking_returned:
                got += " (no thinking returned: reasoning hidden or summarised)"
            elif comp is not None and comp.thinking_kind == "summary":
                got = got.replace(" thinking /", " reasoning-summary /")
            self.err.write(("\n" if self.live else "") + f"round {round_no}: {got}" + (f"; {state}" if state else "") + "\n")
        self.err.flush()


def main(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    from capture.modulo import run_capture
    from capture.store import store_capture
    from db.engine import make_engine

    if args.rounds < 1:
        err.write("error: --rounds must be at least 1\n")
        return 2
    if args.template and get_template(args.template) is None:
        err.write(f"error: unknown template {args.template!r}\n")
        return 2
    try:
        source = read_source(args.record)
    except (OSError, ValueError) as exc:
        err.write(f"error: cannot read {args.record}: {getattr(exc, 'strerror', None) or exc}\n")
        return 2
    key = find_api_key(args.model)
    secrets = secret_values([key.value])
    settings = ModelSettings(model=args.model, api_base=args.api_base or None, timeout=args.timeout,
                             max_tokens=args.max_tokens, temperature=args.temperature,
                             reasoning_effort=args.reasoning_effort, api_key=key.value,
                             api=getattr(args, "api", None) or "chat")
    try:
        engine = make_engine(args.db)
    except Exception as exc:  # noqa: BLE001 - a clear message instead of a traceback
        err.write(f"error: cannot open database: {type(exc).__name__}: {scrub(str(exc), secrets)}\n")
        return 2
    via = " through the Responses API" if settings.api == "responses" else ""
    err.write(f"capturing {source.domain} problem {source.id} with {args.model}{via} (API key {key.describe()})\n")
    try:
        result = run_capture(source, settings, rounds=args.rounds, template=args.template,
                             on_event=_Printer(err), secrets=secrets)
    except PromptError as exc:
        err.write(f"error: cannot build the prompt: {exc}\n")
        return 2
    if result.error is not None:
        err.write(f"{'warning' if result.captured_anything else 'error'}: {result.error.message}\n")
    if not result.captured_anything:
        err.write("nothing arrived, so nothing was stored\n")
        return 1
    verdict, share_id = store_capture(engine, result.record, source=f"capture:{args.model}"[:512])
    report = dict(verdict)
    report["trace"] = result.record["trace"]
    report["answer"] = result.record["answer"]
    report["capture"] = {**{k: v for k, v in result.record["meta"]["capture"].items() if k != "usage"},
                         "share_id": share_id}
    out.write(scrub(json.dumps(report, ensure_ascii=False), secrets) + "\n")
    out.flush()
    if is_summary(result.record["meta"]):
        err.write(f"trace: {SUMMARY_BANNER} Its claims are checked, but it is not the derivation.\n")
    err.write(f"stored as {result.record['id']} (share id {share_id}); stop: {result.stop_reason}\n")
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a record (JSON object or one JSONL line; '-' for stdin) whose problem to use")
    parser.add_argument("--model", required=True, help="litellm model string, e.g. deepseek/deepseek-reasoner, "
                        "anthropic/claude-3-7-sonnet-20250219, openai/<name> with --api-base")
    parser.add_argument("--api-base", help="base URL of an OpenAI-compatible server (vLLM, Ollama, ...)")
    parser.add_argument("--api", choices=["chat", "responses"], default="chat",
                        help="chat completions (default), or OpenAI's Responses API: o1/o3-style models then "
                        "return a summary of their reasoning, stored and marked as a summary")
    parser.add_argument("--rounds", type=int, default=1, help="LLM-Modulo rounds: back-prompt the validator's "
                        "critique until the answer is valid or N rounds have run (default 1: one call)")
    parser.add_argument("--template", help="prompt template (default: the domain's own)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for each response")
    parser.add_argument("--max-tokens", type=int, help="answer token limit")
    parser.add_argument("--temperature", type=float)
    parser.add_argument("--reasoning-effort", choices=["low", "medium", "high"],
                        help="ask for thinking where the provider supports it (OpenAI o-series, Anthropic)")
    parser.add_argument("--db", help="database URL; default $STEPSCOPE_DATABASE_URL or data/stepscope.db")
