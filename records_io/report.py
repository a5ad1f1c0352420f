"""Audit reports (CSV, JSON, Parquet, self-contained HTML) from stored verdict rows. Pure
rendering: every user-supplied string is escaped for its output format. The HTML report links
each record and each invalid step back to the explorer when given the app's address, and folds
each record's details so a report of thousands of records stays readable without scripts."""

from __future__ import annotations

import csv
import html
import io
import json
from collections import Counter
from datetime import datetime, timezone
from typing import Any

from core.trace_kind import REASONING, SUMMARY, SUMMARY_BANNER, SUMMARY_LABEL, SUMMARY_NOTE, verdict_is_summary
from core.verdicts import trace_check, trace_label

CSV_COLUMNS = ["record_id", "share_id", "domain", "model", "status", "parse_ok", "n_steps", "answer_correct",
               "answer_error_kind", "answer_error_step", "answer_error_message", "trace_valid", "trace_check",
               "trace_kind", "first_invalid_step", "n_invalid", "invalid_rules", "gaps", "error", "reward", "rewards", "comments"]


def rollout_rewards(row: dict[str, Any]) -> tuple[float | None, str]:
    """An RL rollout's reward from its trainer (verl's `score`, TRL 0.14's `reward`) and every
    reward column as "name=value; ..." (rewards/rollouts.py stores them in the record's meta)."""
    rewards = (row.get("rollout") or {}).get("rewards") or {}
    if not isinstance(rewards, dict):
        return None, ""
    total = next((rewards[k] for k in ("score", "reward") if isinstance(rewards.get(k), (int, float))), None)
    return total, "; ".join(f"{k}={v:g}" if isinstance(v, (int, float)) else f"{k}={v}" for k, v in rewards.items())


def _flat(row: dict[str, Any], comments: list[dict[str, Any]] | None) -> dict[str, Any]:
    v = row.get("verdict") or {}
    reward, rewards = rollout_rewards(row)
    err = v.get("answer_error") or {}
    invalid = v.get("invalid_steps") or []
    return {
        "record_id": row.get("record_id"), "share_id": row.get("share_id"), "domain": row.get("domain"),
        "model": row.get("model"), "status": row.get("status"),
        "parse_ok": (v.get("parse") or {}).get("ok"), "n_steps": (v.get("parse") or {}).get("n_steps"),
        "answer_correct": v.get("answer_correct"), "answer_error_kind": err.get("kind"),
        "answer_error_step": err.get("step"), "answer_error_message": err.get("message"),
        "trace_valid": v.get("trace_valid"),
        "trace_check": v.get("trace_check") or trace_check(v.get("trace_valid"), False),
        # "summary": the trace is the model's summary of hidden reasoning (core/trace_kind.py)
        "trace_kind": SUMMARY if verdict_is_summary(v) else REASONING,
        "first_invalid_step": v.get("first_invalid_step"),
        "n_invalid": len(invalid),
        "invalid_rules": ";".join(sorted({s.get("rule") or "" for s in invalid})),
        "gaps": ";".join(g["kind"] for g in v.get("gaps") or []),
        "error": row.get("error"), "reward": reward, "rewards": rewards or None,
        "comments": None if comments is None else " | ".join(
            f"[step {c['step_idx']}]" + (f" [{c['label']}]" if c.get("label") else "")
            + (f" on \"{c['quote']}\" ({c['quote_start']}-{c['quote_end']})" if c.get("quote") else "")
            + f" {c['author']}: {c['text']}"
            for c in comments),
    }


def _csv_safe(value: Any) -> Any:
    # Spreadsheet formula injection: a cell starting with = + - @ would be evaluated on open.
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def to_csv(rows: list[dict[str, Any]], comments: dict[int, list[dict[str, Any]]] | None = None) -> str:
    buf = io.StringIO()
    cols = CSV_COLUMNS if comments is not None else CSV_COLUMNS[:-1]
    writer = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        flat = _flat(row, None if comments is None else comments.get(row["pk"], []))
        writer.writerow({k: _csv_safe(flat[k]) for k in cols})
    return buf.getvalue()


def to_parquet(rows: list[dict[str, Any]], comments: dict[int, list[dict[str, Any]]] | None = None) -> bytes:
    """The CSV columns with their types kept (booleans stay booleans, counts integers), for pandas,
    DuckDB or Polars."""
    import pandas as pd

    cols = CSV_COLUMNS if comments is not None else CSV_COLUMNS[:-1]
    frame = pd.DataFrame([_flat(row, None if comments is None else comments.get(row["pk"], [])) for row in rows],
                         columns=cols)
    for col in ("parse_ok", "answer_correct", "trace_valid"):
        frame[col] = frame[col].astype("boolean")
    for col in ("n_steps", "answer_error_step", "first_invalid_step", "n_invalid"):
        frame[col] = frame[col].astype("Int64")
    frame["reward"] = frame["reward"].astype("Float64")
    buf = io.BytesIO()
    frame.to_parquet(buf, index=False)
    return buf.getvalue()


def jsonable_comment(c: dict[str, Any]) -> dict[str, Any]:
    created = c.get("created_at")
    anchor = ({"quote": c["quote"], "start": c.get("quote_start"), "end": c.get("quote_end")}
              if c.get("quote") else None)
    return {"step": c.get("step_idx"), "author": c.get("author"), "label": c.get("label"), "text": c.get("text"),
            "anchor": anchor, "created_at": created.isoformat() if hasattr(created, "isoformat") else created}


def to_json(rows: list[dict[str, Any]], comments: dict[int, list[dict[str, Any]]] | None = None) -> str:
    out = []
    for row in rows:
        item = dict(row.get("verdict") or {"id": row.get("record_id"), "parse": {"ok": False}})
        item["share_id"] = row.get("share_id")
        item["model"] = row.get("model")
        if row.get("rollout"):
            item["rollout"] = row["rollout"]
        if comments is not None:
            item["comments"] = [jsonable_comment(c) for c in comments.get(row["pk"], [])]
        out.append(item)
    return json.dumps(out, ensure_ascii=False, indent=1)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    answers: Counter = Counter()
    traces: Counter = Counter()
    gaps: Counter = Counter()
    unreadable = summaries = 0
    for row in rows:
        v = row.get("verdict") or {}
        if row.get("status") != "ok":
            unreadable += 1
        summaries += verdict_is_summary(v)
        answers[{True: "correct", False: "wrong"}.get(v.get("answer_correct"), "undecided")] += 1
        traces[trace_label(v.get("trace_check"), v.get("trace_valid"))] += 1
        gaps.update(g["kind"] for g in v.get("gaps") or [])
    return {"records": len(rows), "unreadable": unreadable, "answers": dict(answers),
            "traces": dict(traces), "gaps": dict(gaps), "summaries": summaries}


_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #ddd;padding:4px 6px;vertical-align:top;text-align:left}
th{background:#f4f4f4}.bad{color:#b00020;font-weight:600}.good{color:#0a7d32}.muted{color:#777}
.card{display:inline-block;border:1px solid #ddd;border-radius:6px;padding:.5em 1em;margin:0 .5em .5em 0}
pre{white-space:pre-wrap;margin:0}
.summary{color:#8a5a00;font-weight:600}.note{border-left:4px solid #e0a800;padding:.3em .8em;background:#fff8e1}
details>summary{cursor:pointer}details{margin:.2em 0}
"""


def to_html(rows: list[dict[str, Any]], comments: dict[int, list[dict[str, Any]]] | None = None,
            title: str = "Stepscope audit report", base_url: str = "") -> str:
    """One file, no scripts, no external resources; opens anywhere."""
    e = html.escape
    s = summary(rows)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{e(title)}</title>",
             f"<style>{_STYLE}</style></head><body><h1>{e(title)}</h1>",
             f"<p class='muted'>Generated {e(datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC'))}</p>"]
    cards = [("records", s["records"]), ("unreadable", s["unreadable"])]
    cards += [(f"answer {k}", n) for k, n in sorted(s["answers"].items())]
    cards += [(f"trace {k}", n) for k, n in sorted(s["traces"].items())]
    cards += [(f"gap {k}", n) for k, n in sorted(s["gaps"].items())]
    if s["summaries"]:
        cards.append((f"trace {SUMMARY_LABEL}", s["summaries"]))
    parts.append("".join(f"<div class='card'><b>{n}</b> {e(k)}</div>" for k, n in cards))
    if s["summaries"]:
        parts.append(f"<p class='note'>{s['summaries']} record(s) below hold a {e(SUMMARY_LABEL)}, marked "
                     f"<span class='summary'>{e(SUMMARY_LABEL)}</span>: {e(SUMMARY_BANNER)} {e(SUMMARY_NOTE)}</p>")
    parts.append("<table><tr><th>record</th><th>domain / model</th><th>answer</th><th>trace</th>"
                 "<th>invalid steps</th><th>gaps</th>" + ("<th>comments</th>" if comments is not None else "")
                 + "</tr>")
    for row in rows:
        v = row.get("verdict") or {}
        err = v.get("answer_error") or {}
        ans = {True: "<span class='good'>correct</span>", False: "<span class='bad'>wrong</span>"}.get(
            v.get("answer_correct"), "<span class='muted'>undecided</span>")
        if err.get("message"):
            ans += f"<br><span class='muted'>{e(str(err.get('message')))}</span>"
        if row.get("rollout"):
            ans += f"<br><span class='muted'>rollout rewards: {e(rollout_rewards(row)[1] or 'none logged')}</span>"
        trc_name = trace_label(v.get("trace_check"), v.get("trace_valid"))
        trc = f"<span class='{ {'valid': 'good', 'invalid': 'bad'}.get(trc_name, 'muted') }'>{trc_name}</span>"
        if verdict_is_summary(v):
            trc += f"<br><span class='summary' title='{e(SUMMARY_BANNER)}'>{e(SUMMARY_LABEL)}</span>"
        link = (f"{base_url.rstrip('/')}/explorer?trace={row['share_id']}" if base_url and row.get("share_id")
                else None)
        invalid = v.get("invalid_steps") or []

        def step_ref(n: int) -> str:
            return f"<a href='{e(link)}&amp;step={n}'>#{n}</a>" if link else f"#{n}"

        inv = "".join(f"<div>{step_ref(int(s_['step']))} <b>{e(str(s_.get('rule')))}</b>: {e(str(s_.get('message')))}"
                      "</div>" for s_ in invalid[:200])
        if len(invalid) > 200:
            inv += f"<div class='muted'>and {len(invalid) - 200} more</div>"
        if invalid:
            inv = f"<details><summary>{len(invalid)} invalid step(s), first {step_ref(int(invalid[0]['step']))}</summary>{inv}</details>"
        gaps = "".join(f"<details><summary><b>{e(g['kind'])}</b></summary>{e(str(g.get('message')))}</details>"
                       for g in v.get("gaps") or [])
        rid = e(str(row.get("record_id")))
        if link:
            rid = f"<a href='{e(link)}'>{rid}</a>"
        if row.get("status") != "ok":
            rid += f"<br><span class='bad'>{e(str(row.get('error')))}</span>"
        cells = [rid, f"{e(str(row.get('domain')))}<br><span class='muted'>{e(str(row.get('model') or ''))}</span>",
                 ans, trc, inv, gaps]
        if comments is not None:
            cells.append("".join(
                f"<div><b>{e(str(c['author']))}</b> (step {e(str(c['step_idx']))})"
                + (f" <i>{e(str(c['label']))}</i>" if c.get("label") else "")
                + (f" on <q>{e(c['quote'])}</q> ({e(str(c.get('quote_start')))}-{e(str(c.get('quote_end')))})"
                   if c.get("quote") else "")
                + f": <pre>{e(c['text'])}</pre></div>"
                for c in comments.get(row["pk"], [])))
        parts.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    parts.append("</table></body></html>")
    return "".join(parts)
