"""Move lists of a thinking trace replayed on lines of reasoning, not each from the initial state.

Models walk through a solution in prose, one move a sentence, with state tables or cumulative
lists between the moves ("Move 2: Move disk 2 from peg 0 to peg 1. State: ..."), so the move
extractor (trace_parsers/move_extract.py) cuts a walkthrough into one-move fragments. Replaying
each fragment from the initial state makes every move after the first "illegal" (disk 2 is not
on top of peg 0 at the start). A fragment instead continues the line of reasoning it belongs to
(the moves applied so far from the initial state), as the planning thinking reader does
(validators/planning/reading.py):

* a written-out list (`moves = [...]`, `[[...], ...]`) starts a new line: it is a complete list,
  run from the initial state as the paper does (reference-semantics.md §5); an empty one names no
  move and leaves the line as it is; a bare `[[...]]` whose first move cannot be made in the
  initial state goes on with the line if it can be made there, and is otherwise a sub-problem's
  part (a recursive call's result on other pegs, code with variables) and not judged;
* a restart cue ("start over", "from the initial state", "let me verify each step": the reading
  layer's `restart` class) before a fragment starts a new line there;
* a move numbered 1 ("1. Move disk 1 ...", "Step 1:", "Move 1 (odd): ...") starts a new line; a
  move numbered k > 1 goes on from the state after move k-1 of the line (a step back when the
  line is longer, which also takes back an illegal move k), but only when the line's move k-1 was
  itself numbered k-1: an outline numbers its parts, not its moves ("1. Call hanoi(3, 0, 2, 1):"
  with lettered sub-steps holding seven moves, then "2. Move disk 4 from peg 0 to peg 2"), so a
  number the line's moves never carried is no step back; the move goes on where the line is when
  it can be made there, and otherwise its state is not known;
* an item 1 that names no move ("1. Move disks 1-9 from peg 0 to peg 1") starts a sketch: the
  line is unknown, and nothing on it is judged until a new line starts;
* a move numbered beyond the next one ("1023. Move disk 1 ...") or an ellipsis on a line of its own
  means moves were left out: the line is unknown;
* after an illegal move the state the model has in mind does not exist: later moves of the line
  are not judged (they point to that move) until a new line or a numbered step back;
* a prose fragment whose first move (unnumbered) cannot be made where its line is: when it can be
  made in the initial state the fragment restates the solution from the start ("This means: move
  disk 1 from peg 0 to peg 2, then ...") and starts a new line; otherwise it belongs to a sketch
  or a sub-problem ("move the top 6 disks to peg 1, then move disk 7 from peg 0 to peg 2"; a
  walkthrough whose earlier moves were written as `[1, 0, 2]`), whose state is not known, and it
  is not judged. Either reading is more likely than an illegal move made exactly where the text
  breaks, and a false flag costs as much as a missed one.

Each rule errs toward not judging: a flag must be a move that is illegal where the model is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from validators.puzzles.base import IllegalMove, MoveResult, Puzzle
from validators.reading.cues import lexicon
from validators.reading.text import tokens_of

# The item marker a move's own line starts with: "3.", "3)", "Step 3:", "Move 3 (odd):", "- Move 3:".
_MARKER = re.compile(r"[ \t>*\-•#]*(?:\*\*)?(?:(?:step|move)\s*#?\s*)?(\d+)(?:\s*\([^)\n]{0,20}\))?\s*[.:)]"
                     r"(?!\d)(?:\*\*)?\s*", re.I)
# An item 1 in the text between fragments (it names no move, or the extractor would have read it).
_ITEM_ONE = re.compile(r"^[ \t>*\-•#]*(?:\*\*)?(?:(?:step|move)\s*#?\s*)?1\s*[.:)](?!\d)", re.I | re.M)
# An ellipsis written as a line or item of its own: moves left out, so the state is not known.
_ELIDED = re.compile(r"^[ \t>*\-•]*(?:\.\.\.|…)[ \t]*$", re.M)
_MARKER_REACH = 80  # characters between a marker and the move it numbers


@dataclass
class LineMove:
    """One move as judged on its line: `result` is None when it is not judged (`why`, `cause`)."""

    result: MoveResult | None
    line: int
    index: int  # the move's place on its line (0-based)
    why: str = ""
    cause: tuple[int, int] | None = None  # (list, move) of the illegal move it follows


@dataclass
class FragmentReplay:
    moves: list[LineMove] = field(default_factory=list)
    new_line: bool = False
    first_illegal: int | None = None
    solved: bool = False
    final: Any = None


def move_number(text: str, start: int) -> int | None:
    """The item number written before a move on its own line ("Step 3: Move disk ..."), if any."""
    line_start = text.rfind("\n", 0, start) + 1
    if start - line_start > _MARKER_REACH:
        return None
    m = _MARKER.match(text, line_start, start)
    return int(m.group(1)) if m else None


def _legal(puzzle: Puzzle, state: Any, move: Any) -> bool:
    try:
        puzzle.apply(state, move)
    except IllegalMove:
        return False
    return True


def _restart_at(text: str) -> int | None:
    """Where the last restart cue of `text` is, if it has one."""
    tokens = tokens_of(text, 0, len(text))
    hits = [h for h in lexicon().hits(tokens) if h.cls == "restart"]
    return tokens[hits[-1].i].start if hits else None


def _last(pattern: re.Pattern[str], text: str) -> int | None:
    found = None
    for m in pattern.finditer(text):
        found = m.start()
    return found


_SKETCH = "its line of reasoning is not known (a sketch whose item 1 is no move)"
_OUTLINE = ("its line of reasoning is not known (its item number belongs to an outline, not to the line's "
            "moves, and the move cannot be made where the line is)")
_UNPLACED = ("its line of reasoning is not known (its first move fits neither the state its line has reached "
             "nor the initial state: part of a sketch or a sub-problem)")


class _Line:
    def __init__(self, number: int, initial: Any, known: bool = True, why: str = _SKETCH) -> None:
        self.number = number
        self.states = [initial]
        self.numbers: list[int | None] = [None]  # the item number written before the move to each state
        self.known = known
        self.why = why
        self.broken: tuple[int, int] | None = None


def replay_lines(puzzle: Puzzle, text: str, lists: list[dict]) -> list[FragmentReplay]:
    """Each list (`moves`, `source`, `span`, `move_spans`) replayed on its line of reasoning."""
    out: list[FragmentReplay] = []
    line = _Line(0, puzzle.initial())
    count = 1
    prev_end = 0

    def new_line(known: bool = True, why: str = _SKETCH) -> _Line:
        nonlocal count
        count += 1
        return _Line(count - 1, puzzle.initial(), known, why)

    for k, lst in enumerate(lists):
        start, end = lst["span"]
        gap = text[prev_end:start]
        prev_end = max(prev_end, end)
        frag = FragmentReplay()
        prose = lst["source"] == "prose"
        if not lst["moves"]:
            out.append(frag)
            continue
        if not prose and not lst.get("labelled") and not _legal(puzzle, puzzle.initial(), lst["moves"][0]):
            # A bare list that cannot start from the initial state: a fragment of the line, or a
            # sub-problem's part ("hanoi(2, 1, 0, 2) = [[1, 1, 0], ...]", code `[[1, source, target]]`)
            # whose start state is not known.
            if not (line.known and line.broken is None and _legal(puzzle, line.states[-1], lst["moves"][0])):
                frag.moves = [LineMove(None, -1, i, "a list that cannot start from the initial state or its line "
                                       "of reasoning: part of a sub-problem, whose state is not known")
                              for i in range(len(lst["moves"]))]
                out.append(frag)
                continue
        elif not prose:
            line, frag.new_line = new_line(), True
        else:
            restart, sketch = _restart_at(gap), _last(_ITEM_ONE, gap)
            if restart is not None and (sketch is None or restart > sketch):
                line, frag.new_line = new_line(), True
            elif sketch is not None:
                line = new_line(known=False)
            elif _ELIDED.search(gap):
                line.known = False
            first = lst["moves"][0]
            if line.known and line.broken is None and move_number(text, lst["move_spans"][0][0]) is None \
                    and not _legal(puzzle, line.states[-1], first):
                if _legal(puzzle, puzzle.initial(), first) and len(line.states) > 1:
                    line, frag.new_line = new_line(), True
                else:
                    line = new_line(known=False, why=_UNPLACED)
        for i, (move, span) in enumerate(zip(lst["moves"], lst["move_spans"])):
            number = move_number(text, span[0]) if prose else None
            if number == 1:
                if not (i == 0 and frag.new_line):
                    line = new_line()
                frag.new_line = frag.new_line or i == 0
            elif number is not None and number > 1 and line.known:
                if number < len(line.states) and line.numbers[number - 1] != number - 1:
                    if line.broken is not None or not _legal(puzzle, line.states[-1], move):
                        line.known, line.why = False, _OUTLINE
                elif number - 1 < len(line.states):
                    del line.states[number:]
                    del line.numbers[number:]
                    line.broken = None
                else:  # "1023. Move disk 1 ...": moves left out, the state is not known
                    line.known = False
            if not line.known:
                frag.moves.append(LineMove(None, line.number, len(line.states) - 1, line.why))
                continue
            if line.broken is not None:
                frag.moves.append(LineMove(None, line.number, len(line.states) - 1,
                                           "after an illegal move on its line: not replayed", line.broken))
                continue
            state, index = line.states[-1], len(line.states) - 1
            try:
                after = puzzle.apply(state, move)
            except IllegalMove as exc:
                frag.moves.append(LineMove(MoveResult(index, False, exc.rule, f"{puzzle.describe(move)}: {exc.message}",
                                                      puzzle.snapshot(state)), line.number, index))
                line.broken = (k, i)
                if frag.first_illegal is None:
                    frag.first_illegal = i
                continue
            line.states.append(after)
            line.numbers.append(number)
            frag.moves.append(LineMove(MoveResult(index, True, None, puzzle.describe(move), puzzle.snapshot(after)),
                                       line.number, index))
        frag.final = puzzle.snapshot(line.states[-1]) if line.known else None
        frag.solved = line.known and line.broken is None and puzzle.is_goal(line.states[-1])
        out.append(frag)
    return out
