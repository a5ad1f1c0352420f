"""Capture and the LLM-Modulo loop: the model proposes, the sound validator critiques.

After each answer the loop replays it (audit.audit_record on a record made of the problem,
the round's thinking and its answer). A valid answer ends the loop; an invalid one becomes a
back-prompt built from the validator's critique (first failing step, unmet conditions in the
domain's words), sent as the next user message of the same conversation, as PlanBench's
back-prompting does (karthikv792/LLMs-Planning llm_planning_analysis/back_prompting.py::
get_repeated_verification: the assistant's answer, then the validation message, up to a limit).

One round is one call; the loop stops at the first valid answer, at the round limit, when the
validator cannot decide (nothing to critique), or when a call fails or is cut short (what
arrived is kept and the capture is marked incomplete).
"""

from __future__ import annotations

import secrets as _secrets
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from capture.client import CaptureError, Completion, ModelSettings, stream_completion
from capture.prompts import PLANNING_DOMAINS, Messages, problem_of, render
from audit import audit_record
from core.record import TraceRecord, record_from_json
from core.trace_kind import SUMMARY
from trace_parsers.modulo import NAME as MODULO_FORMAT
from trace_parsers.modulo import RoundText, render_rounds

# on_event(kind, round_no, data): kinds "round_start" (data: prompt text), "thinking" and "answer"
# (data: the new text), "round_end" (data: the Round).
EventCallback = Callable[[str, int, Any], None]
Completer = Callable[..., Completion]

# What a round's verdict part keeps of the answer_error: the critique's ingredients, not every
# extra a validator attaches (those stay in the final record's own verdict).
_VERDICT_KEYS = ("kind", "step", "message", "unmet", "unmet_nl", "action_nl")

STOP_REASONS = ("single", "valid", "round_limit", "undecided", "incomplete", "error")


@dataclass
class Round:
    index: int
    prompt: str
    thinking: str = ""
    answer: str = ""
    verdict: dict[str, Any] | None = None
    critique: str | None = None
    completion: Completion | None = None

    @property
    def answer_correct(self) -> bool | None:
        return (self.verdict or {}).get("answer_correct")

    def verdict_summary(self) -> dict[str, Any]:
        """What the trace's verdict part holds: the answer verdict, flat, plus stream state."""
        out: dict[str, Any] = {}
        if self.verdict is not None:
            out["answer_correct"] = self.verdict.get("answer_correct")
            error = self.verdict.get("answer_error") or {}
            out.update({k: error[k] for k in _VERDICT_KEYS if error.get(k) is not None})
            out["trace_valid"] = self.verdict.get("trace_valid")
            if self.verdict.get("first_invalid_step") is not None:
                out["first_invalid_step"] = self.verdict["first_invalid_step"]
        comp = self.completion
        if comp is not None:
            out["finish_reason"] = comp.finish_reason
            if not comp.thinking_returned:
                out["thinking"] = "none returned (reasoning hidden or summarised)"
            elif comp.thinking_kind == SUMMARY:
                out["thinking"] = "a summary of the model's reasoning, not the reasoning itself"
            if comp.incomplete:
                out["incomplete"] = True
            if comp.error:
                out["error"] = comp.error.to_json()
        return out


@dataclass
class CaptureResult:
    rounds: list[Round]
    stop_reason: str
    template: str
    settings: dict[str, Any]
    source_id: str | None
    started_at: str
    elapsed_s: float
    max_rounds: int
    error: CaptureError | None = None
    record: dict[str, Any] = field(default_factory=dict)

    @property
    def incomplete(self) -> bool:
        return any(r.completion is not None and r.completion.incomplete for r in self.rounds)

    @property
    def captured_anything(self) -> bool:
        return any(r.thinking or r.answer for r in self.rounds)


# --- the critique -----------------------------------------------------------------------------

def join_nl(items: list[str]) -> str:
    """PlanBench's list wording: "a, b and c" (task_utils.py::get_state_translation)."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" and {items[-1]}"


def planbench_feedback(error: dict[str, Any]) -> str:
    """PlanBench's validation message (task_utils.py::get_validation_message; reference-semantics
    §4.5) from an answer_error. PlanBench writes "invalid.The following..." without a space in the
    singular case; the space is kept here in both cases."""
    if error.get("planbench_feedback"):
        return str(error["planbench_feedback"])
    kind = error.get("kind")
    unmet = list(error.get("unmet_nl") or error.get("unmet") or [])
    if kind == "unmet_precondition" and unmet:
        action = error.get("action_nl") or str(error.get("message") or "").split(": ", 1)[0]
        one = len(unmet) == 1
        return (f"The above plan is invalid. The following action at step {error.get('step')} has "
                f"{'an unmet precondition' if one else 'unmet preconditions'}:\n{action}\n"
                f"The unmet precondition{' is' if one else 's are'}:\n{join_nl(unmet)}")
    if kind == "unmet_goal" and unmet:
        if len(unmet) == 1:
            return f"The above plan is invalid. This is the unmet goal condition:\n{unmet[0]}"
        return f"The above plan is invalid. These are the unmet goal conditions:\n{join_nl(unmet)}"
    message = str(error.get("message") or "the plan does not reach the goal").strip()
    return f"The above plan is invalid. {message[:1].upper()}{message[1:]}"


def critique(domain: str, verdict: dict[str, Any]) -> str | None:
    """The back-prompt for an invalid answer; None when it is valid or nothing can decide."""
    if verdict.get("answer_correct") is not False:
        return None
    error = dict(verdict.get("answer_error") or {})
    if domain in PLANNING_DOMAINS or domain == "pddl":
        return planbench_feedback(error)
    lines = ["Your answer is not correct."]
    message = str(error.get("message") or "").strip()
    where = f"At step {error['step']}: " if error.get("step") is not None and message and \
        not message.lower().startswith("step") else ""
    if message:
        lines.append(f"{where}{message[:1].upper()}{message[1:]}" if where else f"{message[:1].upper()}{message[1:]}")
    unmet = error.get("unmet_nl") or error.get("unmet")
    if unmet:
        lines.append("Unmet: " + join_nl(list(unmet)) + ".")
    lines.append("Please correct your answer and give the complete corrected answer in the same format as before.")
    return "\n".join(lines)


# --- judging one round ------------------------------------------------------------------------

def judge(source: TraceRecord, thinking: str, answer: str) -> dict[str, Any]:
    """The record-format verdict of one round's answer (with its thinking as the trace)."""
    record = record_from_json({"domain": source.domain, "problem": source.problem,
                               "trace": thinking, "answer": answer})
    return audit_record(record).verdict.to_json()


# --- the loop ---------------------------------------------------------------------------------

def new_capture_id() -> str:
    return "cap-" + _secrets.token_hex(6)


def run_capture(source: TraceRecord, settings: ModelSettings, *, rounds: int = 1, template: str | None = None,
                on_event: EventCallback | None = None, secrets: Iterable[str] = (),
                complete: Completer | None = None, capture_id: str | None = None) -> CaptureResult:
    """Capture one answer (rounds=1) or run the LLM-Modulo loop for up to `rounds` rounds.

    Raises capture.prompts.PromptError when the problem cannot be put into the template;
    everything that happens after the first call is reported in the result instead.
    `complete` defaults to the API the settings name (chat completions or the Responses API).
    """
    if complete is None:
        complete = completer_for(settings)
    max_rounds = max(1, int(rounds))
    problem = problem_of(source.domain, source.problem, source.trace)
    if problem is not source.problem:
        source = replace(source, problem=problem)
    chosen, messages = render(source.domain, source.problem, template)
    messages = list(messages)
    secrets = list(secrets)
    started = time.monotonic()
    started_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    done: list[Round] = []
    stop = "round_limit"
    error: CaptureError | None = None
    for k in range(1, max_rounds + 1):
        rnd = Round(index=k, prompt=messages[-1]["content"])
        if on_event:
            on_event("round_start", k, rnd.prompt)

        def on_delta(kind: str, text: str, k: int = k) -> None:
            if on_event:
                on_event(kind, k, text)

        comp = complete(_copy(messages), settings, on_delta=on_delta, secrets=secrets)
        rnd.completion, rnd.thinking, rnd.answer = comp, comp.thinking, comp.answer
        done.append(rnd)
        if comp.error is not None or comp.incomplete:
            error = comp.error
            stop = "incomplete" if comp.incomplete else "error"
            _end(on_event, rnd)
            break
        if max_rounds == 1:
            stop = "single"
            _end(on_event, rnd)
            break
        rnd.verdict = judge(source, comp.thinking, comp.answer)
        if rnd.answer_correct is True:
            stop = "valid"
        elif rnd.answer_correct is None:
            stop = "undecided"
        elif k < max_rounds:
            rnd.critique = critique(source.domain, rnd.verdict)
        _end(on_event, rnd)
        if stop != "round_limit" or rnd.critique is None:
            break
        messages += [{"role": "assistant", "content": comp.answer}, {"role": "user", "content": rnd.critique}]
    result = CaptureResult(rounds=done, stop_reason=stop, template=chosen.name, settings=settings.public(),
                           source_id=source.id, started_at=started_at,
                           elapsed_s=round(time.monotonic() - started, 3), max_rounds=max_rounds, error=error)
    result.record = capture_record(source, result, capture_id or new_capture_id())
    return result


def completer_for(settings: ModelSettings) -> Completer:
    """The call for the settings' API; the Responses API module is imported only when chosen."""
    if settings.api == "responses":
        from capture.responses import stream_response

        return stream_response
    return stream_completion


def _copy(messages: Messages) -> Messages:
    return [dict(m) for m in messages]


def _end(on_event: EventCallback | None, rnd: Round) -> None:
    if on_event:
        on_event("round_end", rnd.index, rnd)


def _litellm_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("litellm")
    except PackageNotFoundError:
        return None


def capture_record(source: TraceRecord, result: CaptureResult, capture_id: str) -> dict[str, Any]:
    """The record to store (record-format §1). One call: the thinking is the trace, so the domain's
    own trace format replays it. A loop: the rounds in the `llm_modulo` format."""
    last = result.rounds[-1] if result.rounds else Round(index=1, prompt="")
    comp = last.completion
    meta: dict[str, Any] = {
        "source": "capture",
        "source_record_id": source.id,
        "capture": {
            **result.settings,
            "template": result.template,
            "mode": "llm_modulo" if result.max_rounds > 1 else "single",
            "max_rounds": result.max_rounds,
            "rounds": len(result.rounds),
            "stop_reason": result.stop_reason,
            "incomplete": result.incomplete,
            "error": result.error.to_json() if result.error else None,
            "finish_reason": comp.finish_reason if comp else None,
            "thinking_returned": any(r.completion is not None and r.completion.thinking_returned
                                     for r in result.rounds),
            "thinking_source": next((r.completion.thinking_source for r in result.rounds
                                     if r.completion is not None and r.completion.thinking_source), None),
            "served_model": comp.served_model if comp else None,
            "usage": [r.completion.usage for r in result.rounds if r.completion is not None],
            "started_at": result.started_at,
            "elapsed_s": result.elapsed_s,
            "litellm": _litellm_version(),
        },
    }
    if any(r.completion is not None and r.completion.thinking_returned and r.completion.thinking_kind == "summary"
           for r in result.rounds):
        # The provider showed a summary of reasoning it keeps hidden: every view says so (core/trace_kind.py).
        meta["trace_kind"] = SUMMARY
    record: dict[str, Any] = {"id": capture_id, "domain": source.domain, "problem": source.problem,
                              "model": result.settings.get("model"), "meta": meta}
    if result.max_rounds > 1:
        record["format"] = MODULO_FORMAT
        record["trace"] = render_rounds([RoundText(r.prompt, r.thinking, r.answer, r.verdict_summary())
                                         for r in result.rounds])
        meta["capture"]["round_verdicts"] = [r.answer_correct for r in result.rounds]
    else:
        record["trace"] = last.thinking
    record["answer"] = last.answer
    return record
