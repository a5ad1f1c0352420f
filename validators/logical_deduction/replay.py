"""The `logical_deduction` replay: each claimed ordering against the orderings still possible.

BIG-Bench Mistake's chains cite one statement a step and restate what is known ("The tractor
is older than the bus. So from oldest to newest: first is the tractor, then second can be any
vehicle, then third can be any vehicle except the bus, ..."). The statements cited so far allow
a set of orderings, enumerated by brute force (problem.py; at most 7! = 5,040). A claim reads,
per position, which objects may stand there: "is X" only X, "can be any ... except Y" every
object not placed elsewhere in the claim and not excepted, "can be X or Y" those. The claim is
false (`wrong_order`) when it:

* rules out a possible ordering: an object that may stand at a position is not allowed there;
* allows an impossible one: an object that cannot stand at a position is allowed there
  ("first can be any golfer" when Eve must be first).

"P, Q, or R can be X" claims X's positions, which must be exactly those still possible.

A sentence that places or orders objects outside such a claim ("Amy must be second-to-last")
must hold in every possible ordering (`not_entailed`); "the answer is (B)" must be the option
that holds in every ordering all the statements allow (`wrong_option`). A false claim that only
repeats what an earlier claim got wrong is its consequence. Steps that claim none of these, and
sentences under "if" or "suppose", are not judged.

Reading (validators/reading): each step is segmented by `read_text` (no private sentence
splitting) and read without markdown emphasis; a unit is cut into clauses at its "so" and ";"
tokens. Closed-class words come from the lexicon: a clause is negated when it holds a
negation or "cannot" cue ("not", "isn't", "cannot", "impossible"), excepted objects follow an
"except" or negation cue, and a clause is doubted (not judged) when a condition, hedge or
proposal cue opens it after filler words ("if", "suppose", "maybe", "let's say") or a "?" ends
it. The spans (in the step's text) of the units read are kept in `states[step]["claims"]`. What
stays this package's grammar: the claim's frame "from X to Y: ..." and its segments ("third is
the mangoes", "can be any fruit except ..."), read on the text from the claim's unit to the end
of the step (a claim may run over several sentences: "... then third is X. Then fourth ...");
object names and relations (problem.py); and "it"/"they" standing for the object of the clause
before, an anaphora rule of these chains rather than a cue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.record import TraceRecord
from core.verdicts import AnswerError, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.base import DomainSpec, Replay
from validators.reading.cues import lexicon
from validators.reading.text import read_text, tokens_of, without_emphasis
from validators.logical_deduction.problem import ORDINALS, Constraint, Puzzle, holds, orderings, read_puzzle, recognise

VERSION = "2"
_ORD = "|".join(ORDINALS)
_CLAIM = re.compile(r"\bfrom (?P<a>[a-z ]+?) to (?P<b>[a-z ]+?)\s*:\s*(?P<body>.*)$", re.I | re.S)
_SEGMENT = re.compile(rf"^(?P<pos>(?:{_ORD})(?:\s*,?\s*(?:to|and|or)?\s*(?:{_ORD}))*)\s+(?P<verb>is|are|can be|could be)\s+(?P<rest>.*)$", re.I | re.S)
_HIGH_END = ("right", "newest", "last", "most expensive", "most")
_ANSWER = re.compile(r"answer is\s*:?\s*\(([A-G])\)")
_PRONOUN = re.compile(r"\b(?:it|they)\b", re.I)
_NEGATION = ("neg", "cant")
_DOUBT = ("cond", "hedge", "guess")


def _negation_at(text: str, classes: tuple[str, ...] = _NEGATION) -> int | None:
    """Where the text's first cue of these classes (negation, by default) starts; None without one."""
    toks = tokens_of(text, 0, len(text))
    found = [h.i for h in lexicon().hits(toks) if h.cls in classes]
    return toks[min(found)].start if found else None


def _doubted(text: str) -> bool:
    """A clause under a condition, hedge or proposal cue that opens it (after filler words:
    "So if ...", "Let's say ..."), or one that asks ("?")."""
    toks = tokens_of(text, 0, len(text))
    if toks and toks[-1].norm == "?":
        return True
    hits = lexicon().hits(toks)
    filler = {h.i for h in hits if h.cls == "filler"}
    k = 0
    while k in filler:
        k += 1
    return any(h.i == k and h.cls in _DOUBT for h in hits)


@dataclass
class _Run:
    puzzle: Puzzle
    used: set = field(default_factory=set)
    wrong: set = field(default_factory=set)  # what earlier claims got wrong
    root: int | None = None
    verdicts: list[StepVerdict] = field(default_factory=list)
    states: dict[int, dict] = field(default_factory=dict)

    def possible(self, every: bool = False) -> tuple[dict[str, int], ...]:
        cs = [c for _, c in self.puzzle.statements if c is not None] if every else list(self.used)
        return orderings(self.puzzle.objects, frozenset(cs))


def _positions(text: str, n: int, reverse: bool) -> list[int]:
    """The positions (1..n on the puzzle's axis) that '"third to seventh", "first and second" name."""
    said = [ORDINALS.index(w.lower()) + 1 for w in re.findall(_ORD, text, re.I)]
    if re.search(r"\bto\b", text) and len(said) == 2:
        said = list(range(said[0], said[1] + 1))
    return [n + 1 - k if reverse else k for k in said if k <= n]


@dataclass
class Claim:
    """What a "So from X to Y: ..." claim allows: objects per position, and positions per object."""

    at: dict[int, set[str]]
    places: dict[str, set[int]]


def read_claim(puzzle: Puzzle, text: str) -> Claim | None:
    """The claim of a "So from X to Y: ..." sentence; None when there is none."""
    m = _CLAIM.search(text)
    if m is None:
        return None
    reverse = m.group("a").strip().lower().startswith(_HIGH_END)
    n = puzzle.n
    allowed: dict[int, set[str]] = {}
    fixed: dict[int, str] = {}
    open_: dict[int, set[str]] = {}
    places: dict[str, set[int]] = {}
    for seg in re.split(r",?\s*\bthen\b\s*", m.group("body")):
        seg = re.split(rf",?\s*\band\s+(?!(?:{_ORD})\b)", seg)[0].strip().rstrip(".")
        s = _SEGMENT.match(seg)
        if s is None:
            continue
        positions = _positions(s.group("pos"), n, reverse)
        rest = s.group("rest")
        named = puzzle.mentions(rest)
        cut = _negation_at(rest, ("except", *_NEGATION))
        if "except" in rest.lower() or (named and _negation_at(rest) is not None):
            excepted = puzzle.mentions(rest[cut:]) if cut is not None else named
            for p in positions:
                open_[p] = set(excepted)
        elif named and not re.search(r"\bany\b|\bunknown\b", rest, re.I):
            if len(positions) == 1 and len(named) == 1 and s.group("verb").lower() in ("is", "are"):
                fixed[positions[0]] = named[0]
            elif len(named) == 1:
                places[named[0]] = set(positions)
            else:
                for p in positions:
                    allowed[p] = set(named)
        else:
            for p in positions:
                open_[p] = set()
    for p, obj in fixed.items():
        allowed[p] = {obj}
    for p, excepted in open_.items():
        allowed[p] = set(puzzle.objects) - {o for q, o in fixed.items() if q != p} - excepted
    return Claim(allowed, places) if allowed or places else None


def _ordinal(p: int) -> str:
    return ORDINALS[p - 1]


def _judge_claim(run: _Run, claim: Claim) -> list[tuple[tuple, str]]:
    worlds = run.possible()
    if not worlds:
        return []
    out = []
    for p, allowed in sorted(claim.at.items()):
        there = {o for w in worlds for o, q in w.items() if q == p}
        for obj in sorted(there - allowed):
            out.append((("out", p, obj), f"{obj} can be at position {p} ({_ordinal(p)} on the puzzle's axis), "
                        "which the claim rules out"))
        for obj in sorted(allowed - there):
            out.append((("in", p, obj), f"{obj} cannot be at position {p} ({_ordinal(p)} on the puzzle's axis), "
                        "which the claim allows"))
    for obj, claimed in sorted(claim.places.items()):
        can = {w[obj] for w in worlds}
        if can != claimed:
            out.append((("places", obj, frozenset(claimed)), f"{obj} can be at positions {sorted(can)} on the "
                        f"puzzle's axis, not {sorted(claimed)}"))
    return out


def _entailed(run: _Run, c: Constraint, every: bool = False) -> bool | None:
    worlds = run.possible(every)
    return all(holds(c, w) for w in worlds) if worlds else None


def _clauses(units: list[str]) -> list[str]:
    """The units cut at their "so" and ";" tokens (a comma before "so" dropped)."""
    out: list[str] = []
    for said in units:
        pos = 0
        for t in tokens_of(said, 0, len(said)):
            if t.norm in ("so", ";"):
                out.append(said[pos:t.start].strip().rstrip(",").strip())
                pos = t.end
        out.append(said[pos:].strip())
    return [c for c in out if c]


def _step(run: _Run, i: int, text: str) -> None:
    p = run.puzzle
    units = [(without_emphasis(u.text(text)), u.span) for u in read_text(text).units]
    before: list[str] = []
    used: list[tuple[int, int]] = []
    claim_text = ""
    for k, (said, span) in enumerate(units):
        cut = _CLAIM.search(said)
        if cut is None:
            before.append(said)
            continue
        before.append(said[:cut.start()])
        claim_text = " ".join([said[cut.start():]] + [u for u, _ in units[k + 1:]])
        used += [sp for _, sp in units[k:]]
        break
    statements = {c for _, c in p.statements if c is not None}
    findings: list[tuple[tuple, str, str]] = []
    judged = False
    subject: str | None = None
    for clause in _clauses(before):
        named = p.mentions(clause)
        if not named and subject and _PRONOUN.search(clause):
            clause = _PRONOUN.sub(subject, clause, count=1)
        subject = named[0] if named else subject
        if _doubted(clause) or _ANSWER.search(clause) or re.match(r"^\s*from\b", clause, re.I):
            continue
        c = p.constraint(clause)
        if c is None:
            continue
        negated = _negation_at(clause) is not None
        if not negated and c in statements:
            run.used.add(c)
            continue
        worlds = run.possible()
        if not worlds:
            continue
        judged = True
        true = not any(holds(c, w) for w in worlds) if negated else all(holds(c, w) for w in worlds)
        if not true:
            findings.append((("fact", c, negated), "not_entailed",
                             f'"{clause}" does not follow from the statements so far'))
    claim = read_claim(p, claim_text) if claim_text else None
    if claim is not None:
        judged = True
        findings += [(k, "wrong_order", msg) for k, msg in _judge_claim(run, claim)]
    option = next(((m, span) for m, span in ((_ANSWER.search(said), span) for said, span in units) if m), None)
    if option:
        option, span = option
        used.append(span)
        judged = True
        letter = option.group(1)
        c = p.options.get(letter)
        if c is not None and _entailed(run, c, every=True) is False:
            right = [k for k, oc in p.options.items() if oc is not None and _entailed(run, oc, every=True)]
            findings.append((("option", letter), "wrong_option",
                             f"option ({letter}) does not hold in every ordering the statements allow"
                             + (f"; ({right[0]}) does" if len(right) == 1 else "")))
    if not judged:
        run.verdicts.append(StepVerdict(i, "unchecked"))
        return
    run.states[i] = {"claims": [list(span) for span in used]}
    if not findings:
        run.verdicts.append(StepVerdict(i, "valid"))
        return
    new = [f for f in findings if f[0] not in run.wrong]
    run.wrong.update(f[0] for f in findings)
    shown = new or findings
    message = "; ".join(f[2] for f in shown[:4]) + (f"; and {len(shown) - 4} more" if len(shown) > 4 else "")
    consequence = run.root if not new and run.root is not None else None
    run.verdicts.append(StepVerdict(i, "invalid", shown[0][1], message, consequence_of=consequence))
    if consequence is None and run.root is None:
        run.root = i


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    p = read_puzzle(record.problem)
    if p is None:
        return Replay(answer_correct=None, answer_error=AnswerError(
            "undecided", "problem.input is not a logical_deduction puzzle Stepscope can read (objects, statements, options)"))
    run = _Run(p)
    for step in parsed.graph:
        _step(run, step.index, step.text)
    unread = [s for s, c in p.statements if c is None]
    right = [k for k, c in p.options.items() if c is not None and _entailed(run, c, every=True)]
    answer = without_emphasis(record.answer)
    given = re.search(r"\(([A-G])\)", answer) or re.fullmatch(r"\s*([A-G])\s*", answer)
    if unread or len(right) != 1:
        why = (f"statements Stepscope cannot read: {unread}" if unread else
               f"{len(right)} options hold in every ordering the statements allow")
        return Replay(step_verdicts=run.verdicts, answer_correct=None, answer_error=AnswerError("undecided", why),
                      states=run.states)
    ok = given is not None and given.group(1) == right[0]
    error = None if ok else AnswerError("wrong_value", f"option ({right[0]}) is the one that holds; the answer is "
                                        f"{record.answer!r}", extra={"expected": f"({right[0]})"})
    return Replay(step_verdicts=run.verdicts, answer_correct=ok, answer_error=error, notes={"option": right[0]},
                  states=run.states)


DOMAIN = DomainSpec(
    name="logical_deduction", version=VERSION,
    description="BIG-Bench logical deduction: every claimed ordering against the orderings the statements used so "
                "far allow (enumerated), facts claimed on the way, and the chosen option.",
    replay=replay, recognise=recognise,
)
