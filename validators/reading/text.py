"""The text of a trace, segmented once: the parser's steps, then the sentences and list items
inside each, as tokens with spans.

Every free-text reader works on these units, so a sentence boundary, a list marker or a bold
word is decided in one place:

* a **unit** is a list item's first sentence, or a sentence of prose; a line break always ends
  one (models write one claim a line in state lists and walk-throughs), and so do ".", "!" and
  "?" after a word and before white space (not "e.g.", not a decimal point, not a mark standing
  alone between spaces unless a capital follows: '"being" ? "bellyache"' is one unit, the "?"
  a placeholder, while "Feast b from ? But ..." is two);
* a list item's marker ("3.", "3)", "(3)", "Step 3:", "-", "*", "•") is kept apart from the
  unit's tokens, with its number and whether it is a bullet;
* markdown emphasis ("**", "__", backticks, "#" headings) is not a token: "**Attack a**" reads
  as "Attack a"; a reader that matches a unit's text with a domain's own notation takes it
  through `without_emphasis`;
* tokens are lower-cased words (apostrophes kept: "can't"), numbers and the punctuation that
  carries meaning here (parentheses, commas, colons, arrows, "=", ticks and crosses, and "+" or a
  "-" written on a word, as in "+Pain a, -Harmony"); "->", "=>" and "→" are one arrow token.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import NamedTuple, Sequence

_TOKEN = re.compile(
    r"(?P<num>\d+(?:\.\d+)?)"
    r"|(?P<word>(?i:step|item)(?=\d{1,3}\b)"  # "step5", "Step2:": the word, then its number
    r"|[A-Za-z\u00c0-\u024f](?:[A-Za-z\u00c0-\u024f0-9_]|['\u2019](?=[A-Za-z])|-(?=[A-Za-z0-9]))*)"
    r"|(?P<arrow>->|=>|→|⇒|⟶)"
    r"|(?P<punct>[()\[\],;:=+?!✓✔✗✘❌<>/]|(?<![A-Za-z0-9])-(?=[A-Za-z]))"  # "-Harmony": a sign, as "+Pain a"
    r"|(?P<dot>\.)")
_MARKER = re.compile(
    r"[ \t]*(?:[*_#>]+[ \t]*)?(?:"
    r"(?P<step>(?:step|move|action)[ \t]*(?P<snum>\d{1,3})\b[ \t]*[*_]*[ \t]*[:.)\-]?)"
    r"|(?P<num>\d{1,3})[ \t]*[.)](?=[ \t]+\S)"
    r"|\((?P<pnum>\d{1,3})\)(?=[ \t]+\S)"
    r"|(?P<bullet>[-*+•‣▪◦])(?=[ \t]+\S))[ \t]*(?:[*_]+[ \t]*)?", re.I)
_SENTENCE_END = re.compile(r"(?:(?<![ \t])|(?=[.!?][ \t]+[A-Z]))(?<![A-Za-z]\.[A-Za-z])(?<!\be\.g)(?<!\bi\.e)(?<!(?<![\w.])\d)(?<!(?<![\w.])\d\d)"
                           r"[.!?](?=[\s*_)\"']|$)")
# a list written inline: "Maybe: 1. Pick up red. 2. Stack red on blue."
_INLINE_ITEM = re.compile(r"(?:(?<=[:;.!?])|(?<=^))[ \t]*(?P<n>\d{1,2})[.)][ \t]+(?=[A-Za-z*])")
_LINE = re.compile(r"[^\n]*\n?")
_EMPHASIS = re.compile(r"\*\*|__|`")


class Token(NamedTuple):
    """A word, number or mark with its span (a tuple: built a few hundred thousand times a trace
    set, where a frozen dataclass costs four times as much to make)."""

    start: int
    end: int
    norm: str   # lower case; arrows as "->", curly apostrophes as "'"
    kind: str   # "word", "num", "punct", "arrow", "dot"


@dataclass(slots=True)
class Unit:
    """One sentence or list item's first sentence: the smallest thing a claim is read from."""

    index: int
    step: int
    span: tuple[int, int]          # the unit's text, marker included, without surrounding blanks
    body: int                      # where the text after the marker starts
    tokens: list[Token]
    paragraph: int
    line_start: bool               # the unit opens a line
    item: int | None = None        # the number of the list item it opens
    bullet: bool = False           # it opens a bullet line
    indent: int = 0
    end: str = ""                  # its last mark: ".", "?", "!", ":" or ""

    @property
    def words(self) -> list[str]:
        return [t.norm for t in self.tokens]

    def text(self, trace: str) -> str:
        return trace[self.span[0]:self.span[1]]


@dataclass
class Reading:
    """A trace read once: its units in order, and where each step's units start."""

    text: str
    units: list[Unit]
    step_starts: list[int] = field(default_factory=list)



def without_emphasis(text: str) -> str:
    """`text` without markdown's strong emphasis and code marks ("**", "__", backticks), the
    marks the tokens already ignore; a single "*" is kept (it multiplies in arithmetic)."""
    return _EMPHASIS.sub("", text) if ("*" in text or "_" in text or "`" in text) else text


def item_marker(text: str, start: int = 0, end: int | None = None) -> "re.Match[str] | None":
    """The list-item marker opening the line at `start` ("3.", "(3)", "Step 3:", "-", "•"), the
    one definition every reader of list items uses."""
    return _MARKER.match(text, start, len(text) if end is None else end)


def tokens_of(text: str, start: int, end: int, low: str | None = None) -> list[Token]:
    """The tokens of text[start:end]. `low`: the whole text lower-cased with curly apostrophes
    straightened, when it has the text's length (read_text makes it once for all units)."""
    out = []
    add = out.append
    new = tuple.__new__
    if low is None:
        for m in _TOKEN.finditer(text, start, end):
            kind = m.lastgroup or "punct"
            if kind == "arrow":
                norm = "->"
            else:
                norm = m.group().lower()
                if "\u2019" in norm:
                    norm = norm.replace("\u2019", "'")
            add(new(Token, (m.start(), m.end(), norm, kind)))
        return out
    for m in _TOKEN.finditer(text, start, end):
        a, b = m.span()
        kind = m.lastgroup or "punct"
        add(new(Token, (a, b, "->" if kind == "arrow" else low[a:b], kind)))
    return out


def _lowered(text: str) -> str | None:
    """`text` lower-cased with "\u2019" as "'", or None when lower-casing changes its length."""
    low = text.lower()
    if len(low) != len(text):
        return None
    return low.replace("\u2019", "'") if "\u2019" in low else low


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans of one line's text (no line break inside)."""
    out = []
    pos = start
    for m in _SENTENCE_END.finditer(text, start, end):
        if m.end() - pos > 0 and text[pos:m.end()].strip():
            out.append((pos, m.end()))
        pos = m.end()
    if text[pos:end].strip():
        out.append((pos, end))
    return out


def _inline_items(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int, int | None]]:
    """Sentences, each cut again where an inline list item starts ("Maybe: 1. Pick up red. 2. ..."),
    with that item's number."""
    out: list[tuple[int, int, int | None]] = []
    for s0, s1 in spans:
        cuts = [m for m in _INLINE_ITEM.finditer(text, s0, s1) if text[s0:m.start()].strip() or m.start() == s0]
        pos, number = s0, None
        for m in cuts:
            if m.start() > pos and text[pos:m.start()].strip():
                out.append((pos, m.start(), number))
            pos, number = m.start(), int(m.group("n"))
        out.append((pos, s1, number))
    return out


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in "*_#`>"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in "*_`"):
        end -= 1
    return start, end


def read_text(text: str, step_spans: Sequence[tuple[int, int]] = ()) -> Reading:
    """Units of `text`, each placed in the parser step its start falls in (step 0 when none)."""
    starts = sorted(s for s, _ in step_spans) or [0]
    low = _lowered(text)
    units: list[Unit] = []
    paragraph = 0
    blank = False
    for line_m in _LINE.finditer(text):
        line = line_m.group()
        if not line:
            break
        l0, l1 = line_m.start(), line_m.start() + len(line.rstrip("\r\n"))
        if not text[l0:l1].strip():
            blank = True
            continue
        if blank and units:
            paragraph += 1
        blank = False
        indent = len(line) - len(line.lstrip(" \t"))
        marker = _MARKER.match(text, l0, l1)
        body = marker.end() if marker else l0
        number = None
        bullet = False
        if marker:
            raw = marker.group("snum") or marker.group("num") or marker.group("pnum")
            number = int(raw) if raw else None
            bullet = raw is None
        for k, (s0, s1, inline) in enumerate(_inline_items(text, _sentences(text, body, l1))):
            a, b = _trim(text, s0, s1)
            if a >= b:
                continue
            first = k == 0
            span = (l0 + indent if first and marker else a, b)
            toks = tokens_of(text, a, b, low)
            if inline is not None:
                toks = toks[1:] if toks and toks[0].kind == "num" else toks
                toks = toks[1:] if toks and toks[0].norm in (".", ")") else toks
            last = text[b - 1] if text[b - 1] in ".?!:" else ""
            step = max(0, bisect.bisect_right(starts, span[0]) - 1)
            units.append(Unit(len(units), step, span, a, toks, paragraph, first or inline is not None,
                              inline if inline is not None else number if first else None, bullet and first, indent, last))
    return Reading(text, units, starts)


_SPELLED = re.compile(r"[A-Za-z](?:(?:\s*[-,/.·]\s*|\s+)[A-Za-z])+")


def spelled_out(text: str) -> str | None:
    """The letters of a word written letter by letter ("n a o a", "s-a-n-n", "e, e, l, k"),
    joined ("naoa"); None when `text` is not single letters with separators. Models spell out
    letter answers this way, and read as a string "n a o a" is no "naoa"."""
    text = text.strip().rstrip(".")
    if not _SPELLED.fullmatch(text):
        return None
    return "".join(c for c in text if c.isalpha())
