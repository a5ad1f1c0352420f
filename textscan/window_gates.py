"""A literal gate (textscan/gates.py) asked of every window of one text, such as each step of a trace.

`Gated` lower-cases each window it is asked about and looks for each needed string in it; over
the ten thousand steps of a long trace that Python work costs more than the searches it saves.
`WindowGate` finds the needed strings in the lower-cased text once, and then answers a window
by one bisection per set of strings. Its answer is the gate's: False only when no match of the
pattern can lie inside the window.
"""

from __future__ import annotations

import bisect

from textscan.gates import Gated, foldable


def _occurrences(low: str, strings: tuple[str, ...]) -> tuple[list[int], list[int]]:
    """The start of every occurrence of one of `strings` in `low` (overlapping ones too), in
    order, and at each index the least end of the occurrences from there on."""
    spans = []
    for s in strings:
        pos = low.find(s)
        while pos >= 0:
            spans.append((pos, pos + len(s)))
            pos = low.find(s, pos + 1)
    spans.sort()
    starts = [a for a, _ in spans]
    least_end = [b for _, b in spans]
    for i in range(len(least_end) - 2, -1, -1):
        least_end[i] = min(least_end[i], least_end[i + 1])
    return starts, least_end


class WindowGate:
    """The gate of `gated` over windows of `text`. A text whose lower case cannot stand for it
    position by position (textscan/gates.py `foldable`), or a needed string that is not ASCII (its
    lower case may depend on the letters around it), admits every window."""

    def __init__(self, gated: Gated, text: str) -> None:
        usable = foldable(text) and all(s.isascii() for need in gated.needs for s in need)
        low = text.lower() if usable else ""
        self._sets = [_occurrences(low, need) for need in gated.needs] if usable else None

    def admits(self, lo: int, hi: int) -> bool:
        """`gated.may_match(text, lo, hi)` or True: False only when a set of needed strings has
        no occurrence inside text[lo:hi]."""
        if self._sets is None:
            return True
        for starts, least_end in self._sets:
            i = bisect.bisect_left(starts, lo)
            if i == len(starts) or least_end[i] > hi:
                return False
        return True
