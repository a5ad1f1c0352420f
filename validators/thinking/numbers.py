"""Reading a final numeric answer the way people write it, for exact comparison.

Accepted: "42", "-3.5", "1,234" (and LaTeX's "1{,}234", "1,\\!234": validators/reading/numbers.py),
"$1,234.50", "75%", "3/4", "\\frac{3}{4}", "\\boxed{42}",
"**42**", "x = 42", "The answer is 42." The answer's value is the boxed one when there is one,
else the last number in the text. Values are exact rationals; "75%" is 75 (the percent sign is
formatting, as references write "75" for "75%"), "0.5" equals "1/2".
"""

from __future__ import annotations

import re
from fractions import Fraction

from validators.reading.numbers import INTEGER, plain

_BOXED = re.compile(r"\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_FRAC = re.compile(r"\\[dt]?frac\s*\{\s*(-?\d+)\s*\}\s*\{\s*(-?\d+)\s*\}")
_NUMBER = re.compile(rf"(?<![\w.}}!\\])-?\$?\s?({INTEGER})(\.\d+)?(?:\s*/\s*(\d+))?(?![\w])")
_STATED = re.compile(r"\b(?:answer|result|total|solution|value)\s*(?:is|=|:|would be|should be)\s*[:\s]*"
                     rf"(?:\*\*)?\s*(-?\$?{INTEGER}(?:\.\d+)?(?:\s*/\s*\d+)?|-?\$?\.\d+)", re.I)


def _value(whole: str, frac: str | None, denom: str | None, negative: bool) -> Fraction:
    digits = plain(whole)
    # Fraction(int) is ~10x cheaper than Fraction(str); most numbers in traces are integers.
    value = Fraction(int(digits)) if not frac else Fraction(digits + frac)
    if denom:
        value = value / int(denom) if int(denom) else value
    return -value if negative else value


def numbers_in(text: str) -> list[Fraction]:
    text = _FRAC.sub(lambda m: f"{m.group(1)}/{m.group(2)}", text)
    out = []
    for m in _NUMBER.finditer(text):
        if m.group(3) == "0":
            continue
        out.append(_value(m.group(1), m.group(2), m.group(3), m.group(0).lstrip().startswith("-")))
    return out


def final_number(text: str) -> Fraction | None:
    """The value a final answer states, or None when it states no number."""
    boxed = _BOXED.findall(text)
    if boxed:
        found = numbers_in(boxed[-1])
        return found[-1] if found else None
    found = numbers_in(text)
    return found[-1] if found else None


def stated_number(text: str) -> tuple[Fraction, int, int] | None:
    """A value the text states as its result ("the answer is 42"), with the number's span."""
    last = None
    for m in _STATED.finditer(text):
        found = numbers_in(m.group(1))
        if found:
            last = (found[-1], m.start(1), m.end(1))
    return last


def normalise_text(text: str) -> str:
    return re.sub(r"[\W_]+", " ", text.casefold()).strip()
