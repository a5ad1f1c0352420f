"""Where a reviewer's quote sits inside a step's text. A comment may point at a span of the step
rather than the whole step; Streamlit has no text-selection widget, so the span is named by the
quoted text itself (and which occurrence, when it repeats), and kept as offsets so a highlight
and an export say exactly which characters were meant."""

from __future__ import annotations

from dataclasses import dataclass

MAX_QUOTE = 2000


@dataclass(frozen=True)
class Anchor:
    """`quote` is `text[start:end]` of the step it was taken from."""

    quote: str
    start: int
    end: int


def occurrences(text: str, quote: str) -> list[int]:
    """Start offsets of every (possibly overlapping) exact occurrence of `quote` in `text`."""
    if not quote:
        return []
    found, at = [], text.find(quote)
    while at != -1:
        found.append(at)
        at = text.find(quote, at + 1)
    return found


def anchor_in(text: str, quote: str, occurrence: int = 1) -> Anchor:
    """The anchor of the `occurrence`-th (1-based) `quote` in `text`; ValueError with a message a
    reviewer can act on when there is none."""
    if not quote:
        raise ValueError("the quote is empty")
    if len(quote) > MAX_QUOTE:
        raise ValueError(f"the quote is {len(quote):,} characters long; at most {MAX_QUOTE:,} are kept")
    starts = occurrences(text, quote)
    if not starts:
        raise ValueError("the quote does not occur in this step's text (it must be copied exactly, "
                         "same case and spacing)")
    if not 1 <= occurrence <= len(starts):
        raise ValueError(f"the quote occurs {len(starts)} time(s) in this step; occurrence {occurrence} "
                         "does not exist")
    start = starts[occurrence - 1]
    return Anchor(quote, start, start + len(quote))


def holds(text: str, anchor: Anchor) -> bool:
    """Whether `anchor` still names its quote in `text` (offsets inside, same characters)."""
    return 0 <= anchor.start < anchor.end <= len(text) and text[anchor.start:anchor.end] == anchor.quote


def merged_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching spans joined, in order: a highlight marks each character once."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(s for s in spans if s[0] < s[1]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out
