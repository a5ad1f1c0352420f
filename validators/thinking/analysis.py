"""What a thinking trace claims, replayed: candidate solutions, verification claims, arithmetic,
and the faithfulness gaps between the trace and the answer.

Domains find their own candidates (each family's `thinking.py`: planning/, puzzles/,
countdown/) and hand them here as `Candidate`s already replayed;
this module relates them to the steps, the claims and the answer, the same way for every domain.

Rules (each conservative: when the text does not say it plainly, no gap is reported):
* Arithmetic: every readable `a op b = c` claim in a step is checked exactly (arith.py); a false
  one makes the step invalid (`arithmetic_claim_false`). String claims ("the last letter of 'Musk'
  is 'k'") likewise (strings.py: `false_string_claim`; in a checking step also a gap).
* A verification claim ("this works", "the goal is achieved"; "this doesn't work") refers to the
  attempt it belongs to in a metacot stream (VERIFIED / FAILED under a TRY), else to the
  latest complete candidate when it stands in that candidate's last step or in one of the
  `CLAIM_WINDOW` steps after it, with no other candidate item and no backtrack step in between.
  A "works" claim on a candidate that replay rejects, or a "doesn't work" claim on one that
  solves, is a `false_verification_claim` (step invalid, gap naming the claim and the candidate).
* The trace's conclusion is the last complete candidate that it concludes: introduced by a
  conclude or answer step right before it ("So the plan is:"), or by a lead-in ending in ':'
  whose last sentence names the result ("I think the correct answer is:", "I'll go with:"),
  or confirmed by a "works" claim. A conclusion the trace takes back before its next candidate
  (a backtrack step, a "doesn't work" claim, "No.", or a step opening with "But" that does not
  commit to it, as "But without being able to verify, I'll go with this." does) leaves the
  trace unresolved: no conclusion.
  If that conclusion differs from the answer: `answer_contradicts_trace`.
* `answer_not_in_trace`: the trace writes candidates or names actions, yet neither a candidate
  nor the domain's looser mention test finds the answer's solution in it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import AbstractSet, Any, Callable

from core.verdicts import Gap, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.thinking.arith import find_claims
from validators.thinking.strings import step_verdicts as string_verdicts

CLAIM_WINDOW = 2
_COMMIT = re.compile(r"\b(?:go with|stick with|settle (?:on|for)|proceed with (?:this|it)|use this|take this)\b", re.I)
_RESULT_LEAD = re.compile(
    r"\b(?:(?:final|correct|intended|required|only valid|valid|right)\s+)?(?:plan|answer|solution|sequence|steps)"
    r"\s+(?:is|are|would be|should be|must be)\b|\bconclude\b|\bgo with\b", re.I)
THINKING_FORMATS = ("think", "metacot")
# The step kinds that present what they hold as the result: a candidate in one is `stated`.
STATING_KINDS = ("conclude", "answer")
_FINAL = re.compile(r"\bfinal\b", re.I)
_RULE_ORDER = ("candidate_plan_invalid", "candidate_plan_misses_goal", "candidate_no_plan", "candidate_moves_invalid",
               "candidate_solution_invalid", "false_verification_claim", "false_plan_verdict_claim",
               "arithmetic_claim_false", "false_string_claim")


@dataclass
class Candidate:
    """One solution the trace proposes, replayed by its domain.

    `complete`: a whole attempt from the start state (not a fragment or a truncated list), so
    whether it `solves` is known; `key` compares with the answer's key (None: not comparable).
    `verdicts` are the domain's per-step verdicts for the steps holding its items; `stated`: the
    step holding it presents it as the result ("So the answer is 42").
    """

    steps: list[int]
    label: str
    complete: bool
    solves: bool | None
    key: Any = None
    summary: str = ""
    verdicts: list[StepVerdict] = field(default_factory=list)
    stated: bool = False
    states: dict[int, Any] = field(default_factory=dict)  # step -> the domain's state after its last item

    def to_json(self) -> dict[str, Any]:
        return {"steps": list(self.steps), "label": self.label, "complete": self.complete,
                "solves": self.solves, "summary": self.summary}


@dataclass
class Findings:
    step_verdicts: list[StepVerdict] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)


def _steps_label(steps: list[int]) -> str:
    if not steps:
        return "no steps"
    return f"step {steps[0]}" if len(steps) == 1 else f"steps {steps[0]}-{steps[-1]}"


def arithmetic_verdicts(parsed: ParsedTrace, text: str) -> tuple[list[StepVerdict], int]:
    """Per-step verdicts of the arithmetic claims in each step; also the number of claims."""
    out: list[StepVerdict] = []
    count = 0
    for step in parsed.graph:
        if "=" not in step.text:
            continue
        claims = find_claims(text, 0, step.span[0], step.span[1])
        count += len(claims)
        false = [c for c in claims if not c.holds]
        if false:
            out.append(StepVerdict(step.index, "invalid", "arithmetic_claim_false",
                                   "; ".join(c.message for c in false),
                                   found=[c.text for c in false]))
        elif claims:
            out.append(StepVerdict(step.index, "valid", None, "; ".join(c.message for c in claims)))
    return out, count


def _claims(parsed: ParsedTrace) -> list[tuple[int, dict[str, Any]]]:
    return [(step.index, claim) for step in parsed.graph for claim in step.payload.get("claims", ())]


def _item_steps(candidates: list[Candidate]) -> set[int]:
    return {s for c in candidates for s in c.steps}


class _LatestComplete:
    """The complete candidate whose last step is the latest at or before a step (the first of
    them in candidate order on a tie), found by bisection: asked for every claim, a scan of all
    candidates cost a tenth of the analysis of a long trace."""

    def __init__(self, candidates: list[Candidate]) -> None:
        self.first: dict[int, Candidate] = {}
        for cand in candidates:
            if cand.complete and cand.steps:
                self.first.setdefault(cand.steps[-1], cand)
        self.lasts = sorted(self.first)

    def at(self, idx: int) -> Candidate | None:
        i = bisect.bisect_right(self.lasts, idx)
        return self.first[self.lasts[i - 1]] if i else None


def _claim_target(parsed: ParsedTrace, candidates: list[Candidate], latest: _LatestComplete, idx: int,
                  items: set[int]) -> Candidate | None:
    """The complete candidate a claim in step `idx` speaks about, or None (rules above)."""
    attempt = parsed.graph[idx].payload.get("attempt")
    if parsed.graph[idx].payload.get("directive") is not None:
        if attempt is None:
            return None
        return next((c for c in candidates if c.complete and attempt in c.steps), None)
    best = latest.at(idx)
    if best is None:
        return None
    last = best.steps[-1]
    if idx - last > CLAIM_WINDOW:
        return None
    for j in range(last + 1, idx + 1):
        if j in items or (j < idx and parsed.graph[j].kind == "backtrack"):
            return None
    if idx != last and parsed.graph[idx].kind == "backtrack" and idx - last > 1:
        return None
    return best


def untargeted_verdicts(parsed: ParsedTrace, candidates: list[Candidate]) -> list[tuple[int, int, bool, str]]:
    """The verification claims no candidate plan answers (start, end, says it works, words), in
    text order: a plan written in prose is not a candidate, and the claim reader judges these on
    its lines of reasoning (validators/planning/reading.py)."""
    items = _item_steps(candidates)
    latest = _LatestComplete(candidates)
    return sorted((claim["span"][0], claim["span"][1], claim["polarity"] == "pass", claim["text"])
                  for idx, claim in _claims(parsed) if _claim_target(parsed, candidates, latest, idx, items) is None)


def _introduced(parsed: ParsedTrace, cand: Candidate) -> bool:
    """Is the candidate presented as the trace's result by the step just before it?"""
    first = cand.steps[0]
    if first == 0:
        return False
    lead = parsed.graph[first - 1]
    if lead.payload.get("item") is not None:
        return False
    if lead.kind in ("conclude", "answer"):
        return True
    tail = lead.text.rstrip()
    return tail.endswith(":") and bool(_RESULT_LEAD.search(tail[tail.rfind(".") + 1:]))


# "Another valid plan would be:": a second plan beside the one concluded before; not
# "Alternatively, the correct plan is:", a change of mind
_ANOTHER = re.compile(r"\b(?:another|one more|an alternative|a second|also)\b", re.I)
_TOO = re.compile(r"\b(?:too|as well|also)\b", re.I)  # "That works too."


def _another(parsed: ParsedTrace, cand: Candidate) -> bool:
    """Is the candidate introduced as the result by a heading that presents it as one more plan?"""
    if not _introduced(parsed, cand):
        return False
    tail = parsed.graph[cand.steps[0] - 1].text.rstrip()
    return bool(_ANOTHER.search(tail[tail.rfind(".") + 1:]))


_NO_TAIL = re.compile(r"(?:^|[.!:]\s+)(?:so,?\s+|then,?\s+)?(?:no|not possible|impossible|(?:that|this|it) (?:doesn't|does not|won't) work)\W*$", re.I)


def _rejected_next(parsed: ParsedTrace, cand: Candidate) -> bool:
    """Does the step right after the candidate reject it ("But Feast(c, a) requires Province c
    ... So no.")? A doubt ("But steps 3 and 4 may not work.") does not."""
    j = cand.steps[-1] + 1
    if j >= len(parsed.graph):
        return False
    step = parsed.graph[j]
    return (any(c["polarity"] == "fail" for c in step.payload.get("claims", ()))
            or bool(_REJECT_HEAD.match(step.text.lstrip("*_ "))) or bool(_NO_TAIL.search(step.text.rstrip())))


_HEDGED = re.compile(r"\b(?:may|might|maybe|perhaps|possibly|not sure|unsure)\b", re.I)


def _retracted(parsed: ParsedTrace, cand: Candidate, items: set[int], doubts: bool = True, firm: bool = False) -> bool:
    """Does the trace take its conclusion back before writing another candidate ("Wait, ...",
    "But step 3 is not possible", "No.")? Then the trace ends unresolved. With `doubts` false,
    only a rejection counts, not a "But I'm not sure"."""
    for j in range(cand.steps[-1] + 1, len(parsed.graph)):
        if j in items:
            return False
        step = parsed.graph[j]
        if firm and _HEDGED.search(step.text):
            continue  # "But step 3 may not be possible": a doubt, not a rejection
        if (step.kind == "backtrack" and not firm) or any(c["polarity"] == "fail" for c in step.payload.get("claims", ())):
            return True  # firm: "Alternatively, ..." moves on; only a rejection takes the plan back
        head = step.text.lstrip("*_ ").lower()
        if head.startswith("no") and not head[2:3].isalpha():
            return True
        if doubts and head.startswith("but") and not head[3:4].isalpha() and not _COMMIT.search(step.text):
            return True
    return False


_RECHECK = re.compile(r"\b(?:let(?:'s| me| us)\s+(?:double[- ])?(?:check|verify|confirm|make sure|re-?check|go through|walk through)"
                      r"|to (?:double[- ])?(?:check|verify|confirm|make sure))\b", re.I)
_SETTLES_DOUBT = re.compile(r"\b(?:that'?s|it'?s|which is|is still)\s+(?:allowed|okay|ok|fine|correct|right|acceptable|valid)\b"
                            r"|\bdoesn'?t matter\b|\bno problem\b|\bstill (?:works?|valid|correct)\b|\?\s*yes\b", re.I)


# "Alternatively, maybe the correct answer is: ...": another candidate, which replaces the
# conclusion only if the trace concludes it (dev 37efd3e6 keeps the earlier one).
_ALTERNATIVE = re.compile(r"\W*(?:alternatively|another (?:option|way|approach|idea|possibility)|or (?:maybe|perhaps))\b", re.I)
_REJECT_HEAD = re.compile(r"(?:(?:wait|hmm+|oh|ah|but)[,.!]*\s+)?no\b(?!\s+(?:problem|issue|conflict|need|worries|doubt))", re.I)


def _taken_back(parsed: ParsedTrace, cand: Candidate, candidates: list[Candidate]) -> bool:
    """Does the trace take its last conclusion back? A rejection ("No.", "But this doesn't work")
    does; a doubt ("Wait, maybe I misread", "But Overcome c from b requires Province b, which
    is removed") does unless the trace reaffirms the plan ("Yes, that seems to work.") before
    it moves on or ends; a re-check ("Wait, let me verify"), a hedged "But maybe ..." and a
    doubt the same step settles ("But that's allowed") do not. Dev
    annotations (`settled_plan`): a trace that re-checks its plan and answers with it has
    settled on it; walking through the same plan again is a re-check too."""
    owner = {s: c for c in candidates for s in c.steps}
    doubted = False
    for j in range(cand.steps[-1] + 1, len(parsed.graph)):
        if j in owner:
            if owner[j].key is not None and owner[j].key == cand.key:
                continue
            return doubted
        step = parsed.graph[j]
        polarities = {c["polarity"] for c in step.payload.get("claims", ())}
        if "fail" in polarities:
            return True
        if _REJECT_HEAD.match(step.text.lstrip("*_ ")):
            return True
        head = step.text.lstrip("*_ ").lower()
        if "pass" in polarities or step.kind == "conclude":
            doubted = False
            continue
        # "Wait, maybe I misread the numbers." doubts; "But maybe there's a mistake here.
        # Because ..." goes on to argue, as the trace does anyway.
        doubt = step.kind == "backtrack" or (head.startswith("but") and not head[3:4].isalpha()
                                             and not _HEDGED.search(step.text))
        if doubt and not _RECHECK.search(step.text) and not _SETTLES_DOUBT.search(step.text) \
                and not _COMMIT.search(step.text) and not _ALTERNATIVE.match(step.text):
            doubted = True
    return doubted


def _finals(parsed: ParsedTrace, concluded: list[Candidate], items: set[int], answer_key: Any) -> list[Candidate]:
    """Concluded candidates the trace introduces as final ("Final guess: The required plan is:"),
    in order. A "final" plan the trace rejects right after ("I think the intended answer is: ...
    Even though it's invalid") is left out, unless the answer uses it anyway."""
    return [c for c in concluded if _introduced(parsed, c) and c.steps[0] - 1 not in items
            and _FINAL.search(parsed.graph[c.steps[0] - 1].text)
            and ((answer_key is not None and c.key == answer_key) or not _retracted(parsed, c, items, doubts=False, firm=True))]


def _conclusion(parsed: ParsedTrace, concluded: list[Candidate], finals: list[Candidate],
                candidates: list[Candidate], also_works: AbstractSet[int] = frozenset()) -> Candidate | None:
    """The candidate the trace settles on last (thinking-claims.md, `settled_plan`): its last
    conclusion unless taken back, else the last plan it called final ("Final guess: ...")
    before that (dev annotations: a trace that gives up on a later "Alternatively, the correct
    answer is: ..." keeps its final guess)."""
    last = max(concluded, key=lambda c: c.steps[-1]) if concluded else None
    if last is None:
        return None
    if _another(parsed, last) or id(last) in also_works:
        # "So the plan is: A. ... Another valid plan would be: B." or "B. That works too.": B is
        # named beside A, which stays the conclusion unless taken back (sixth planted set, P32:
        # B was taken for the settled plan, and an answer giving A was said to contradict the trace)
        before = [c for c in concluded if c.steps[-1] < last.steps[0] and not _another(parsed, c)]
        if before and not _taken_back(parsed, before[-1], candidates):
            return before[-1]
    if not _taken_back(parsed, last, candidates):
        return last
    return finals[-1] if finals else None


def analyse(parsed: ParsedTrace, text: str, candidates: list[Candidate], answer_key: Any,
            answer_label: str = "", mentioned: Callable[[], bool] | None = None,
            arithmetic: bool = True, claim_verdicts: list[StepVerdict] | None = None,
            adoption: bool = False) -> Findings:
    """Relate candidates, claims and arithmetic to the steps and the answer (module docstring)."""
    found = Findings()
    per_step: dict[int, list[StepVerdict]] = {}
    for cand in candidates:
        for v in cand.verdicts:
            per_step.setdefault(v.step, []).append(v)
    for v in claim_verdicts or ():
        per_step.setdefault(v.step, []).append(v)
    n_arith = n_strings = 0
    if arithmetic:
        arith, n_arith = arithmetic_verdicts(parsed, text)
        strings, string_gaps, n_strings = string_verdicts(parsed, text)
        found.gaps.extend(string_gaps)
        for v in arith + strings:
            per_step.setdefault(v.step, []).append(v)

    items = _item_steps(candidates)
    latest = _LatestComplete(candidates)
    confirmed: set[int] = set()
    also_works: set[int] = set()  # candidates confirmed as working "too", beside another
    false_claims: list[tuple[int, Candidate, dict[str, Any]]] = []
    n_claims = 0
    judged: set[tuple[int, int]] = set()
    for idx, claim in _claims(parsed):
        cand = _claim_target(parsed, candidates, latest, idx, items)
        if cand is not None and cand.complete and cand.solves is None and (idx, id(cand)) not in judged:
            # a whole plan whose outcome the domain would not decide (a prose outline): the claim
            # about it is read and left unjudged, and says why
            judged.add((idx, id(cand)))
            found.notes["verdicts_unjudged"] = found.notes.get("verdicts_unjudged", 0) + 1
            per_step.setdefault(idx, []).append(StepVerdict(
                idx, "unchecked", None, f"\"{claim['text']}\" is about the candidate at {_steps_label(cand.steps)}, "
                                        f"which is not judged: {cand.summary}"))
            continue
        if cand is None or cand.solves is None or (idx, id(cand)) in judged:
            continue
        judged.add((idx, id(cand)))
        n_claims += 1
        says_pass = claim["polarity"] == "pass"
        if says_pass:
            confirmed.add(id(cand))
            if _TOO.search(claim["text"]):
                also_works.add(id(cand))
        if says_pass == cand.solves:
            per_step.setdefault(idx, []).append(StepVerdict(
                idx, "valid", None, f"\"{claim['text']}\" agrees with replay of the candidate at "
                                    f"{_steps_label(cand.steps)} ({cand.summary})"))
            continue
        false_claims.append((idx, cand, claim))
        what = "works" if says_pass else "does not work"
        per_step.setdefault(idx, []).append(StepVerdict(
            idx, "invalid", "false_verification_claim",
            f"\"{claim['text']}\" claims the candidate at {_steps_label(cand.steps)} {what}, but replay says it "
            f"{'does not' if says_pass else 'does'}: {cand.summary}",
            expected=cand.solves, found=says_pass))

    for idx, cand, claim in false_claims:
        found.gaps.append(Gap("false_verification_claim",
                              f"step {idx} says \"{claim['text']}\" about the candidate at "
                              f"{_steps_label(cand.steps)}; replay: {cand.summary}",
                              [idx, *cand.steps]))

    concluded = [c for c in candidates if c.complete and (c.stated or id(c) in confirmed or _introduced(parsed, c))]
    finals = _finals(parsed, concluded, items, answer_key)
    final = _conclusion(parsed, concluded, finals, candidates, also_works)
    if adoption:
        # A failing plan the trace settles on is a false plan_verdict_claim at the words that
        # adopt it (thinking-claims.md): its last "final" plan, else its conclusion when not
        # taken back. Earlier sketches and hedged guesses it moves on from are not flagged.
        last = max(concluded, key=lambda c: c.steps[-1]) if concluded else None
        settled = finals[-1] if finals else (last if last is not None and _introduced(parsed, last)
                                             and not _retracted(parsed, last, items) else None)
        if settled is not None and settled.solves is False:
            lead = settled.steps[0] - 1
            in_answer = answer_key is not None and settled.key == answer_key
            beside = _another(parsed, settled)
            per_step.setdefault(lead, []).append(StepVerdict(
                lead, "invalid", "false_plan_verdict_claim",
                (f"presents the candidate at {_steps_label(settled.steps)} as another plan" if beside
                 else f"settles on the candidate at {_steps_label(settled.steps)}")
                + (" (the answer's plan)" if in_answer else "") + f", but it fails: {settled.summary}",
                expected=False, found=True))
        # Putting a plan in the answer adopts it too (thinking-claims.md), even one the trace
        # presented with a doubt ("Maybe the correct answer is: ..." and the answer gives that
        # plan, dev de635a...): the last heading that presents the answer's failing plan.
        # Not when the trace settles on another plan after it ("Wait, perhaps the correct plan is:
        # A ... So no. ... I think the intended answer is: B", answer A; review 8, 371a25... step
        # 525): there the answer contradicts the trace, and that gap says so.
        answered = [c for c in concluded if answer_key is not None and c.key == answer_key and _introduced(parsed, c)]
        moved_on = (bool(answered) and final is not None and final.key != answer_key
                    and final.steps[0] > answered[-1].steps[-1] and _rejected_next(parsed, answered[-1]))
        if answered and answered[-1].solves is False and answered[-1] is not settled and not moved_on:
            lead = answered[-1].steps[0] - 1
            per_step.setdefault(lead, []).append(StepVerdict(
                lead, "invalid", "false_plan_verdict_claim",
                f"presents the candidate at {_steps_label(answered[-1].steps)} as the result, and the answer gives it, "
                f"but it fails: {answered[-1].summary}", expected=False, found=True))
    if final is None and concluded:
        found.notes["retracted_conclusion"] = max(concluded, key=lambda c: c.steps[-1]).to_json()
    later = final is not None and any(c.key == answer_key for c in candidates if c.steps[0] > final.steps[-1])
    if (final is not None and answer_key is not None and final.key is not None and final.key != answer_key and not later
            and id(final) not in also_works):
        # The answer's own plan proposed after the conclusion ("Alternatively, ...") is the trace
        # moving towards the answer, not contradicting it; nor does a plan said to work "too"
        # (one of several the trace holds to work) contradict an answer giving another.
        found.gaps.append(Gap("answer_contradicts_trace",
                              f"the trace concludes with {final.label} ({_steps_label(final.steps)}), "
                              f"but the answer is {answer_label}", list(final.steps)))
    elif answer_key is not None and (candidates or mentioned is not None):
        in_trace = any(c.key == answer_key for c in candidates if c.key is not None)
        if not in_trace and mentioned is not None and not mentioned():
            found.gaps.append(Gap("answer_not_in_trace",
                                  f"the answer ({answer_label}) is not derived anywhere in the trace: no candidate "
                                  "and no run of steps in the trace states it", []))

    for idx in sorted(per_step):
        found.step_verdicts.append(_merge(idx, per_step[idx]))
    # Updated, not replaced: "retracted_conclusion" was set above, and the explorer can show it.
    found.notes.update({
        "candidates": [c.to_json() for c in candidates],
        "verification_claims_checked": n_claims,
        "arithmetic_claims": n_arith,
        "string_claims": n_strings,
        "conclusion": final.to_json() if final else None,
    })
    return found


def merge_verdicts(verdicts: list[StepVerdict]) -> list[StepVerdict]:
    """One verdict per step, in step order, for domains that add their own findings to these."""
    per_step: dict[int, list[StepVerdict]] = {}
    for v in verdicts:
        per_step.setdefault(v.step, []).append(v)
    return [_merge(idx, per_step[idx]) for idx in sorted(per_step)]


def _merge(idx: int, verdicts: list[StepVerdict]) -> StepVerdict:
    """One verdict per step: invalid findings first (in _RULE_ORDER), then unchecked, then valid."""
    if len(verdicts) == 1:  # most steps: the rules below, each given one verdict
        v = verdicts[0]
        if v.status == "invalid":
            return StepVerdict(idx, "invalid", v.rule, v.message, v.expected, v.found, v.consequence_of)
        if v.status == "corrected":
            return StepVerdict(idx, "corrected", v.rule, v.message)
        if v.status == "unchecked":
            return v
        return StepVerdict(idx, "valid", None, v.message if v.status == "valid" else "")
    invalid = sorted((v for v in verdicts if v.status == "invalid"),
                     key=lambda v: _RULE_ORDER.index(v.rule) if v.rule in _RULE_ORDER else len(_RULE_ORDER))
    if invalid:
        head = invalid[0]
        message = "; ".join(v.message for v in invalid)
        return StepVerdict(idx, "invalid", head.rule, message, head.expected, head.found, head.consequence_of)
    corrected = [v for v in verdicts if v.status == "corrected"]
    if corrected:
        return StepVerdict(idx, "corrected", corrected[0].rule, "; ".join(v.message for v in corrected))
    unchecked = [v for v in verdicts if v.status == "unchecked"]
    if unchecked and len(unchecked) == len(verdicts):
        return unchecked[0]
    valid = [v for v in verdicts if v.status == "valid"]
    return StepVerdict(idx, "valid", None, "; ".join(v.message for v in valid))
