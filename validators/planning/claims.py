"""What a thinking trace asserts, as judged: claims, lines of reasoning, and the step verdicts
and step snapshots they give (semantics: ../shared/docs/thinking-claims.md).

The reader that finds and judges claims is reading.py; this module is the data it produces
and how that data becomes the per-step verdicts every page and report shows:
* a step is `invalid` when a claim in it is false and the same step does not take it back;
* `corrected` when it catches the model's own error (a correct rejection, or a retraction), which
  the explorer shows as the reasoning working, never as an error;
* `valid` when every claim in it that could be judged holds.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from core.verdicts import StepVerdict
from trace_parsers.base import ParsedTrace
from validators.planning.strips import Atom, GroundAction

CLAIM_KINDS = ("applicability", "state", "effect", "plan_verdict", "goal")


@dataclass
class Claim:
    """One assertion, judged. `holds` None: not resolved (never shown as an error)."""

    kind: str
    span: tuple[int, int]
    text: str
    holds: bool | None
    message: str
    line: int
    negative: bool = False          # the claim says something does not hold / cannot be done
    retracted: bool = False
    state: list[str] | None = None  # the line's state it was judged against (PDDL atoms)
    line_actions: tuple[str, ...] | None = None  # the line's actions when the claim was made
    atom: Atom | None = None        # the fact the claim is about, for state and effect claims
    after: str | None = None        # the action whose result it speaks of (an effect's action, or the
                                    # line's last action for a claim about the line's current state)
    follows: tuple[int, int] | None = None  # span of the earlier false claim this one only restates
    rules: tuple[str, ...] = ()     # the rule rows that read it (claim_rules.py)
    modality: str = "asserted"      # asserted, proposed, hypothetical, questioned, retracted
    action: str | None = None       # the action an applicability claim is about
    broken_before: bool = False     # its line had applied an inapplicable action before it

    @property
    def correction(self) -> bool:
        """A correct rejection: the model catching an inapplicable action or a false fact."""
        return self.holds is True and self.negative and self.kind == "applicability"

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "span": list(self.span), "text": self.text, "holds": self.holds,
                "message": self.message, "line": self.line, "negative": self.negative,
                "retracted": self.retracted, "modality": self.modality, "rules": list(self.rules)}


@dataclass
class LineOfReasoning:
    """A sequence of actions from the initial state; `known` is false once an action could
    not be resolved (its state is then not used to judge anything)."""

    id: int
    start: int
    actions: list[GroundAction] = field(default_factory=list)
    states: list[frozenset[Atom]] = field(default_factory=list)
    known: bool = True
    last: int = 0  # where the line last moved (an action applied, a restart)
    broken: int | None = None  # index of the first action applied although inapplicable
    known_upto: int | None = None  # how many actions it had when its state was lost: those states still hold
    listed: bool = False  # an action of it was read from a numbered item
    from_item: list[bool] = field(default_factory=list)  # per action: read from a numbered item
    item_of: list[int | None] = field(default_factory=list)  # per action: the number of the item it was read from
    uncertain_from: int | None = None  # from the state after this many actions on, the line has two readings (lines.py)
    uncertain_why: str = ""

    @property
    def state(self) -> frozenset[Atom]:
        return self.states[-1]

    def lose(self) -> None:
        """The line may have moved without us (an action we could not read): its state is no
        longer known, but the states of the actions read before it still are."""
        if self.known:
            self.known = False
            self.known_upto = len(self.actions)

    def known_at(self, keep: int) -> bool:
        """Is the state after the first `keep` actions known (a walk that steps back to it)?"""
        return self.known or (self.known_upto is not None and keep <= self.known_upto)

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "start": self.start, "actions": [a.text() for a in self.actions],
                "known": self.known}


@dataclass
class ClaimReport:
    claims: list[Claim]
    lines: list[LineOfReasoning]
    line_at: list[tuple[int, int]]  # (char position, line id): the line in force from there on
    events: list = field(default_factory=list)  # lines.Event, in text order (the reader that logs them)


def link_consequences(claims: list[Claim]) -> None:
    """Mark a false claim about the state after an action that only restates an earlier false
    effect claim about that action on the same line ("Feast c from a gives Pain a." ... "Now,
    Pain a, Province a."): one misconception, whose root is the effect claim."""
    said: dict[tuple, tuple[int, int]] = {}
    for c in claims:
        if c.holds is not False or c.retracted or c.atom is None or c.after is None:
            continue
        key = (c.line, c.line_actions, c.after, c.atom, c.negative)
        if c.kind == "effect":
            said.setdefault(key, c.span)
        elif c.kind == "state" and key in said:
            c.follows = said[key]


def _judged_by_step(parsed: ParsedTrace, report: ClaimReport) -> dict[int, list[Claim]]:
    """The judged claims of each step (the step their text starts in), in claim order, the steps
    in order of their first claim."""
    starts = [s.span[0] for s in parsed.graph]
    by_step: dict[int, list[Claim]] = {}
    for c in report.claims:
        if c.holds is None:
            continue
        idx = max(0, bisect.bisect_right(starts, c.span[0]) - 1)
        got = by_step.get(idx)
        if got is None:
            by_step[idx] = [c]
        else:
            got.append(c)
    return by_step


def step_findings(parsed: ParsedTrace, report: ClaimReport) -> tuple[list[StepVerdict], dict[int, dict[str, object]]]:
    """`step_verdicts` and `step_states` of one report, its claims placed in steps once."""
    by_step = _judged_by_step(parsed, report)
    states = _states(report, by_step)
    _add_unjudged(parsed, report, states)
    return _verdicts(parsed, by_step), states


def _add_unjudged(parsed: ParsedTrace, report: ClaimReport, states: dict[int, dict[str, object]]) -> None:
    """Claims read but left unjudged, with why, beside the judged ones of their step (the explorer
    shows them in grey): a reader that says what it did not judge can be trusted with what it did."""
    starts = [s.span[0] for s in parsed.graph]
    for c in report.claims:
        if c.holds is not None:
            continue
        idx = max(0, bisect.bisect_right(starts, c.span[0]) - 1)
        entry = states.setdefault(idx, {"line_of_reasoning": {"id": c.line, "actions": list(c.line_actions or ())},
                                        "judged_against": None, "claims": []})
        entry.setdefault("unjudged", []).append(  # type: ignore[union-attr]
            {"kind": c.kind, "text": _short(c.text, 160), "why": c.message, "modality": c.modality,
             "rules": _rule_rows(c.rules)})


def _rule_rows(ids: tuple[str, ...]) -> list[dict[str, str]]:
    from validators.planning.claim_rules import BY_ID

    out = []
    for rid in ids:
        row = BY_ID.get(rid)
        out.append({"id": rid, "sets": row.sets, "example": row.example, "source": row.source} if row is not None
                   else {"id": rid, "sets": "", "example": "", "source": ""})
    return out


def step_verdicts(parsed: ParsedTrace, report: ClaimReport) -> list[StepVerdict]:
    """One verdict per step holding a judged claim: invalid when a claim in it is false and not
    retracted, `corrected` when it catches an error (a correct rejection, or a retraction),
    else valid."""
    return _verdicts(parsed, _judged_by_step(parsed, report))


def _verdicts(parsed: ParsedTrace, by_step: dict[int, list[Claim]]) -> list[StepVerdict]:
    starts: list[int] | None = None
    out = []
    for idx in sorted(by_step):
        cs = by_step[idx]
        false = [c for c in cs if c.holds is False and not c.retracted]
        if false:
            head = false[0]
            # A step whose every error restates an earlier step's ("Feast c from a gives Pain a",
            # then "Now, Pain a") is a consequence of it (record-format: `consequence_of`).
            if starts is None:
                starts = [s.span[0] for s in parsed.graph]
            roots = {max(0, bisect.bisect_right(starts, c.follows[0]) - 1) if c.follows else None for c in false}
            root = roots.pop() if len(roots) == 1 else None
            out.append(StepVerdict(idx, "invalid", f"false_{head.kind}_claim",
                                   "; ".join(f"\"{_short(c.text)}\": {c.message}" for c in false[:4]),
                                   expected=head.state, found=[c.text for c in false],
                                   consequence_of=root if root is not None and root < idx else None))
        elif any(c.correction or (c.retracted and c.holds is False) for c in cs):
            # a true claim taken back corrects nothing: the step is shown with its claims
            out.append(StepVerdict(idx, "corrected", "self_correction",
                                   "; ".join(f"\"{_short(c.text)}\": " + (
                                       "said, then taken back right after" if c.retracted else c.message)
                                             for c in cs if c.correction or (c.retracted and c.holds is False))))
        else:
            out.append(StepVerdict(idx, "valid", None, "; ".join(c.message for c in cs[:4])))
    return out


def _short(text: str, n: int = 80) -> str:
    # Printable text holds no white space but " " (str.isprintable): then only runs and ends change.
    if not (text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " "):
        text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def step_states(parsed: ParsedTrace, report: ClaimReport) -> dict[int, dict[str, object]]:
    """For each step holding a judged claim: the line of reasoning it belongs to (its actions
    from the initial state), the state its claims were judged against, and the claims, so a
    reader sees what each verdict rests on."""
    return _states(report, _judged_by_step(parsed, report))


def _states(report: ClaimReport, by_step: dict[int, list[Claim]]) -> dict[int, dict[str, object]]:
    out: dict[int, dict[str, object]] = {}
    for idx, cs in by_step.items():
        first = cs[0]
        line = report.lines[first.line]
        judged_against = None
        for c in cs:
            if c.state is not None:
                judged_against = c.state
                break
        out[idx] = {
            "line_of_reasoning": {"id": line.id, "actions": list(first.line_actions or ())},
            "judged_against": judged_against,
            "claims": [{"kind": c.kind, "text": _short(c.text, 160), "holds": c.holds, "retracted": c.retracted,
                        "message": c.message, **({"modality": c.modality, "rules": _rule_rows(c.rules),
                                                  "judged_against": c.state} if c.rules else {})}
                       for c in cs],
        }
    return out
