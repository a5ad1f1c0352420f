"""A step's text with the spans its comments quote highlighted (metrics/quote_anchor.py). Model text
is never markup: every character is escaped (`html.escape`, quotes too), the page holds no script
and no link, and it is shown in a sandboxed `data:` frame like the reading view."""

from __future__ import annotations

import html
from typing import Any

from metrics.quote_anchor import Anchor, holds, merged_spans

_STYLE = ("body{font:14px/1.55 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0;padding:8px 10px;"
          "color:#222;background:#f6f6f8;white-space:pre-wrap;word-wrap:break-word}"
          "mark{background:#ffe28a;border-bottom:2px solid #d49b00;padding:0 1px}")


def comment_anchor(comment: dict[str, Any]) -> Anchor | None:
    """The anchor a stored comment carries, if any."""
    if not comment.get("quote") or comment.get("quote_start") is None or comment.get("quote_end") is None:
        return None
    return Anchor(comment["quote"], int(comment["quote_start"]), int(comment["quote_end"]))


def anchored_spans(text: str, comments: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """The spans to mark: anchors that still hold in `text`, merged."""
    anchors = [a for a in map(comment_anchor, comments) if a is not None and holds(text, a)]
    return merged_spans([(a.start, a.end) for a in anchors])


def anchored_html(text: str, spans: list[tuple[int, int]]) -> str:
    """A whole HTML page: `text` escaped, each span in a <mark>."""
    parts, at = [], 0
    for start, end in spans:
        parts.append(html.escape(text[at:start], quote=True))
        parts.append(f"<mark>{html.escape(text[start:end], quote=True)}</mark>")
        at = end
    parts.append(html.escape(text[at:], quote=True))
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>{_STYLE}</style></head>"
            f"<body>{''.join(parts)}</body></html>")


def anchored_height(text: str, chars: int = 70, cap: int = 600) -> int:
    """A frame height that fits `text` wrapped at about `chars` characters a line."""
    lines = sum(max(1, -(-len(line) // chars)) for line in text.split("\n"))
    return min(cap, 24 + 22 * lines)
