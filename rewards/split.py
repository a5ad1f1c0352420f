"""One completion -> the record's `trace` and `answer`, the way reasoning models write them.

Rules, in order (README, "Rewards for RL"):

1. A prompt in front is cut off: verl's older reward managers (TinyZero's among them) decode
   prompt and response together. The text after the first `<|im_start|>assistant` is kept, or
   after the first `Assistant:` when a `User:` comes before it.
2. Thinking: the text before the first `</think>` (without its `<think>`) is the trace; the rest
   holds the answer. An opened `<think>` that is never closed makes all of it trace and leaves no
   answer (the generation was cut off while thinking). Chat templates such as R1's and TinyZero's
   put `<think>` into the prompt, so a completion often has only the closing tag.
3. Answer: the content of the last complete `<answer>...</answer>` (a model that restates its
   answer means the last one); the text before it is the trace when there was no `</think>`. An
   `<answer>` never closed gives the rest of the text, noted. Without answer tags, the text after
   `</think>` is the answer.
4. No tags at all: the whole text is the answer, except for search streams whose answer is inside
   them (Stream-of-Search Countdown logs, SearchFormer and Beyond-Semantics A* token streams, as the
   parsers' detectors recognise them): then the whole text is the trace and the validator reads
   the answer from it, as it does for such records in the app.

End-of-sequence tokens left by a decoder that keeps special tokens are removed from the end of
the answer. Every search is a plain substring search: linear in the length of the text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.record import TraceRecord
from trace_parsers.registry import get_format

STREAM_FORMATS = ("sos", "searchformer", "beyond_semantics")
EOS_TOKENS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end|>", "</s>", "<eos>", "<｜end▁of▁sentence｜>")
_THINK_OPEN, _THINK_CLOSE = "<think>", "</think>"
_ANSWER_OPEN, _ANSWER_CLOSE = "<answer>", "</answer>"


@dataclass
class Split:
    """`answer_source`: answer_tag | answer_tag_unclosed | after_think | whole_text | stream | none."""

    trace: str
    answer: str
    answer_source: str
    notes: list[str] = field(default_factory=list)


def strip_prompt(text: str) -> tuple[str, str | None]:
    """(the response, the marker it was cut at or None)."""
    marker = "<|im_start|>assistant"
    at = text.find(marker)
    if at >= 0:
        return text[at + len(marker):].lstrip("\n"), marker
    at = text.find("Assistant:")
    if at >= 0 and 0 <= text.find("User:") < at:
        return text[at + len("Assistant:"):], "Assistant:"
    return text, None


def strip_eos(text: str) -> str:
    text = text.strip()
    changed = True
    while changed:
        changed = False
        for token in EOS_TOKENS:
            if text.endswith(token):
                text = text[: -len(token)].rstrip()
                changed = True
    return text


def _last_answer_block(text: str) -> tuple[int, int, int] | None:
    """(start of `<answer>`, start of content, end of content) of the last complete block."""
    close = text.rfind(_ANSWER_CLOSE)
    opening = text.rfind(_ANSWER_OPEN, 0, close) if close >= 0 else -1
    if opening < 0:  # no `<answer>` before the last `</answer>`, so none before any earlier one
        return None
    return opening, opening + len(_ANSWER_OPEN), close


def is_stream(text: str, domain: str) -> bool:
    """Whether a parser of a search-stream format claims the text (its own detector decides)."""
    probe = TraceRecord(id="", domain=domain, trace=text, answer="")
    for name in STREAM_FORMATS:
        spec = get_format(name)
        try:
            if spec is not None and float(spec.detect(probe)) >= 0.5:
                return True
        except Exception:  # noqa: BLE001 - a detector must never sink a reward
            continue
    return False


def split_completion(text: str, domain: str) -> Split:
    notes: list[str] = []
    text, marker = strip_prompt(text)
    if marker:
        notes.append(f"prompt cut off at the first {marker!r}")
    trace: str | None = None
    rest = text
    close = text.find(_THINK_CLOSE)
    if close >= 0:
        head = text[:close]
        opening = head.find(_THINK_OPEN)
        trace = head[opening + len(_THINK_OPEN):] if opening >= 0 else head
        rest = text[close + len(_THINK_CLOSE):]
    else:
        opening = text.find(_THINK_OPEN)
        if opening >= 0:
            notes.append("<think> is never closed: the completion ends while thinking")
            return Split(text[opening + len(_THINK_OPEN):].strip(), "", "none", notes)

    block = _last_answer_block(rest)
    if block is not None:
        start, body, end = block
        if trace is None:
            trace = rest[:start]
        return Split(trace.strip(), strip_eos(rest[body:end]), "answer_tag", notes)
    opening = rest.rfind(_ANSWER_OPEN)
    if opening >= 0:
        notes.append("<answer> is never closed; the text after it is read as the answer")
        if trace is None:
            trace = rest[:opening]
        return Split(trace.strip(), strip_eos(rest[opening + len(_ANSWER_OPEN):]), "answer_tag_unclosed", notes)
    if trace is not None:
        return Split(trace.strip(), strip_eos(rest), "after_think", notes)
    body = strip_eos(rest)
    if body and is_stream(body, domain):
        return Split(body, "", "stream", notes)
    return Split("", body, "whole_text" if body else "none", notes)
