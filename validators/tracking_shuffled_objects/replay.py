"""The `tracking_shuffled_objects` replay: who holds what after each swap of BIG-Bench's task.

The assignment is replayed from the prompt's start, one swap at a time, in the prompt's order
(problem.py). A step that names a swap ("Alice and Bob swap balls: ...") performs the next one:
naming another pair is `wrong_swap` (a swap skipped is found, and the replay resyncs at it). A
step that states holdings without naming a swap ("B: yellow, C: blue, D: red") performs the next
swap too, except the first such step, which states the start. Every holding it states, in any
of the forms the traces use ("Alice: red", "A: red", "Alice has orange ball", "Bob is playing
striker"), is judged against the replayed assignment (`wrong_holding`), partial lists included;
"At the end of the game, X has ..." against the assignment after every swap (`wrong_final`),
and "the answer is (B)" against the option naming that object (`wrong_option`).

A claim that follows from the trace's own previous claims (the right swap of a wrong
assignment) but is false about the replay is a consequence of the step where they parted.
An object name the trace shortens beyond recognition ("midfielder" when there are two) is not
judged. The answer is right when it is the option of the asked person's final object.

Reading (validators/reading): each step is segmented by `read_text` and every claim is read
from its unit (a sentence or line), without markdown emphasis ("**Alice**: red ball",
backticks), so a holding never runs into the next sentence; the spans (in the step's text) of
the units read are kept in `states[step]["claims"]`. The swap, holding and option wordings
("X and Y swap", "X: obj", "X has obj", "the answer is (B)") stay this package's grammar, matched
on the unit's text: a person is told by its capital letter (an initial "A:" stands for Alice),
which the layer's lower-cased tokens do not keep.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.record import TraceRecord
from core.verdicts import AnswerError, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.base import DomainSpec, Replay
from validators.reading.text import read_text, without_emphasis
from validators.tracking_shuffled_objects.problem import VERB, Problem, read_problem, recognise

VERSION = "2"
_SWAP = re.compile(r"\b([A-Z][a-z]+)\s+and\s+([A-Z][a-z]+)\s+(?:swap|trade|switch)")
_PAIR = re.compile(r"(?<![(\w])([A-Z][a-z]*)\s*:\s*([^,;:\n]+?)\s*(?=,|;|\.(?:\s|$)|$|\s+So\b)")
_HOLDS = re.compile(rf"\b([A-Z][a-z]+)\s+{VERB}\s+(?:the\s+|an?\s+)?([^,;\n]+?)\s*(?=\.(?:\s|$)|,|;|$|\s+So\b)")
_OPTION = re.compile(r"answer is\s*:?\s*\(?([A-G])\)")
_AT_END = re.compile(r"\bat the end\b", re.I)


def swapped(state: dict[str, str], pair: tuple[str, str]) -> dict[str, str]:
    a, b = pair
    out = dict(state)
    if a in out and b in out:
        out[a], out[b] = out[b], out[a]
    return out


def final_state(problem: Problem) -> dict[str, str]:
    state = dict(problem.start)
    for pair in problem.swaps:
        state = swapped(state, pair)
    return state


@dataclass
class _Run:
    problem: Problem
    state: dict[str, str]
    claimed: dict[str, str]
    pos: int = 0
    started: bool = False
    root: int | None = None
    verdicts: list[StepVerdict] = field(default_factory=list)
    states: dict[int, dict] = field(default_factory=dict)

    def next_swap(self) -> tuple[str, str] | None:
        return self.problem.swaps[self.pos] if self.pos < len(self.problem.swaps) else None

    def perform(self) -> None:
        pair = self.next_swap()
        if pair is not None:
            self.state = swapped(self.state, pair)
            self.claimed = swapped(self.claimed, pair)
            self.pos += 1


def _claims(problem: Problem, text: str) -> list[tuple[str, str]]:
    """(person, what the text says they hold), in text order, known people only."""
    found = []
    for m in sorted([*_PAIR.finditer(text), *_HOLDS.finditer(text)], key=lambda m: m.start()):
        person = problem.person(m.group(1))
        if person is not None and not _SWAP.match(text, m.start()):
            found.append((person, m.group(2).strip()))
    return found


def _swap_step(run: _Run, pair: tuple[str, str]) -> tuple[bool, str] | None:
    """Perform the named swap; the reason when it is not the next one."""
    expected = run.next_swap()
    if expected is not None and set(pair) == set(expected):
        run.perform()
        return None
    later = run.problem.swaps[run.pos + 1] if run.pos + 1 < len(run.problem.swaps) else None
    why = (f"the next swap in the input (number {run.pos + 1}) is {expected[0]} and {expected[1]}, "
           f"not {pair[0]} and {pair[1]}" if expected else
           f"every swap of the input is done; {pair[0]} and {pair[1]} swap no more")
    if later is not None and set(pair) == set(later):
        run.perform()
        run.perform()
    else:
        run.claimed = swapped(run.claimed, pair)
    return False, why


def _step(run: _Run, i: int, text: str) -> None:
    p = run.problem
    problems: list[tuple[bool, str, str]] = []  # (follows from the trace's own claims, rule, message)
    units = [(without_emphasis(u.text(text)), u.span) for u in read_text(text).units]
    used: list[tuple[int, int]] = []

    def first(pattern: re.Pattern) -> re.Match | None:
        for said, span in units:
            m = pattern.search(said)
            if m:
                used.append(span)
                return m
        return None

    swap = first(_SWAP)
    claims: list[tuple[str, str]] = []
    for said, span in units:
        found = _claims(p, said)
        if found:
            claims += found
            used.append(span)
    at_end = bool(first(_AT_END))
    option = first(_OPTION)
    if swap and p.person(swap.group(1)) and p.person(swap.group(2)):
        bad = _swap_step(run, (swap.group(1), swap.group(2)))
        if bad is not None:
            problems.append((bad[0], "wrong_swap", bad[1]))
    elif claims and not at_end:
        if run.started:
            run.perform()
    if claims:
        run.started = True
    truth = final_state(p) if at_end else run.state
    where = ("after every swap" if at_end else
             f"after swap {run.pos} ({' and '.join(p.swaps[run.pos - 1])})" if run.pos else "at the start")
    judged = bool(problems)
    for person, said in claims:
        obj = p.resolve(said)
        if obj is None:
            continue
        judged = True
        if obj != truth[person]:
            problems.append((obj == run.claimed.get(person), "wrong_final" if at_end else "wrong_holding",
                             f"{where}, {person} has {truth[person]}, not {obj}"))
        run.claimed[person] = obj
    if option and p.options:
        judged = True
        final = final_state(p)
        want = p.option_of(final[p.asked]) if p.asked else None
        letter = option.group(1)
        if want is not None and letter != want:
            mine = p.option_of(run.claimed.get(p.asked, "")) if p.asked else None
            problems.append((mine == letter, "wrong_option",
                             f"{p.asked} ends with {final[p.asked]}, option ({want}), not ({letter}) "
                             f"({p.options.get(letter, 'no such option')})"))
    run.states[i] = {"holding": dict(run.state), "swaps_done": run.pos,
                     "claims": [list(span) for span in sorted(set(used))]}
    if not judged:
        run.verdicts.append(StepVerdict(i, "unchecked"))
        return
    if not problems:
        run.verdicts.append(StepVerdict(i, "valid"))
        return
    roots = [q for q in problems if not q[0]]
    _, rule, _ = (roots or problems)[0]
    consequence = run.root if not roots and run.root is not None else None
    run.verdicts.append(StepVerdict(i, "invalid", rule, "; ".join(q[2] for q in problems), consequence_of=consequence))
    if run.root is None:
        run.root = i


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    p = read_problem(record.problem)
    if p is None:
        return Replay(answer_correct=None, answer_error=AnswerError(
            "undecided", "problem.input is not a tracking_shuffled_objects prompt Stepscope can read "
            "(people, what each holds at the start, the swaps)"))
    run = _Run(p, dict(p.start), dict(p.start))
    for step in parsed.graph:
        _step(run, step.index, step.text)
    final = final_state(p)
    answer_correct: bool | None = None
    error = None
    if p.asked is None:
        error = AnswerError("undecided", "the prompt asks about nobody Stepscope can read")
    else:
        want = p.option_of(final[p.asked])
        answer = without_emphasis(record.answer)
        given = re.search(r"\(?\b([A-G])\)", answer) or re.fullmatch(r"\s*([A-G])\s*", answer)
        if want is not None and given is not None:
            answer_correct = given.group(1) == want
        else:
            answer_correct = p.resolve(record.answer) == final[p.asked] if record.answer.strip() else False
        if not answer_correct:
            error = AnswerError("wrong_value", f"{p.asked} ends with {final[p.asked]}"
                                + (f", option ({want})" if want else "") + f"; the answer is {record.answer!r}")
    return Replay(step_verdicts=run.verdicts, answer_correct=answer_correct, answer_error=error, states=run.states,
                  notes={"final": final})


DOMAIN = DomainSpec(
    name="tracking_shuffled_objects", version=VERSION,
    description="BIG-Bench tracking_shuffled_objects: every swap, holding and final claim against the swaps "
                "replayed from the start; the answer option against the asked person's final object.",
    replay=replay, recognise=recognise,
)
