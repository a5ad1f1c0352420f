"""Every move list a thinking trace writes, with its place in the text.

"The Illusion of Thinking" asks models to write the complete move list whenever they explore a
solution, then replays each list found in the thinking (reference-semantics.md §5). Here:
* bracketed lists: `moves = [[1, 0, 2], ...]` (also `moves:`), and bare `[[...], ...]` lists whose
  items have the domain's shape (3 items for Hanoi and Checker Jumping, names for River Crossing);
* CSV move tables (Hanoi): a header `disk_id,from_peg,to_peg` (also `disk,from,to`) and one
  `disk,from,to` row per line; or the state-tracking table `move_id,from_peg,to_peg,peg0,peg1,peg2`,
  whose rows name no disk (the move is the top disk of the source peg) and claim the pegs after
  the move, bottom to top (`ExtractedList.claimed_states`). Rows end at the first line that is not
  one; a table cut off by the output limit keeps its complete rows and says so in `notes`;
* prose runs: "move disk 1 from peg 0 to peg 2" (Hanoi), "move red from 2 to 3" /
  "jump the blue checker from position 4 to 2" (Checker Jumping); consecutive prose moves with no
  blank line and less than `PROSE_GAP` characters between them form one list.
List literals are read by a small tokenizer of our own (numbers, quoted or bare words, nesting),
never by eval.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

PROSE_GAP = 240
MAX_LIST_CHARS = 2_000_000

_MOVES_KEY = re.compile(r"\bmoves\s*(?:=|:)\s*(?=\[)", re.I)
_BARE = re.compile(r"\[\s*\[")
_TOKEN = re.compile(r"""\s*(?:(\[)|(\])|(,)|"([^"\n]*)"|'([^'\n]*)'|(-?\d+)(?![\w.])|([A-Za-z][\w ]*?)(?=\s*[,\]]))""")
_PEG = r"(?:peg\s*|rod\s*|tower\s*)?([0-2A-Ca-c])\b"
_HANOI_PROSE = re.compile(r"\bmove\s+disk\s*(\d+)\s+from\s+" + _PEG + r"\s+to\s+" + _PEG, re.I)
_CHECKER_PROSE = re.compile(
    r"\b(?:move|slide|jump)\s+(?:the\s+)?(red|blue|R|B)\b(?:\s+checker)?\s+from\s+(?:position\s*|cell\s*)?(\d+)"
    r"\s+to\s+(?:position\s*|cell\s*)?(\d+)", re.I)
_LETTER_PEG = {"a": 0, "b": 1, "c": 2}
_CSV_HEADER = re.compile(
    r"^[ \t]*(?P<first>disk(?:_id)?|move(?:_id)?)[ \t]*,[ \t]*from(?:_peg)?[ \t]*,[ \t]*to(?:_peg)?"
    r"(?P<pegs>[ \t]*,[ \t]*peg_?0[ \t]*,[ \t]*peg_?1[ \t]*,[ \t]*peg_?2)?[ \t]*\r?$", re.I | re.M)
_CSV_ROW = re.compile(r"[ \t]*(\d+)[ \t]*,[ \t]*(\d+)[ \t]*,[ \t]*(\d+)[ \t]*(?:,(.*))?")


@dataclass
class ExtractedList:
    """One move list: its [start, end) in the text, the raw moves and each move's span."""

    start: int
    end: int
    moves: list[Any]
    move_spans: list[tuple[int, int]]
    source: str  # "list" or "prose"
    labelled: bool = False
    notes: list[str] = field(default_factory=list)
    claimed_states: list[Any] | None = None  # per move, the pegs the model says follow it (tracking tables)


class _ListSyntaxError(ValueError):
    pass


class _CutOff(_ListSyntaxError):
    """The text ends inside the list (an output limit): the items completed so far are known."""

    def __init__(self, items: list[Any], spans: list[tuple[int, int]]) -> None:
        super().__init__("the list is never closed: the text ends inside it")
        self.items, self.spans = items, spans


class _Ellipsis(_CutOff):
    """The list stops at an ellipsis ("...", "…"): the items written before it are known."""

    def __init__(self, items: list[Any], spans: list[tuple[int, int]]) -> None:
        _ListSyntaxError.__init__(self, "the list stops at an ellipsis")
        self.items, self.spans = items, spans


_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…|#[^\n]*(?:\.\.\.|…))")  # also "# ... (continuing the pattern)"


def parse_list_literal(text: str, pos: int = 0, ellipsis: bool = False) -> tuple[list[Any], int, list[tuple[int, int]]]:
    """Read the list literal starting at text[pos] == '['.

    Returns (value, end offset, spans of the top-level items); raises ValueError when the text is
    not a well-formed list of numbers, words and lists.
    """
    stack: list[list[Any]] = []
    item_start: list[int] = []
    spans: list[tuple[int, int]] = []
    i = pos
    result: list[Any] | None = None
    expect_value = True
    limit = min(len(text), pos + MAX_LIST_CHARS)
    while i < limit:
        m = _TOKEN.match(text, i)
        if not m:
            if stack and limit == len(text) and not text[i:].strip():
                raise _CutOff(stack[0], spans)  # cut off after a comma and a space: "[2, "
            if ellipsis and len(stack) == 1 and expect_value and _ELLIPSIS.match(text, i):
                raise _Ellipsis(stack[0], spans)  # "[[1,0,1], [2,0,2], ...]": the moves written out, then it stops
            raise _ListSyntaxError(f"unexpected text at {i}")
        tok_start = m.start(m.lastindex or 0)
        i = m.end()
        if m.group(1):
            if not expect_value:
                raise _ListSyntaxError("missing comma")
            stack.append([])
            if len(stack) == 2:
                item_start.append(tok_start)
        elif m.group(2):
            if not stack:
                raise _ListSyntaxError("unbalanced ]")
            done = stack.pop()
            if not stack:
                result = done
                break
            stack[-1].append(done)
            if len(stack) == 1:
                spans.append((item_start.pop(), i))
            expect_value = False
            continue
        elif m.group(3):
            if expect_value or not stack:
                raise _ListSyntaxError("misplaced comma")
            expect_value = True
            continue
        else:
            if not expect_value or not stack:
                raise _ListSyntaxError("missing comma")
            if m.group(6) is not None:
                value: Any = int(m.group(6))
            else:
                value = next(g for g in (m.group(4), m.group(5), m.group(7)) if g is not None).strip()
            stack[-1].append(value)
            if len(stack) == 1:
                spans.append((tok_start, i))
            expect_value = False
            continue
        expect_value = True
    if result is None:
        if stack and limit == len(text) and not text[i:].strip():
            raise _CutOff(stack[0], spans)
        raise _ListSyntaxError("the list is never closed")
    return result, i, spans


def _shape_ok(moves: list[Any], domain: str) -> bool:
    if not moves or not all(isinstance(m, list) for m in moves):
        return False
    if domain == "river_crossing":
        return all(all(isinstance(p, str) for p in m) for m in moves)
    return all(len(m) == 3 for m in moves)


def _bracketed(text: str, domain: str, ellipsis: bool = False) -> list[ExtractedList]:
    found: list[ExtractedList] = []
    taken_until = -1
    starts = sorted({(m.end(), True) for m in _MOVES_KEY.finditer(text)} |
                    {(m.start(), False) for m in _BARE.finditer(text)}, key=lambda t: (t[0], not t[1]))
    for pos, labelled in starts:
        if pos < taken_until:
            continue
        notes: list[str] = []
        try:
            moves, end, spans = parse_list_literal(text, pos, ellipsis)
        except _Ellipsis as cut:
            moves, spans = cut.items, cut.spans
            close = text.find("]", spans[-1][1] if spans else pos)
            end = close + 1 if close >= 0 else len(text)
            notes.append(f"the list stops at an ellipsis ('...'): its {len(moves)} moves written out are read, "
                         "and it goes no further")
        except _CutOff as cut:
            moves, end, spans = cut.items, len(text), cut.spans
            notes.append(f"the text ends inside this list (an output limit?): its {len(moves)} complete moves "
                         "are read, then it stops")
        except ValueError:
            continue
        if not labelled and not _shape_ok(moves, domain):
            continue
        if labelled and moves and not all(isinstance(m, list) for m in moves):
            continue
        found.append(ExtractedList(pos, end, moves, spans, "list", labelled, notes))
        taken_until = end
    return found


def _claimed_pegs(cells: str | None) -> Any:
    """The three peg cells of a tracking row as lists of disks (bottom to top), or None when the
    row does not have exactly three readable cells."""
    if cells is None:
        return None
    parts = cells.split(",")
    if len(parts) != 3 or not all(re.fullmatch(r"[\d \t]*", p) for p in parts):
        return None
    return [[int(d) for d in p.split()] for p in parts]


def _csv_tables(text: str, domain: str) -> list[ExtractedList]:
    """Hanoi move tables: a CSV header line, then its rows (see the module docstring)."""
    if domain != "hanoi":
        return []
    found: list[ExtractedList] = []
    for header in _CSV_HEADER.finditer(text):
        with_disk = header.group("first").lower().startswith("disk")
        tracking = header.group("pegs") is not None
        pos = header.end() + 1
        moves: list[Any] = []
        spans: list[tuple[int, int]] = []
        claimed: list[Any] = []
        end = header.end()
        while pos < len(text):
            line_end = text.find("\n", pos)
            line_end = len(text) if line_end < 0 else line_end
            m = _CSV_ROW.fullmatch(text, pos, line_end)
            if not m:
                break
            if with_disk:
                if m.group(4) is not None and m.group(4).strip():
                    break
                moves.append([int(m.group(1)), int(m.group(2)), int(m.group(3))])
            else:
                moves.append([None, int(m.group(2)), int(m.group(3))])
                claimed.append(_claimed_pegs(m.group(4)) if tracking else None)
            spans.append((pos, line_end))
            end, pos = line_end, line_end + 1
        if not moves:
            continue
        lst = ExtractedList(header.start(), end, moves, spans, "csv", labelled=True,
                            claimed_states=claimed if tracking else None)
        if re.match(r"\s*\d", text[end:]):
            lst.notes.append("the table stops in the middle of a row (cut off?): its complete rows are read")
        found.append(lst)
    return found


def _peg(token: str) -> int:
    return _LETTER_PEG[token.lower()] if token.isalpha() else int(token)


def _prose(text: str, domain: str, taken: list[tuple[int, int]]) -> list[ExtractedList]:
    if domain == "hanoi":
        pattern, convert = _HANOI_PROSE, (lambda m: [int(m.group(1)), _peg(m.group(2)), _peg(m.group(3))])
    elif domain == "checker_jumping":
        pattern = _CHECKER_PROSE
        convert = (lambda m: ["R" if m.group(1).lower() in ("r", "red") else "B", int(m.group(2)), int(m.group(3))])
    else:
        return []
    runs: list[ExtractedList] = []
    for m in pattern.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        move, span = convert(m), (m.start(), m.end())
        last = runs[-1] if runs else None
        gap = text[last.end:m.start()] if last else ""
        if last and len(gap) < PROSE_GAP and not re.search(r"\n[ \t]*\n", gap) and \
                not any(last.end <= s < m.start() for s, _ in taken):
            last.moves.append(move)
            last.move_spans.append(span)
            last.end = span[1]
        else:
            runs.append(ExtractedList(span[0], span[1], [move], [span], "prose"))
    return runs


def extract_move_lists(text: str, domain: str, ellipsis: bool = False) -> list[ExtractedList]:
    """All move lists of `text` in text order (bracketed lists first claim their characters).
    With `ellipsis` (an answer), a list that stops at "..." is read up to it; in thinking such a
    list is a sketch of the format ("moves = [[1, 0, 2], ...]") and is not read."""
    lists = _bracketed(text, domain, ellipsis)
    lists += [t for t in _csv_tables(text, domain) if not any(x.start <= t.start < x.end for x in lists)]
    lists += _prose(text, domain, [(x.start, x.end) for x in lists])
    return sorted(lists, key=lambda x: x.start)
