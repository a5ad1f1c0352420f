"""One streamed call through OpenAI's Responses API via litellm: a reasoning summary and an answer.

o1/o3-style models keep their reasoning hidden; asked with `reasoning={"summary": "auto"}` they
stream a summary of it instead: the summary_text parts of their reasoning output items
(`response.reasoning_summary_text.delta` / `.done`, one part per `summary_index`). That summary
is the trace here, marked `thinking_kind="summary"`, and the `output_text` of the message item
is the answer. A server that streams the reasoning itself (`response.reasoning_text.delta`, as
open-weight models served behind a Responses endpoint do) gives a trace of kind "reasoning".

The stream is done when the server says so (`response.completed`, or `response.incomplete` with
its reason: "length" for max_output_tokens); `response.failed` and `error` events are failures
said plainly. A stream that stops before any of these is kept and marked incomplete. The same
error classification as chat completions applies (capture/client.py: a refused connection reads
as such, not as the HTTP 500 litellm wraps it in). Failures never raise.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Iterable

from capture.client import (CaptureError, Completion, DeltaCallback, ModelSettings, classify_error, field_of,
                            load_litellm, request_key)

# How summary parts are joined: OpenAI's parts are paragraphs, each usually opening with a bold title.
PART_SEPARATOR = "\n\n"

_FINISHED = ("response.completed", "response.incomplete", "response.failed")


def responses_kwargs(messages: list[dict[str, str]], settings: ModelSettings) -> dict[str, Any]:
    """litellm.responses arguments: the conversation as input messages, a summary asked for,
    retries off (a 429 is reported, not hammered)."""
    reasoning: dict[str, Any] = {"summary": "auto"}
    if settings.reasoning_effort:
        reasoning["effort"] = settings.reasoning_effort
    kwargs: dict[str, Any] = {
        "model": settings.model, "input": [{"role": m["role"], "content": m["content"]} for m in messages],
        "stream": True, "reasoning": reasoning, "timeout": settings.timeout, "num_retries": 0, "max_retries": 0,
    }
    if settings.api_base:
        kwargs["api_base"] = settings.api_base
    key = request_key(settings)
    if key:
        kwargs["api_key"] = key
    if settings.max_tokens is not None:
        kwargs["max_output_tokens"] = settings.max_tokens
    if settings.temperature is not None:
        kwargs["temperature"] = settings.temperature
    return kwargs


@dataclass
class _Parts:
    """Texts keyed by (item id, part index) in arrival order; a `.done` text replaces the deltas."""

    texts: dict[tuple[str, int], str] = field(default_factory=dict)

    def add(self, key: tuple[str, int], delta: str) -> bool:
        """Append; True when this delta opens a new part after an earlier one."""
        new = key not in self.texts
        self.texts[key] = self.texts.get(key, "") + delta
        return new and len(self.texts) > 1

    def done(self, key: tuple[str, int], text: Any) -> None:
        if isinstance(text, str):
            self.texts[key] = text

    def joined(self, sep: str) -> str:
        return sep.join(t for t in self.texts.values() if t)


def _event_type(event: Any) -> str:
    """The event's type as OpenAI spells it: litellm types some as a str Enum, whose str() is
    the member's name, and leaves the others (GenericEvent) plain strings."""
    kind = field_of(event, "type")
    return str(getattr(kind, "value", kind) or "")


def _key(event: Any, index: str) -> tuple[str, int]:
    item = field_of(event, "item_id")
    number = field_of(event, index)
    return (str(item or ""), int(number) if isinstance(number, int) else 0)


def _usage(response: Any) -> dict[str, Any] | None:
    """Token counts in the names the chat path stores (prompt/completion/total/reasoning)."""
    usage = field_of(response, "usage")
    if usage is None:
        return None
    out: dict[str, Any] = {}
    for theirs, ours in (("input_tokens", "prompt_tokens"), ("output_tokens", "completion_tokens"),
                         ("total_tokens", "total_tokens")):
        value = field_of(usage, theirs)
        if isinstance(value, int):
            out[ours] = value
    reasoning = field_of(field_of(usage, "output_tokens_details"), "reasoning_tokens")
    if isinstance(reasoning, int):
        out["reasoning_tokens"] = reasoning
    return out or None


def _final_output(response: Any) -> tuple[str, str, str]:
    """(summary, raw reasoning, answer) from a finished response's output items: what a server
    that sends no deltas, only the final response, still says."""
    summary, raw, answer = [], [], []
    for item in field_of(response, "output") or []:
        kind = field_of(item, "type")
        if kind == "reasoning":
            summary += [t for t in (field_of(p, "text") for p in field_of(item, "summary") or [])
                        if isinstance(t, str) and t]
            raw += [t for t in (field_of(p, "text") for p in field_of(item, "content") or [])
                    if isinstance(t, str) and t]
        elif kind == "message":
            answer += [t for t in (field_of(p, "text") for p in field_of(item, "content") or []
                                   if field_of(p, "type") in ("output_text", None)) if isinstance(t, str)]
    return PART_SEPARATOR.join(summary), PART_SEPARATOR.join(raw), "".join(answer)


def _event_error(event: Any) -> CaptureError:
    """An `error` event or a failed response, in the words the chat path uses."""
    error = field_of(field_of(event, "response"), "error") or event
    code = str(field_of(error, "code") or "")
    message = str(field_of(error, "message") or "the response failed")
    if "rate_limit" in code:
        return CaptureError("rate_limit", f"the server is rate-limiting these requests (code {code}). "
                                          f"Provider said: {message}")
    return CaptureError("server", f"the server reported a failure mid-response{f' ({code})' if code else ''}. "
                                  f"Provider said: {message}")


def stream_response(messages: list[dict[str, str]], settings: ModelSettings,
                    on_delta: DeltaCallback | None = None, secrets: Iterable[str] = ()) -> Completion:
    """Call the model through the Responses API with streaming on; report each delta; never raise."""
    from capture.keys import scrub

    secrets = [s for s in (*secrets, settings.api_key) if s]
    out = Completion()
    summary, raw, answer = _Parts(), _Parts(), _Parts()
    finished = None
    final: Any = None
    started = time.monotonic()

    def say(kind: str, text: str) -> None:
        if on_delta and text:
            on_delta(kind, text)

    try:
        litellm = load_litellm()
        with warnings.catch_warnings():
            # litellm's own logging re-serialises the usage and warns about its shape; nothing is wrong.
            warnings.simplefilter("ignore")
            stream = litellm.responses(**responses_kwargs(messages, settings))
            for event in stream:
                kind = _event_type(event)
                if kind == "response.reasoning_summary_text.delta":
                    delta = str(field_of(event, "delta") or "")
                    say("thinking", (PART_SEPARATOR if summary.add(_key(event, "summary_index"), delta) else "") + delta)
                elif kind == "response.reasoning_summary_text.done":
                    summary.done(_key(event, "summary_index"), field_of(event, "text"))
                elif kind == "response.reasoning_text.delta":
                    delta = str(field_of(event, "delta") or "")
                    say("thinking", (PART_SEPARATOR if raw.add(_key(event, "content_index"), delta) else "") + delta)
                elif kind == "response.reasoning_text.done":
                    raw.done(_key(event, "content_index"), field_of(event, "text"))
                elif kind == "response.output_text.delta":
                    delta = str(field_of(event, "delta") or "")
                    answer.add(_key(event, "content_index"), delta)
                    say("answer", delta)
                elif kind == "response.output_text.done":
                    answer.done(_key(event, "content_index"), field_of(event, "text"))
                elif kind in _FINISHED or kind == "error":
                    finished = kind
                    final = field_of(event, "response")
                    if kind in ("response.failed", "error"):
                        out.error = _event_error(event)
                    break
    except Exception as exc:  # noqa: BLE001 - every failure becomes a message; nothing is lost
        received = sum(len(t) for parts in (summary, raw, answer) for t in parts.texts.values())
        out.error = classify_error(exc, settings, secrets, received=received)
    if final is not None:
        out.served_model = field_of(final, "model")
        out.usage = _usage(final)
        late_summary, late_raw, late_answer = _final_output(final)
        summary_text = summary.joined(PART_SEPARATOR) or late_summary
        raw_text = raw.joined(PART_SEPARATOR) or late_raw
        answer_text = answer.joined("") or late_answer
    else:
        summary_text, raw_text, answer_text = (summary.joined(PART_SEPARATOR), raw.joined(PART_SEPARATOR),
                                               answer.joined(""))
    if raw_text:
        out.thinking, out.thinking_source, out.thinking_kind = raw_text, "reasoning_text", "reasoning"
    elif summary_text:
        out.thinking, out.thinking_source, out.thinking_kind = summary_text, "reasoning_summary", "summary"
    out.answer = answer_text
    if finished == "response.completed":
        out.finish_reason = "stop"
    elif finished == "response.incomplete":
        reason = field_of(field_of(final, "incomplete_details"), "reason")
        out.finish_reason = "length" if reason in (None, "max_output_tokens") else str(reason)
    elif finished is None and out.error is None:
        out.error = CaptureError("disconnected", "the server closed the stream before saying it was finished; "
                                 "what arrived is kept and marked incomplete")
    if out.error is not None:
        out.error.message = scrub(out.error.message, secrets)
        if out.thinking or out.answer:
            out.incomplete = True
    out.elapsed_s = round(time.monotonic() - started, 3)
    return out
