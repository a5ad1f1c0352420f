"""Line spans shared by the line-oriented formats (Stream-of-Search logs, Tree of Thoughts steps)."""

from __future__ import annotations


def numbered_line_spans(text: str) -> list[tuple[int, tuple[int, int]]]:
    """(1-based line number, [start, end)) of every non-blank line, surrounding blanks trimmed, so
    a step's span is exactly its text and its line number is the one an editor shows."""
    out = []
    pos = 0
    for lineno, line in enumerate(text.splitlines(keepends=True), start=1):
        start, end = pos, pos + len(line.rstrip("\r\n"))
        while start < end and text[start] in " \t":
            start += 1
        while end > start and text[end - 1] in " \t":
            end -= 1
        if end > start:
            out.append((lineno, (start, end)))
        pos += len(line)
    return out
