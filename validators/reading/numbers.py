"""Numbers as traces and answers write them, read in one place for every arithmetic reader.

Models write large numbers with thousands separators ("278,700"), and in LaTeX with the spacing
forms of a comma ("1,\\!800", "291{,}580") or a thin space ("1\\,800"; U+2009 and U+202F as
characters). Read digit by digit, "929 × 300 = 278,700" would claim 278, and `\\boxed{1,\\!800}`
would answer 800; so every reader (validators/thinking/arith.py and numbers.py, hence freeform and
multiplication) takes its numbers from the patterns here.

A thousands group is exactly three digits after a separator, and the number's first group has
one to three: "1,2,3" (a list), "12,34" and "1,2345" are not one number, and neither is "(3, 4)"
(a space is no separator here, as "3 400" is as often two numbers as one). A group is not taken
when another digit or group follows it that does not fit ("1,234,5" is not 1234 and then 5:
its first number is 1).

Operators are written in typography as often as in ASCII: the minus sign "−" (U+2212), "×",
"·" and "÷"; `expression` reads an expression's text with its numbers plain and those signs as
"-", "*" and "/", for readers whose grammar knows only ASCII operators.
"""

from __future__ import annotations

import re
from fractions import Fraction

SEPARATOR = r"(?:,\\!|\{,\}|,|\\,|[\u2009\u202f])"
INTEGER = rf"(?:\d{{1,3}}(?:{SEPARATOR}\d{{3}})+(?!\d|{SEPARATOR}\d)|\d+)"
DECIMAL = rf"{INTEGER}(?:\.\d+)?"
_GROUPED = re.compile(rf"(?<!\d){INTEGER}")
_SEPARATOR = re.compile(SEPARATOR)
_WHOLE = re.compile(rf"-?{DECIMAL}")


def plain(text: str) -> str:
    """`text` with the thousands separators of its numbers dropped ("278,700" -> "278700"),
    everything else kept, so an expression reader that knows only digits can read it."""
    if "," not in text and "\u2009" not in text and "\u202f" not in text:
        return text
    return _GROUPED.sub(lambda m: _SEPARATOR.sub("", m.group(0)), text)


_OPERATORS = str.maketrans({"\u2212": "-", "\u00d7": "*", "\u22c5": "*", "\u00b7": "*", "\u00f7": "/"})


def expression(text: str) -> str:
    """`text` with its numbers plain (`plain`) and typographic operators as ASCII ("−3 × 1,200"
    -> "-3 * 1200"); everything else kept."""
    return plain(text.translate(_OPERATORS))


def number_value(text: str) -> Fraction | None:
    """The value of one written number ("-1,234.5", "1,\\!800"), or None when `text` is not one."""
    text = text.strip().replace("\u2212", "-")
    if not _WHOLE.fullmatch(text):
        return None
    digits = plain(text)
    return Fraction(int(digits)) if "." not in digits else Fraction(digits)
