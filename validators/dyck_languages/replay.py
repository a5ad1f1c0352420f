"""The `dyck_languages` replay: BIG-Bench's Dyck-language task ("complete the rest of the sequence,
making sure that the parentheses are closed properly") on a stack of open brackets.

The problem is the input sequence (`problem.input`, the brackets; any words around them, such
as BIG-Bench's "Input: ...", are ignored). The chain of thought of BIG-Bench Mistake processes
one symbol a step ("< ; stack: ( <"), then claims the final stack, the order of the pops and the
closing brackets, and the answer. Each claim is judged against the stack replayed from the
input, symbol by symbol:

* a symbol step must read the next input symbol (`wrong_symbol`; a symbol skipped or repeated
  is found and the reading resyncs at it) and claim the stack after it (`wrong_stack`);
* "the final stack is ..." must come after the last symbol and equal the stack then
  (`not_at_end`, `wrong_final_stack`); "pop out ..." must list that stack from the top
  (`wrong_pop_order`); "we need ..." and "the answer is ..." the matching closing brackets
  (`wrong_closing`).

A claim that is right about the trace's own previous claim (a correct push or pop on a stack
the trace got wrong earlier) but false about the replayed stack is a consequence of the error
that made the stacks part (`consequence_of`): each error has one root step. Sentences that claim
none of these are not judged. The answer is right when its brackets are the closing sequence.

Reading (validators/reading): each step is segmented by `read_text`, and every claim is read
from one unit (a sentence or line), without markdown emphasis ('**The final stack is "( <"**');
a symbol step or a bare stack claim is the step's first unit, the other claims may stand in any
unit, and the spans (in the step's text) of the units read are kept in `states[step]["claims"]`.
The stack notation itself ("< ; stack: ( <", 'pop out "[" twice') stays this package's grammar,
matched on the unit's text: the layer's tokens have no "{" or "}", and a unit opening its line
is read from the line's start, since the layer trims a leading ">" (a quotation mark in prose,
a symbol here).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.record import TraceRecord
from core.verdicts import AnswerError, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.base import DomainSpec, Replay
from validators.reading.text import read_text, without_emphasis

VERSION = "2"
PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
OPENERS = {v: k for k, v in PAIRS.items()}
_BRACKET = re.compile(r"[\[\](){}<>]")
_SYMBOL_STEP = re.compile(r"^\s*(?P<sym>[\[\](){}<>])\s*;\s*stack\s*:\s*(?P<stack>.*)$", re.S)
_STACK_ONLY = re.compile(r"^\s*stack\s*:\s*(?P<stack>.*)$", re.S | re.I)
_FINAL = re.compile(r"final stack is\s*(?P<stack>empty|\"[^\"]*\"|[\[\](){}<> ]+)", re.I)
_END = re.compile(r"reached the end", re.I)
_POP = re.compile(r"pop out\s+(?P<items>nothing|.*?)(?:\s*,?\s*one by one|\s*in that order|\.\s|\.$|$)", re.I | re.S)
_NEED = re.compile(r"we need\s+(?P<items>nothing|.*?)(?:\.\s*So\b|\.$|$)", re.I | re.S)
_ANSWER = re.compile(r"the answer is\s*:?\s*(?P<ans>[^\n]*)$", re.I)
# A task prompt that is only a bracket sequence, possibly after BIG-Bench's "Input:"
_PROMPT = re.compile(r"^\s*(?:(?:complete the rest of the sequence.*?)?input\s*:\s*)?(?P<seq>[\[\](){}<>\s]+?)\s*=?\s*$",
                     re.I | re.S)


def brackets(text: str) -> list[str]:
    return _BRACKET.findall(text)


_COUNTED = re.compile(r"(?P<b>[\[\](){}<>])[\"'”’]?\s*(?P<n>once|twice|thrice|(?:two|three|four|\d+)\s+times)?", re.I)
_TIMES = {"once": 1, "twice": 2, "thrice": 3, "two": 2, "three": 3, "four": 4}


def _stack_claim(text: str) -> list[str] | None:
    """The stack a claim names: its brackets, each as often as a count after it says ('pop out
    "[" twice and "{" once': [ [ {), or nothing for "empty"; None when it names none."""
    found: list[str] = []
    for m in _COUNTED.finditer(text):
        n = (m.group("n") or "once").lower().split()[0]
        found += [m.group("b")] * (int(n) if n.isdigit() else _TIMES.get(n, 1))
    if found:
        return found
    return [] if re.search(r"\bempty\b|\bnothing\b", text, re.I) else None


def closing(stack: list[str]) -> list[str]:
    """The brackets that close `stack`, innermost first."""
    return [PAIRS[s] for s in reversed(stack)]


def _show(seq: list[str]) -> str:
    return " ".join(seq) if seq else "empty"


def read_input(problem: dict) -> list[str] | None:
    text = problem.get("input") or problem.get("question") or ""
    if not isinstance(text, str):
        return None
    found = brackets(text)
    return found or None


def recognise(problem: dict) -> bool:
    """An input that is nothing but brackets (after an optional "Input:")."""
    text = problem.get("input") or problem.get("question") or ""
    return isinstance(text, str) and bool(brackets(text)) and _PROMPT.match(text) is not None


def push_pop(stack: list[str], symbol: str) -> list[str] | None:
    """The stack after `symbol`; None when a closer does not match the top."""
    if symbol in PAIRS:
        return stack + [symbol]
    if stack and stack[-1] == OPENERS[symbol]:
        return stack[:-1]
    return None


@dataclass
class _Replay:
    """The replayed stack and the trace's own last claimed one, with the step where they parted."""

    symbols: list[str]
    pos: int = 0
    true_stack: list[str] = field(default_factory=list)
    claimed: list[str] = field(default_factory=list)
    root: int | None = None
    verdicts: list[StepVerdict] = field(default_factory=list)
    states: dict[int, dict] = field(default_factory=dict)

    def judge(self, step: int, ok: bool, locally_ok: bool, rule: str, message: str, expected, found) -> None:
        """Record a false claim: a root, or a consequence when it follows from the trace's own earlier claim."""
        if ok:
            self.verdicts.append(StepVerdict(step, "valid"))
            return
        consequence = self.root if (locally_ok and self.root is not None) else None
        self.verdicts.append(StepVerdict(step, "invalid", rule, message, expected, found, consequence_of=consequence))
        if consequence is None and self.root is None:
            self.root = step

    def advance(self, symbol: str) -> None:
        """Replay one input symbol (a closer that matches nothing leaves the stack as it is)."""
        nxt = push_pop(self.true_stack, symbol)
        if nxt is not None:
            self.true_stack = nxt
        self.pos += 1

    def resync(self, symbol: str) -> int | None:
        """Where `symbol` next occurs from the expected position (a skip or a repeat), if near."""
        for k in (1, 2, -1):
            p = self.pos + k
            if 0 <= p < len(self.symbols) and self.symbols[p] == symbol:
                return p
        return None


def _symbol_step(r: _Replay, i: int, symbol: str, claim: list[str] | None) -> None:
    expected_symbol = r.symbols[r.pos] if r.pos < len(r.symbols) else None
    local = push_pop(r.claimed, symbol)
    if expected_symbol != symbol:
        where = (f"the next input symbol (number {r.pos + 1}) is {expected_symbol!r}" if expected_symbol
                 else f"the input has only {len(r.symbols)} symbols, all processed")
        jump = r.resync(symbol)
        r.judge(i, False, False, "wrong_symbol", f"the step reads {symbol!r}, but {where}", expected_symbol, symbol)
        if jump is not None:
            for s in r.symbols[r.pos:jump]:
                r.advance(s)
        if jump is None or claim is None:
            if claim is not None:
                r.claimed = claim
            return
        r.advance(symbol)
        if claim is not None:
            r.claimed = claim
        r.states[i] = {"stack": list(r.true_stack), "position": r.pos}
        return
    r.advance(symbol)
    r.states[i] = {"stack": list(r.true_stack), "position": r.pos}
    if claim is None:
        r.verdicts.append(StepVerdict(i, "valid"))
        return
    ok = claim == r.true_stack
    msg = (f"after {symbol!r} (input symbol {r.pos}) the stack is {_show(r.true_stack)}, not {_show(claim)}"
           + ("" if local is not None or symbol in PAIRS else
              f"; {symbol!r} does not close the top of the stack claimed before ({_show(r.claimed)})"))
    r.judge(i, ok, local == claim, "wrong_stack", msg, _show(r.true_stack), _show(claim))
    r.claimed = claim


Unit = tuple[str, tuple[int, int]]


def units_of(text: str) -> list[Unit]:
    """The step's units (their text without emphasis, and their span in the step): a unit that
    opens its line from the line's start, so that a leading ">" stays a symbol."""
    out = []
    for u in read_text(text).units:
        a = text.rfind("\n", 0, u.span[0]) + 1 if u.line_start and u.item is None and not u.bullet else u.span[0]
        said = without_emphasis(text[a:u.span[1]]).strip()
        if said:
            out.append((said, (a, u.span[1])))
    return out


def _first(pattern: re.Pattern, units: list[Unit], used: list[tuple[int, int]]) -> re.Match | None:
    """The pattern's first match in the units, the unit's span recorded in `used`."""
    for said, span in units:
        m = pattern.search(said)
        if m:
            used.append(span)
            return m
    return None


def _final_claims(r: _Replay, i: int, units: list[Unit], answer_seen: list[list[str]],
                  used: list[tuple[int, int]]) -> bool:
    """The end-of-input claims in one step; False when it makes none."""
    judged = False
    messages: list[tuple[bool, bool, str, str, object, object]] = []
    final = _first(_FINAL, units, used)
    if final or _first(_END, units, used):
        if r.pos < len(r.symbols):
            messages.append((False, False, "not_at_end",
                             f"the trace claims the end after {r.pos} of the {len(r.symbols)} input symbols "
                             f"(next: {' '.join(r.symbols[r.pos:r.pos + 5])})", len(r.symbols), r.pos))
        judged = True
    if final:
        claim = _stack_claim(final.group("stack")) or []
        messages.append((claim == r.true_stack, claim == r.claimed, "wrong_final_stack",
                         f"the stack after the whole input is {_show(r.true_stack)}, not {_show(claim)}",
                         _show(r.true_stack), _show(claim)))
        r.claimed = claim
        judged = True
    pop = _first(_POP, units, used)
    if pop:
        claim = _stack_claim(pop.group("items")) or []
        want = list(reversed(r.true_stack))
        messages.append((claim == want, claim == list(reversed(r.claimed)), "wrong_pop_order",
                         f"the stack {_show(r.true_stack)} pops as {_show(want)}, not {_show(claim)}",
                         _show(want), _show(claim)))
        r.claimed = list(reversed(claim))
        judged = True
    need = _first(_NEED, units, used)
    answer = _first(_ANSWER, units, used)
    for m, key in ((need, "items"), (answer, "ans")):
        if m is None:
            continue
        claim = brackets(m.group(key))
        if key == "ans":
            answer_seen.append(claim)
        want = closing(r.true_stack)
        mine = [PAIRS[s] for s in reversed(r.claimed) if s in PAIRS]
        messages.append((claim == want, claim == mine, "wrong_closing",
                         f"the stack {_show(r.true_stack)} closes with {_show(want)}, not {_show(claim)}",
                         _show(want), _show(claim)))
        judged = True
    if not judged:
        return False
    bad = [m for m in messages if not m[0]]
    if not bad:
        r.verdicts.append(StepVerdict(i, "valid"))
    else:
        roots = [m for m in bad if not m[1]]
        ok, local, rule, message, expected, found = (roots or bad)[0]
        r.judge(i, False, not roots, rule, "; ".join(m[3] for m in bad), expected, found)
    return True


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    symbols = read_input(record.problem)
    if symbols is None:
        return Replay(answer_correct=None, answer_error=AnswerError(
            "undecided", "no bracket sequence in problem.input, so nothing can be replayed"))
    r = _Replay(symbols)
    answers: list[list[str]] = []
    for step in parsed.graph:
        units = units_of(step.text)
        first, span = units[0] if units else ("", (0, 0))
        used: list[tuple[int, int]] = []
        m = _SYMBOL_STEP.match(first)
        if m:
            _symbol_step(r, step.index, m.group("sym"), _stack_claim(m.group("stack")))
            r.states.setdefault(step.index, {})["claims"] = [list(span)]
            continue
        m = _STACK_ONLY.match(first)
        if m and not any(_FINAL.search(said) for said, _ in units):
            claim = _stack_claim(m.group("stack"))
            if claim is not None:
                r.judge(step.index, claim == r.true_stack, claim == r.claimed, "wrong_stack",
                        f"before any symbol the stack is {_show(r.true_stack)}, not {_show(claim)}"
                        if r.pos == 0 else f"the stack is {_show(r.true_stack)} here, not {_show(claim)}",
                        _show(r.true_stack), _show(claim))
                r.claimed = claim
                r.states.setdefault(step.index, {})["claims"] = [list(span)]
                continue
        if _final_claims(r, step.index, units, answers, used):
            r.states.setdefault(step.index, {})["claims"] = [list(u) for u in dict.fromkeys(used)]
        else:
            r.verdicts.append(StepVerdict(step.index, "unchecked"))
    truth = symbols
    final_stack: list[str] = []
    for s in truth:
        nxt = push_pop(final_stack, s)
        if nxt is None:
            return Replay(step_verdicts=r.verdicts, states=r.states, answer_correct=None, answer_error=AnswerError(
                "undecided", f"the input closes {s!r} that is not open, so it has no completion"))
        final_stack = nxt
    want = closing(final_stack)
    given = brackets(record.answer)
    ok = given == want
    error = None if ok else AnswerError(
        "wrong_value", f"the open brackets {_show(final_stack)} close with {_show(want)}; the answer gives "
        f"{_show(given) if given else 'no brackets'}", extra={"expected": " ".join(want)})
    return Replay(step_verdicts=r.verdicts, answer_correct=ok, answer_error=error, states=r.states,
                  notes={"closing": " ".join(want)})


DOMAIN = DomainSpec(
    name="dyck_languages", version=VERSION,
    description="BIG-Bench Dyck languages: every stack claim, the final stack, pops and closing brackets "
                "against the stack replayed from the input; the answer against the closing sequence.",
    replay=replay, recognise=recognise,
)
