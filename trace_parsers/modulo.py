"""LLM-Modulo generate-test loops (format `llm_modulo`): one step per round.

Live capture writes a back-prompting loop (Kambhampati et al. 2024, "LLMs Can't Plan, But Can
Help Planning in LLM-Modulo Frameworks"; PlanBench's back_prompting.py) as one trace. Each round
is four parts, each under a marker line of its own:

    ## Round 1 · prompt
    <what was sent: the problem prompt in round 1, the validator's critique after that>
    ## Round 1 · thinking
    <the model's thinking as streamed; empty when the provider returned none>
    ## Round 1 · answer
    <the model's answer>
    ## Round 1 · verdict
    {"answer_correct": false, "kind": "unmet_precondition", "step": 2, "message": "...", ...}

The verdict part is one JSON object: the sound validator's judgement of that round's answer
(record-format §2 `answer_correct` plus the `answer_error` fields), and `incomplete`/`error`
when the stream was cut. The record's `answer` is the last round's answer.

Graph: one step per round in a chain; a round that follows a rejected round also gets a
"backtrack" edge to it (the next candidate revises the critiqued one; its prompt part is the
critique), and each round's thinking is segmented with the `think` rules
(`payload["thinking_steps"]`: [start, end, kind]). Planning replay checks each round's answer.

A content line that looks exactly like a marker is written with a leading backslash
(`render_rounds`), so text a model writes can never split a round.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from core.record import TraceRecord
from core.steps import Step, StepGraph
from core.verdicts import ParseError
from trace_parsers._thinking import classify, segment
from trace_parsers.base import FormatSpec, ParsedTrace

NAME = "llm_modulo"
PARTS = ("prompt", "thinking", "answer", "verdict")
_MARKER = re.compile(r"^## Round (\d+) · (prompt|thinking|answer|verdict)[ \t]*$", re.M)
_MARKER_LIKE = re.compile(r"^(\\*)(## Round \d+ · (?:prompt|thinking|answer|verdict)[ \t]*)$", re.M)


@dataclass
class RoundText:
    """One round as it is written into the trace."""

    prompt: str
    thinking: str
    answer: str
    verdict: dict[str, Any] = field(default_factory=dict)


def marker(round_no: int, part: str) -> str:
    return f"## Round {round_no} · {part}"


def _escape(text: str) -> str:
    return _MARKER_LIKE.sub(lambda m: "\\" + m.group(1) + m.group(2), text)


def render_rounds(rounds: list[RoundText]) -> str:
    """The trace text of a loop; `parse` reads it back one step per round."""
    out: list[str] = []
    for k, rnd in enumerate(rounds, start=1):
        verdict = json.dumps(rnd.verdict, ensure_ascii=False, sort_keys=True)
        for part, text in zip(PARTS, (rnd.prompt, rnd.thinking, rnd.answer, verdict)):
            body = _escape(text).rstrip("\n")
            out.append(marker(k, part) + "\n" + (body + "\n" if body else ""))
    return "\n".join(out)


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while end > start and text[end - 1] in "\r\n":
        end -= 1
    return start, end


def detect(record: TraceRecord) -> float:
    return 0.98 if record.trace.lstrip().startswith(marker(1, "prompt")) else 0.0


def parse(record: TraceRecord) -> ParsedTrace:
    text = record.trace
    errors: list[ParseError] = []
    accepted: list[tuple[int, str, int, int]] = []  # round, part, marker start, content start
    want_round, want_part = 1, 0
    for match in _MARKER.finditer(text):
        round_no, part = int(match.group(1)), match.group(2)
        content = match.end() + (1 if text[match.end():match.end() + 1] == "\n" else 0)
        if want_part < len(PARTS) and round_no == want_round and part == PARTS[want_part]:
            want_part += 1
        elif part == "prompt" and round_no == want_round + 1 and want_part >= 1:
            if want_part < len(PARTS):
                errors.append(ParseError(f"round {want_round} has no {', '.join(PARTS[want_part:])} part",
                                         _line(text, match.start())))
            want_round, want_part = round_no, 1
        else:
            errors.append(ParseError(f"marker '{match.group(0).strip()}' is out of order; kept as text",
                                     _line(text, match.start())))
            continue
        accepted.append((round_no, part, match.start(), content))
    if accepted and want_part < len(PARTS):
        errors.append(ParseError(f"round {want_round} has no {', '.join(PARTS[want_part:])} part "
                                 "(the capture was cut short)"))
    rounds: list[dict[str, Any]] = []
    for i, (round_no, part, mstart, cstart) in enumerate(accepted):
        cend = accepted[i + 1][2] if i + 1 < len(accepted) else len(text)
        if part == "prompt":
            rounds.append({"round": round_no, "start": mstart, "end": cend, "parts": {}})
        rounds[-1]["parts"][part] = list(_trim(text, min(cstart, cend), cend))
        rounds[-1]["end"] = cend
    steps: list[Step] = []
    for i, rnd in enumerate(rounds):
        span = _trim(text, rnd["start"], rnd["end"])
        steps.append(Step(index=i, kind="round", span=span, text=text[span[0]:span[1]],
                          payload=_payload(text, rnd, errors)))
    if not steps and text.strip():
        errors.append(ParseError("no '## Round 1 · prompt' marker: this is not an LLM-Modulo loop trace"))
        steps.append(Step(index=0, kind="unparsed", span=_trim(text, 0, len(text)), text=text,
                          payload={"error": "no round markers"}))
    graph = StepGraph.chain(steps)
    _link_rounds(text, graph)
    extras: dict[str, Any] = {"rounds": len(rounds)}
    if rounds and "answer" in rounds[-1]["parts"]:
        extras["final_answer_span"] = rounds[-1]["parts"]["answer"]
    if rounds:
        extras["converged"] = steps[-1].payload.get("answer_correct") is True
    return ParsedTrace(format=NAME, graph=graph, errors=errors, extras=extras)


def _link_rounds(text: str, graph: StepGraph) -> None:
    """Candidate -> critique -> next candidate: a round that follows a rejected round revises it
    (a "backtrack" edge to it, its prompt part is the critique); each round's thinking is
    segmented like a `think` trace and its step kinds are kept in the payload."""
    for step in graph:
        parts = step.payload.get("parts", {})
        if "thinking" in parts:
            a, b = parts["thinking"]
            segments: list[list[Any]] = []
            seen_work = False
            for seg in segment(text, a, b):
                kind = classify(text[seg.start:seg.end], seg.item, seen_work)[0]
                seen_work = seen_work or kind in ("plan", "check", "backtrack")
                segments.append([seg.start, seg.end, kind])
            step.payload["thinking_steps"] = segments
        if step.index and graph[step.index - 1].payload.get("answer_correct") is False:
            graph.link(step.index, step.index - 1, "backtrack")
            step.payload["revises"] = step.index - 1
            if "prompt" in parts:
                step.payload["critique"] = parts["prompt"]


def _payload(text: str, rnd: dict[str, Any], errors: list[ParseError]) -> dict[str, Any]:
    parts = rnd["parts"]
    payload: dict[str, Any] = {"round": rnd["round"], "parts": parts}
    if "thinking" in parts:
        a, b = parts["thinking"]
        payload["thinking_chars"] = b - a
    if "verdict" in parts:
        a, b = parts["verdict"]
        raw = text[a:b].strip()
        try:
            verdict = json.loads(raw) if raw else {}
            if not isinstance(verdict, dict):
                raise ValueError("not an object")
        except ValueError:
            errors.append(ParseError(f"round {rnd['round']}: the verdict part is not a JSON object", _line(text, a)))
            verdict = {}
        payload["verdict"] = verdict
        for key in ("answer_correct", "incomplete"):
            if key in verdict:
                payload[key] = verdict[key]
    return payload


FORMAT = FormatSpec(
    name=NAME,
    description="LLM-Modulo back-prompting loop from live capture: one step per round "
                "(prompt, thinking, answer, validator verdict).",
    detect=detect,
    parse=parse,
    priority=50,
)
