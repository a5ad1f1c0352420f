"""Free-form thinking text -> steps with a kind, and backtrack links (shared by the `think` and
`metacot` formats and by the thinking part of LLM-Modulo rounds).

Segmentation (every character of a step is its own [start, end) slice of the trace):
1. Paragraphs: blank-line separated (trace_parsers/plain_text.py::paragraph_spans).
2. A numbered list item ("3. ...", "3) ...", "(3) ...", "Step 3: ...", "**Step 3:**") starts a step
   of its own; the lines under it, up to the next numbered item, belong to it. Bullet lines stay
   with their paragraph (a bulleted state listing is one step, not twenty).
3. Inside a chunk, a sentence that opens with a backtrack or check cue ("Wait, ...",
   "Alternatively, ...", "Let me check ...") starts a new step, so "X. Wait, but Y." is two steps.
4. A chunk of three words or fewer that is not a list item ("Hmm.", "No.", "Wait.") is merged
   into the chunk after it, which it introduces (unless that chunk is a numbered item).

Kinds (KIND_RULES, first rule that matches the step's opening words wins; the rule's name is
kept in `payload["kind_rule"]` so every assignment can be explained):

| kind | when |
|---|---|
| answer | opens with "Final answer", "Answer:", "**Answer**", "[PLAN]", "\\boxed" |
| backtrack | opens with "Wait", "Hmm", "Hold on", "Alternatively", "Actually", "No,", "Oops", "Another approach", "Let me reconsider / start over / try again" |
| check | opens with "Let me check / verify / double-check / confirm / make sure / retrace", "Check:", "Verify", "Verification", "To confirm" |
| plan | a numbered list item or "Step N", or a lead-in such as "Plan:", "Steps:", "Let's try:" |
| conclude | opens with "So the plan / answer / steps ...", "Therefore", "Thus", "Hence", "In conclusion", "Yes, that/this ...", "That should work", "Putting it together" |
| restate | opens with "The goal / initial state / problem / question ...", "Initial conditions", "We are given", or, before the first plan, check or backtrack step, "Okay", "Let me understand / figure out / recall", "I need to" |
| compute | holds an arithmetic claim (`a op b = c`), or opens with "Now the state", "State:", "After step N", "After that", "Current state" |
| reason | anything else |

Backtrack links (edge kind "backtrack", from the backtrack step to the step it revises):
* "step N" / "item N" named in the backtrack step -> the latest numbered item N before it;
* "Alternatively" / "Another approach" / "start over" / "different approach" -> the step that
  opened the current attempt (the latest list item numbered 1, or the lead-in just before it);
* otherwise -> the nearest earlier step that is not itself a backtrack.

Verification claims found in a step ("this works", "the goal is achieved", "that doesn't work")
are listed in `payload["claims"]` with their polarity and span; replay decides what they refer to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from textscan.gates import Gated, lowered
from core.steps import Step, StepGraph
from trace_parsers.plain_text import paragraph_spans

_ITEM = re.compile(
    r"^[ \t]*(?:[*_#>]+[ \t]*)?(?:(?:step|move|action)[ \t]*(?P<snum>\d{1,3})\b[ \t]*[*_]*[ \t]*[:.)\-]?"
    r"|(?P<num>\d{1,3})[ \t]*[.)](?=[ \t]+\S)|\((?P<pnum>\d{1,3})\)(?=[ \t]+\S))", re.I | re.M)

_BACKTRACK = (r"(?:but[ \t]+)?wait\b|hmm+\b|hold on\b|alternatively\b|actually\b|no[,.!]|nope\b|oops\b"
              r"|oh[,!]?[ \t]+(?:no|wait)\b|on second thought\b|another[ \t]+(?:approach|idea|way|option|possibility)\b"
              r"|alternative[ \t]+(?:approach|idea|plan|way)\b|let me (?:reconsider|rethink|re-?think|start over"
              r"|try again|try (?:a )?different|backtrack|re-?examine|re-?evaluate)\b"
              r"|that(?:'s| is) (?:not right|wrong|incorrect)\b|this (?:is|seems) (?:not working|going in circles)\b")
_CHECK = (r"let me (?:check|verify|double[- ]?check|re-?check|re-?verify|confirm|make sure|retrace|test|simulate"
          r"|walk through|go through)\b|let's (?:check|verify|double[- ]?check|confirm|retrace|make sure)\b"
          r"|check(?:ing)?\b|verify(?:ing)?\b|verification\b|double[- ]?check(?:ing)?\b|to (?:check|verify|confirm)\b")
# A cue sentence starts after a sentence end and spaces, or after a line break. Led by the one
# character class so `re` scans for it instead of trying the cues at every position; a cut is
# the match's end, the same as for "(?<=[.!?])[ \t]+|\n[ \t]*" as the cue cannot start with a space.
# _CUE_FIRSTS: the characters a cue can start with, asked before the cues' alternation is tried.
_CUE_FIRSTS = "*_abcdhlnotvw"
_CUE_SPLIT = re.compile(rf"[.!?\n](?:(?<=\n)|(?=[ \t]))[ \t]*(?=[{_CUE_FIRSTS}])(?=(?:[*_]+)?(?:{_BACKTRACK}|{_CHECK}))",
                        re.I)

KIND_RULES: list[tuple[str, str, re.Pattern[str]]] = [
    ("answer", "final answer", re.compile(
        r"(?:final answer|answer\s*:|\[\s*plan\s*\]|the final answer is|\\boxed|</think>)", re.I)),
    ("backtrack", "backtrack cue", re.compile(_BACKTRACK, re.I)),
    ("check", "check cue", re.compile(_CHECK, re.I)),
    ("plan", "plan lead-in", re.compile(
        r"(?:(?:the |a |possible |candidate |proposed |new )?plan\s*:|steps\s*:|let's try\s*:|try\s*:|sequence\s*:"
        r"|moves\s*:)", re.I)),
    ("conclude", "conclusion cue", re.compile(
        r"(?:so,?[ \t]+(?:the[ \t]+)?(?:final[ \t]+)?(?:plan|answer|solution|sequence|steps|result|moves)\b"
        r"|therefore\b|thus\b|hence\b|in (?:conclusion|summary)\b|putting (?:it|this|everything) (?:all )?together\b"
        r"|yes,?[ \t]+(?:that|this|it)\b|that (?:should|would|will) (?:work|do it)\b"
        r"|this (?:should|would|will) (?:work|achieve|do it)\b|the final (?:plan|answer|sequence|solution)\b)", re.I)),
    ("restate", "restates the problem", re.compile(
        r"(?:the (?:goal|initial|problem|question|task|target|numbers|objective)\b|initial (?:state|conditions?)\b"
        r"|(?:we are|i am|i'm) given\b|given (?:the )?(?:initial|problem|numbers|question|conditions|goal)\b|our goal\b"
        r"|my goal\b)", re.I)),
]
_OPENING_RESTATE = re.compile(
    r"(?:okay|ok|alright|all right|so,? (?:i|we) (?:need|have)|let me (?:try to )?(?:understand|figure|see|start|recall"
    r"|read|parse|restate|think)|i need to|we need to|first,? (?:let me|i need to|i'll))\b", re.I)
_COMPUTE_OPENING = re.compile(
    r"(?:now,?[ \t]+(?:the[ \t]+)?state\b|state\s*:|now\s*:|after (?:step|that|this|doing)\b|current state\b"
    r"|resulting (?:state|numbers)\b|now,? (?:we|i) have\b)", re.I)
ARITH_HINT = re.compile(r"\d[ \t]*[-+*/×÷−·x][ \t]*\(?[ \t]*\d[^=\n]{0,80}=[ \t]*-?\d")
_LEADING_MARKUP = r"[\s*_#>`]*+"

# Gated: searched in every backtrack step, which seldom names a step or a new attempt.
_STEP_REF = Gated(re.compile(r"\b(?:step|item)[ \t]*(\d{1,3})\b", re.I))
_NEW_ATTEMPT = Gated(re.compile(r"alternative|another (?:approach|idea|way|option|possibility)|start over|different approach"
                          r"|try (?:a )?different|new approach|re-?think", re.I))

# _PASS and _FAIL are searched clause by clause: gated (textscan/gates.py), as most clauses hold none of their words.
_PASS = Gated(re.compile(
    r"\b(?:(?:this|that|it|the plan|the sequence|the solution|these steps|this plan|this sequence"
    r"|(?:this|that|the)[ \t]+(?:order|ordering|list|approach|(?:sequence|set|series|list)[ \t]+of[ \t]+(?:actions|moves|steps))"
    r"|(?:another|the[ \t]+other|either)[ \t]+(?:order|ordering|sequence|plan|way))"
    r"[ \t]+(?:should[ \t]+|would[ \t]+|will[ \t]+|seems[ \t]+to[ \t]+|does[ \t]+|indeed[ \t]+)?"
    r"(?:works?|achieves?[ \t]+the[ \t]+goal|satisf(?:y|ies)[ \t]+the[ \t]+goal|reach(?:es)?[ \t]+the[ \t]+(?:goal|target)"
    r"|solves?[ \t]+(?:it|the[ \t]+problem|the[ \t]+puzzle)|(?:does|do)[ \t]+the[ \t]+(?:job|trick)|gets[ \t]+the[ \t]+job[ \t]+done"
    r"|(?<=should[ \t])do[ \t]+it|(?<=would[ \t])do[ \t]+it|(?<=will[ \t])do[ \t]+it"
    r"|completes?[ \t]+the[ \t]+goal|(?:achieves?|satisf(?:y|ies)|meets?)[ \t]+(?:both|all)[ \t]+(?:the[ \t]+)?goals"
    r"|(?:gets|leads)[ \t]+(?:us[ \t]+)?to[ \t]+the[ \t]+goal)"
    r"|(?:plan|sequence|solution|ordering)[ \t]+(?:is|seems|looks)[ \t]+(?:correct|valid|right|fine|good|sound)"
    r"|(?:plan|sequence|solution)[ \t]+checks[ \t]+out"
    r"|(?:that's|that[ \t]+is|this[ \t]+is)[ \t]+a[ \t]+(?:valid|working|correct)[ \t]+(?:plan|sequence|solution)"
    r"|(?:the[ \t]+)?goal[ \t]+is[ \t]+(?:now[ \t]+)?(?:achieved|met|reached|satisfied|in[ \t]+place|complete)"
    r"|(?:the[ \t]+)?goal[ \t]+(?:now[ \t]+)?holds"
    r"|(?:both|all)[ \t]+(?:parts|halves|conditions|components)[ \t]+of[ \t]+the[ \t]+goal[ \t]+(?:are[ \t]+)?(?:now[ \t]+)?"
    r"(?:met|satisfied|achieved|in[ \t]+place|true|done)"
    r"|(?:that's|that[ \t]+is|this[ \t]+is)[ \t]+(?:correct|the[ \t]+correct[ \t]+(?:sequence|plan|answer|solution))"
    r"|(?:that's|that[ \t]+is|this[ \t]+is)[ \t]+the[ \t]+(?:solution|right[ \t]+(?:plan|sequence|answer|solution))"
    r"|(?:everything|it[ \t]+all|all|this|that|it)[ \t]+checks[ \t]+out"
    r"|(?:these|those|the)[ \t]+(?:\w+[ \t]+)?(?:steps|actions|moves)[ \t]+(?:are|should[ \t]+be|would[ \t]+be)[ \t]+enough"
    r"|(?:this|that|it)[ \t]+(?:gives|yields)[ \t]+(?:us[ \t]+)?the[ \t]+goal)\b",
    re.I))
_FAIL = Gated(re.compile(
    r"\b(?:(?:this|that|it|the plan|the sequence|this plan)[ \t]+(?:doesn't|does[ \t]+not|won't|will[ \t]+not"
    r"|wouldn't|would[ \t]+not)[ \t]+(?:work|(?:achieve|reach|satisfy|meet)[ \t]+the[ \t]+goal)"
    r"|(?:this|that|it|the plan|the sequence|this plan|this sequence)[ \t]+(?:fails|(?:would|will)[ \t]+fail)"
    r"|(?:plan|sequence|solution)[ \t]+(?:is|was)[ \t]+(?:invalid|wrong|incorrect)"
    r"|(?:that's|that[ \t]+is|this[ \t]+is)[ \t]+(?:invalid|wrong|incorrect))\b", re.I))
_NEGATED = re.compile(r"\b(?:not|n't|never)\b", re.I)
_NOT = re.compile(r"\b(?:not|n't)\b", re.I)
_HEDGE = re.compile(r"\b(?:if|whether|check|verify|see|make sure|maybe|might|perhaps|so far|not sure|unless|until)\b"
                    r"|\?", re.I)
_CLAUSE = re.compile(r"[^.;!?\n]+[.;!?]?")
# Nothing but words: its gate (the words, found by `in` in the lower-cased step) is its answer.
_CLAIM_HINT = Gated(re.compile(r"work|goal|correct|valid|right|solve|solution|reach|wrong|job|trick|good|fine|sound|checks|do|fail"
                               r"|enough", re.I))

NUMBER_WORDS = 3


@dataclass
class Segment:
    start: int
    end: int
    item: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)


def _item_number(line: str) -> int | None:
    m = _ITEM.match(line)
    if not m:
        return None
    return int(m.group("snum") or m.group("num") or m.group("pnum"))


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _split_items(text: str, start: int, end: int) -> list[tuple[int, int, int | None]]:
    """Split a paragraph at the lines that open a numbered item."""
    cuts: list[tuple[int, int | None]] = []
    pos = start
    for line in text[start:end].splitlines(keepends=True):
        number = _item_number(line)
        if number is not None or not cuts:
            cuts.append((pos, number))
        pos += len(line)
    out = []
    for i, (cut, number) in enumerate(cuts):
        stop = cuts[i + 1][0] if i + 1 < len(cuts) else end
        a, b = _trim(text, cut, stop)
        if a < b:
            out.append((a, b, number))
    return out


# Line breaks of str.splitlines other than "\n": a text without any is split into lines at "\n" alone.
_OTHER_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# _ITEM matched at a line start inside the text: it never reads past the line's "\n", so it
# answers as on the line cut out (the "^" is dropped as a paragraph may start after spaces).
_ITEM_AT = re.compile(_ITEM.pattern.removeprefix("^"), re.I)


def _number(m: re.Match[str] | None) -> int | None:
    return None if m is None else int(m.group("snum") or m.group("num") or m.group("pnum"))


def _split_items_nl(text: str, start: int, end: int) -> list[tuple[int, int, int | None]]:
    """`_split_items` for a text whose lines end at "\n" only (no _OTHER_BREAKS), without cutting
    the paragraph into lines: most paragraphs are one line."""
    first = _number(_ITEM_AT.match(text, start, end))
    nl = text.find("\n", start, end)
    if nl < 0:  # a paragraph starts and ends with a non-space: nothing to trim
        return [(start, end, first)]
    cuts: list[tuple[int, int | None]] = [(start, first)]
    while nl >= 0:
        m = _ITEM_AT.match(text, nl + 1, end)
        if m is not None:
            cuts.append((nl + 1, _number(m)))
        nl = text.find("\n", nl + 1, end)
    out = []
    for i, (cut, number) in enumerate(cuts):
        a, b = _trim(text, cut, cuts[i + 1][0] if i + 1 < len(cuts) else end)
        if a < b:
            out.append((a, b, number))
    return out


# A chunk of more than NUMBER_WORDS words: str.split and re's \s both split at str.isspace.
_MORE_WORDS = re.compile(r"\s*+(?:\S++\s++){%d}\S" % NUMBER_WORDS)


def segment(text: str, base: int = 0, limit: int | None = None) -> list[Segment]:
    """Segments of text[base:limit] (offsets are into `text`)."""
    stop = len(text) if limit is None else limit
    window = text[base:stop]
    split_items = _split_items if _OTHER_BREAKS.search(window) else _split_items_nl
    cue = _CUE_SPLIT.search
    raw: list[tuple[int, int, int | None]] = []
    for p_start, p_end in paragraph_spans(window):
        for a, b, number in split_items(text, base + p_start, base + p_end):
            # cut after each cue; a chunk comes trimmed, and most have no cue
            m = cue(text, a, b)
            while m is not None:
                cut = m.end()
                c, d = _trim(text, a, cut)
                if c < d:
                    raw.append((c, d, number))
                    number = None
                a = cut
                m = cue(text, cut, b)
            c, d = _trim(text, a, b)
            if c < d:
                raw.append((c, d, number))
    merged: list[Segment] = []
    more_words = _MORE_WORDS.match
    carry: int | None = None  # the start of a short chunk that the next one takes in
    last = len(raw) - 1
    for k, (a, b, number) in enumerate(raw):
        if carry is not None:
            if number is None:
                a = carry
            else:
                merged.append(Segment(carry, raw[k - 1][1]))
            carry = None
        if number is None and k != last and more_words(text, a, b) is None:
            carry = a
            continue
        merged.append(Segment(a, b, number))
    return merged


def _has_claim_hint(text: str) -> bool:
    """`_CLAIM_HINT.search(text)`, without the pattern's slow case-insensitive scan where the
    lower-cased text stands for the text (textscan/gates.py: `lowered`)."""
    low = lowered(text)
    return _CLAIM_HINT.admits(low) if low is not None else _CLAIM_HINT.search(text) is not None


def claims(text: str, offset: int) -> list[dict[str, Any]]:
    """Verification claims in a step: clauses that say a candidate passes or fails, not hedged."""
    out: list[dict[str, Any]] = []
    if not _has_claim_hint(text):
        return out
    for m in _CLAUSE.finditer(text):
        clause = m.group(0)
        for polarity, pattern in (("pass", _PASS), ("fail", _FAIL)):
            hit = pattern.search(clause)
            if hit and not _HEDGE.search(clause) and not _NEGATED.search(clause[:hit.start()]):
                if polarity == "pass" and _NOT.search(hit.group(0)):
                    continue
                lead = len(clause) - len(clause.lstrip())  # the clause, not the space before it: a reader
                # placing the claim in its sentence starts there
                out.append({"polarity": polarity, "span": [offset + m.start() + lead, offset + m.start() + len(clause.rstrip())],
                            "text": clause.strip()})
                break
    return out


class _FirstRule:
    """Rules (kind, rule name, opening pattern) tried in order as one alternation: a match of
    `A|B|C` at a position is A's if A matches there, else B's, ..., so one `match` call gives
    the first rule that matches (its group number says which). The leading white space and
    markup a step's opening words are read after is taken by the same call, possessively (all
    of it, as no rule starts with such a character)."""

    def __init__(self, rules: list[tuple[str, str, re.Pattern[str]]]) -> None:
        if any(pattern.groups or pattern.flags != re.I | re.U for _, _, pattern in rules):
            raise ValueError("rules must be case-insensitive patterns without groups of their own")
        self.outcomes = [(kind, name) for kind, name, _ in rules]
        self.pattern = re.compile(_LEADING_MARKUP + "(?:" + "|".join(f"({pattern.pattern})" for _, _, pattern in rules)
                                  + ")", re.I)

    def first(self, text: str, end: int) -> tuple[str, str] | None:
        """The first rule opening text[:end] after its leading markup."""
        m = self.pattern.match(text, 0, end)
        return self.outcomes[m.lastindex - 1] if m else None


_CUED = [(kind, f"opens with a {name}", pattern) for kind, name, pattern in KIND_RULES]
_COMPUTE_RULE = ("compute", "opens with a state update", _COMPUTE_OPENING)
_ITEM_OPENINGS = _FirstRule([(kind, f"numbered item opening with a {name}", pattern)
                             for kind, name, pattern in KIND_RULES[1:3]])
_OPENINGS = _FirstRule([*_CUED, _COMPUTE_RULE])
_FIRST_OPENINGS = _FirstRule([*_CUED, ("restate", "opening words before any plan", _OPENING_RESTATE), _COMPUTE_RULE])


def classify(text: str, item: int | None, seen_work: bool) -> tuple[str, str]:
    """(kind, rule name) for one step; see the table in the module docstring."""
    if item is not None:
        body = _ITEM.sub("", text[:200], count=1).strip()
        return _ITEM_OPENINGS.first(body, len(body)) or ("plan", "numbered list item")
    found = (_OPENINGS if seen_work else _FIRST_OPENINGS).first(text, 200)
    if found is not None:
        return found
    if "=" in text and ARITH_HINT.search(text):  # every match holds an "="
        return "compute", "holds an arithmetic claim"
    return "reason", "no cue"


@dataclass
class _Earlier:
    """The steps `backtrack_target` looks for, kept up to date as steps are added: scanning
    back from every backtrack step cost as much as the rest of build_steps on long traces."""

    item_at: dict[int, int] = field(default_factory=dict)  # item number -> latest step with it
    last_work: int | None = None  # latest step that is not a backtrack step

    def add(self, step: Step) -> None:
        item = step.payload.get("item")
        if item is not None:
            self.item_at[item] = step.index
        if step.kind != "backtrack":
            self.last_work = step.index


def backtrack_target(graph: StepGraph, text: str, earlier: _Earlier) -> int | None:
    """The step a backtrack step revises (rules in the module docstring), among the steps
    `earlier` has seen."""
    if not earlier.item_at:  # the first two rules name an earlier item
        return earlier.last_work
    ref = _STEP_REF.search(text)
    if ref and (j := earlier.item_at.get(int(ref.group(1)))) is not None:
        return j
    if _NEW_ATTEMPT.search(text[:160]) and (j := earlier.item_at.get(1)) is not None:
        if j > 0 and graph[j - 1].kind in ("plan", "conclude") and graph[j - 1].payload.get("item") is None:
            return j - 1
        return j
    return earlier.last_work


def build_steps(graph: StepGraph, text: str, segments: list[Segment], parent: int | None,
                edge: str = "next", extra: dict[str, Any] | None = None) -> list[int]:
    """Add `segments` to `graph` as a chain under `parent`; returns the new step indices."""
    added: list[int] = []
    seen_work = any(s.kind in ("plan", "check", "backtrack") for s in graph.steps)
    earlier = _Earlier()
    for step in graph.steps:
        earlier.add(step)
    prev = parent
    for seg in segments:
        start, end, item = seg.start, seg.end, seg.item
        body = text[start:end]
        kind, rule = classify(body, item, seen_work)
        if not seen_work:
            seen_work = kind in ("plan", "check", "backtrack")
        payload: dict[str, Any] = {"kind_rule": rule}
        if extra:
            payload.update(extra)
        if seg.payload:
            payload.update(seg.payload)
        if item is not None:
            payload["item"] = item
        found = claims(body, start)
        if found:
            payload["claims"] = found
        idx = len(graph)
        step = graph.add(Step(idx, kind, (start, end), body, payload, prev),
                         edge_kind=edge if prev == parent else "next")
        if kind == "backtrack":
            target = backtrack_target(graph, body, earlier)
            if target is not None:
                graph.link(idx, target, "backtrack")
                payload["revises"] = target
        earlier.add(step)
        added.append(idx)
        prev = idx
    return added


_WORD = re.compile(r"[A-Za-z']+")
_FUNCTION_WORDS = frozenset(
    "the a an to is of and i we that it so but wait let me my this then if not be can need have what "
    "would should now first next because since which there are was do does so".split())


def looks_like_prose(text: str, sample: int = 20_000) -> bool:
    """Sentences in a natural language, not a token stream or a log: enough words, and enough of
    them function words (A* tokens, SoS logs and PDDL lines have almost none)."""
    words = _WORD.findall(text[:sample].lower())
    if len(words) < 12:
        return False
    function = sum(1 for w in words if w in _FUNCTION_WORDS)
    return function >= 0.15 * len(words) and bool(re.search(r"[a-z]{3,}[ \t]+[a-z]{2,}[ \t]+[a-z]{2,}", text[:sample]))
