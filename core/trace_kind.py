"""What a record's trace is: the model's reasoning as written, or a summary of it.

o1/o3-style models keep their reasoning hidden and show a summary (the Responses API's reasoning
summaries, capture/responses.py). A record says so with `meta.trace_kind = "summary"`, whether it
was captured here or uploaded. Its claims are read and checked like any trace's, but it is not
the derivation: every view (explorer, corpus and upload tables, reports, `cli.py` output, the
verdict's `trace_kind` field) marks it with the words below, so a valid summary is never read as
a valid chain of reasoning.
"""

from __future__ import annotations

from typing import Any

SUMMARY = "summary"
REASONING = "reasoning"

# The explorer's banner, and the line reports put beside a summary's trace verdict.
SUMMARY_BANNER = "This is the model's summary of its reasoning, not the reasoning itself."
SUMMARY_NOTE = ("Its claims are checked like any trace's, but a summary is not the derivation: "
                "a step it leaves out was never shown, and a valid summary does not make the reasoning valid.")
# The short mark in tables (corpus, upload, CSV) and in `cli.py` summaries.
SUMMARY_LABEL = "summary of reasoning"


def trace_kind(meta: Any) -> str:
    """`summary` when the record's meta says its trace is a summary, else `reasoning`."""
    if isinstance(meta, dict) and str(meta.get("trace_kind") or "").strip().lower() == SUMMARY:
        return SUMMARY
    return REASONING


def is_summary(meta: Any) -> bool:
    return trace_kind(meta) == SUMMARY


def verdict_is_summary(verdict: Any) -> bool:
    """A stored verdict's own mark (record-format §2 `trace_kind`)."""
    return isinstance(verdict, dict) and verdict.get("trace_kind") == SUMMARY


def marked_label(label: str, summary: bool) -> str:
    """A table's trace verdict with the summary mark beside it: "valid · summary of reasoning"."""
    return f"{label} · {SUMMARY_LABEL}" if summary else label
