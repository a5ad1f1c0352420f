"""Lines of reasoning as events (semantics: ../shared/docs/thinking-claims.md, "Claims, not
action lists").

A thinking trace moves between lines of reasoning: it starts one from the initial state, performs
actions on it, forks it at step k ("after step 2 of the plan"), steps back to an earlier state,
undoes an action found impossible, loses track (an action we could not read), or re-anchors
("starting over", "in the current state"). The reader (reading.py) says which event a sentence
makes; this module applies it, keeps the log, and answers "which state does this sentence speak
about". Pure: no text, no patterns, only lines, actions and states.

The invariant of every line: each state is the previous one with the action applied, forced when
the action is not applicable (the line goes on in the state the model believes in; the first
forced action is `broken`). `check` verifies it.

A line is **uncertain** from an action on when the event that put it there has two readings (an
implicit step back could also be the model applying an inapplicable action; an action the
sentence only says can be done may not have been taken). A claim judged in an uncertain state is
left unjudged with the reason: a false flag costs as much as a miss.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from validators.planning.claims import LineOfReasoning
from validators.planning.strips import Atom, GroundAction, apply, unmet_preconditions

EVENT_KINDS = ("new", "perform", "fork", "step_back", "undo", "lose", "reanchor", "uncertain")


@dataclass(frozen=True)
class Event:
    """One move of the reasoning: what happened, where in the text, to which line, and the rule
    row (claim_rules.py) or reader step that read it."""

    kind: str
    pos: int
    line: int
    action: str | None = None
    keep: int | None = None       # fork, step back: how many of the line's actions are kept
    source: int | None = None     # fork, step back: the line it came from
    rule: str = ""
    note: str = ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "pos": self.pos, "line": self.line}
        for k in ("action", "keep", "source"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        if self.rule:
            out["rule"] = self.rule
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class Lines:
    """The lines of one trace and the events that built them, in text order."""

    init: frozenset[Atom]
    lines: list[LineOfReasoning] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    line_at: list[tuple[int, int]] = field(default_factory=list)  # (char position, line id) in force from there
    # line id -> its states under the other reading, from `uncertain_from` on (None: no other reading known)
    other: dict[int, list[frozenset[Atom]] | None] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, k: int) -> LineOfReasoning:
        return self.lines[k]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.lines)

    def _log(self, kind: str, pos: int, line: LineOfReasoning, **kw: object) -> None:
        self.events.append(Event(kind, pos, line.id, **kw))  # type: ignore[arg-type]

    # -- events ---------------------------------------------------------------------------------
    def new_line(self, pos: int, rule: str = "") -> LineOfReasoning:
        """A line from the initial state ("Let me start over", a numbered list's first item)."""
        line = LineOfReasoning(len(self.lines), pos, [], [self.init], last=pos)
        self.lines.append(line)
        self.line_at.append((pos, line.id))
        self._log("new", pos, line, rule=rule)
        return line

    def fork(self, line: LineOfReasoning, keep: int, pos: int, rule: str = "", kind: str = "fork") -> LineOfReasoning:
        """A new line holding the first `keep` actions of `line` ("after step 2, ..."): its states
        are those of `line` up to there, and so is what is known or uncertain about them."""
        broken = line.broken if line.broken is not None and line.broken < keep else None
        new = LineOfReasoning(len(self.lines), pos, line.actions[:keep], line.states[:keep + 1], line.known_at(keep),
                              broken=broken)
        new.last = pos
        new.listed = line.listed
        new.from_item = line.from_item[:keep]
        new.item_of = line.item_of[:keep]
        if line.uncertain_from is not None and line.uncertain_from <= keep:
            new.uncertain_from, new.uncertain_why = line.uncertain_from, line.uncertain_why
            alt = self.other.get(line.id)
            self.other[new.id] = None if alt is None else alt[:keep + 1 - line.uncertain_from]
        self.lines.append(new)
        self.line_at.append((pos, new.id))
        self._log(kind, pos, new, keep=keep, source=line.id, rule=rule)
        return new

    def perform(self, line: LineOfReasoning, action: GroundAction, pos: int, listed: bool, rule: str = "",
                item: int | None = None) -> None:
        """The invariant: each state is the previous one with the action applied, forced when the
        model applies an inapplicable action (the line goes on in the state it believes in)."""
        forced = line.known and bool(unmet_preconditions(action, line.state))
        if forced and line.broken is None:
            line.broken = len(line.actions)
        line.actions.append(action)
        line.states.append(apply(action, line.state) if line.known else line.state)
        alt = self.other.get(line.id)
        if alt:
            alt.append(apply(action, alt[-1]))
        line.last = pos
        line.listed = line.listed or listed
        line.from_item.append(listed)
        line.item_of.append(item)
        self._log("perform", pos, line, action=action.text(), rule=rule, note="forced" if forced else "")

    def step_back(self, line: LineOfReasoning, action: GroundAction, pos: int, rule: str = "",
                  walk_at: int | None = None) -> LineOfReasoning | None:
        """An action the line's state does not allow but an earlier state of the same line does:
        the model may have gone back to that state without saying so, or may be applying the action
        although it is not applicable. Two readings: the fork is uncertain from the action on, except
        when the action is the line's own next step from there (a re-walk of the line, or the step just
        taken named again): applying the same step twice is not a reading anyone means. `walk_at`:
        how many steps of the line come before this one by the number the text gives it ("Step 5:"
        in a list walked from the line's start); a re-walk is certain only at that step ("Step 5: Feast
        a from b", the line's step 1, is no re-walk of step 1)."""
        for keep in range(len(line.actions) - 1, -1, -1):
            if not unmet_preconditions(action, line.states[keep]):
                new = self.fork(line, keep, pos, rule, kind="step_back")
                if line.actions[keep] == action and walk_at in (None, keep):
                    return new  # the line's own step k+1 walked again ("Let me verify: - Unstack blue from red: ..."),
                    # or the step just taken named again ("1. Attack b." then "Attack b: Requires ..."): one reading
                self.doubt(new, keep, pos, f"{action.text()} is not applicable after "
                           f"{len(line.actions)} steps of the line but is after {keep}: the model may have gone back "
                           "there, or applied it anyway", rule, other=[line.state] if line.known else None)
                return new
        return None

    def undo(self, line: LineOfReasoning, pos: int, rule: str = "") -> None:
        """An action found impossible ("... can't do") is not taken."""
        if not line.actions:
            return
        action = line.actions.pop()
        line.states.pop()
        if line.from_item:
            line.from_item.pop()
        if line.item_of:
            line.item_of.pop()
        if line.broken is not None and line.broken >= len(line.actions):
            line.broken = None
        alt = self.other.get(line.id)
        if alt:
            alt.pop()
        if line.uncertain_from is not None and line.uncertain_from > len(line.actions):
            line.uncertain_from, line.uncertain_why = None, ""
            self.other.pop(line.id, None)
        self._log("undo", pos, line, action=action.text(), rule=rule)

    def lose(self, line: LineOfReasoning, pos: int, rule: str = "") -> None:
        """The line may have moved without us (an action we could not read): its state is no
        longer known, but the states of the actions read before it still are."""
        if line.known:
            line.lose()
            self._log("lose", pos, line, rule=rule)

    def reanchor(self, line: LineOfReasoning, pos: int, rule: str = "") -> None:
        """The text names the line it speaks of ("in the current state", "after step 2"): the
        line in force from `pos`, for the rest of the unit or on."""
        self.line_at.append((pos, line.id))
        self._log("reanchor", pos, line, rule=rule)

    def doubt(self, line: LineOfReasoning, at: int, pos: int, why: str, rule: str = "",
              other: list[frozenset[Atom]] | None = None) -> None:
        """From the state after `at` actions on, the line has two readings; `other`: the states
        of the other reading from there (None: not known)."""
        if line.uncertain_from is None or at < line.uncertain_from:
            line.uncertain_from, line.uncertain_why = at, why
            self.other[line.id] = other
        self._log("uncertain", pos, line, keep=at, rule=rule, note=why)

    def settle(self, line: LineOfReasoning, pos: int, rule: str = "") -> None:
        """The doubt ends where the text that raised it ends (a branch's paragraph): the line is read
        as it stands again."""
        if line.uncertain_from is not None:
            line.uncertain_from, line.uncertain_why = None, ""
            self.other.pop(line.id, None)
            self._log("reanchor", pos, line, rule=rule, note="doubt settled")

    # -- questions --------------------------------------------------------------------------------
    def readings(self, line: LineOfReasoning, state: frozenset[Atom]) -> tuple[bool, frozenset[Atom] | None]:
        """Is `state` (judged on `line`) one of its uncertain states, and if so its state under
        the other reading (None: not known). A state also held before the doubt is certain."""
        if line.uncertain_from is None:
            return False, None
        at = next((k for k in range(len(line.states) - 1, -1, -1) if line.states[k] == state), None)
        if at is None or at < line.uncertain_from:
            return False, None
        alt = self.other.get(line.id)
        k = at - line.uncertain_from
        return True, (alt[k] if alt is not None and k < len(alt) else None)


def check(line: LineOfReasoning) -> list[int]:
    """The steps of a known line whose state is not the previous one with the action applied
    (empty when the invariant holds). A line lost at action k is checked up to k."""
    upto = len(line.actions) if line.known else (line.known_upto or 0)
    return [k for k in range(upto) if apply(line.actions[k], line.states[k]) != line.states[k + 1]]
