"""Candidate plans inside thinking text (formats `think`, `metacot`, `llm_modulo`), replayed with
the answer's own semantics (check.py::check_plan, VAL rules) -- `replay_thinking` is the one
function every planning domain calls (validators/planning/__init__.py::_replay).

Which lines form a candidate plan in R1-style thinking (each rule keeps doubtful text unjudged):
* a list item ("3. ...", "Step 3: ...", "- ...") whose first sentence reads as actions of the
  domain, every action resolved with the right number of objects (extract.py's line reader);
  the sentences after it count too while each is one plainly named action ("1. Unstack blue
  from orange. Put down blue." is two actions, thinking-claims.md), so "4. Stack orange on red.
  ... So step 4: stack ..." stays one action; an item ending in "?" is a question, not a proposal;
* consecutive numbers (1, 2, 3 ...) of the same list style form one candidate, unless the prose
  between two items performs an action itself ("So Attack c:"): the candidate is cut there, as
  the list no longer holds the whole sequence; a candidate
  must start at 1 to be replayed from the initial state, and one whose lead-in says it starts
  later ("from here", "after that", "next steps") is a fragment and is not judged;
* an item the trace itself rejects in the text that follows it ("can't", "not possible",
  "So no", ...) ends the candidate: it was abandoned, so it is checked action by action but has
  no "solves" verdict; the same holds when the next item cannot be read (truncated);
* a bullet list counts only when it is a run of two or more bullets at the left margin, every
  one an action, with only blank space between them;
* a line that is nothing but two or more actions ("Feast(b, c), Overcome(a, c), ..." or
  "Attack a → Succumb a"), or is that after a lead-in naming a plan ("So the plan is: unstack
  blue from red, put down blue, ...", "Another order would work too: ..."; not "From here, the
  steps are: ..."), is a whole candidate plan by itself;
* a candidate is a whole plan (its goal is judged, claims and the answer compare with it) only
  when it is written inline as above, or as one list: two or more items, one line each, with
  only blank space between them. "Step 1: ..." followed by prose, then "Step 2: ..." is a walk through actions
  that may continue in prose: each action is still checked for applicability, but whether it
  reaches the goal is not judged (a one-action plan is therefore never judged as a whole).

Every action of a candidate is applied from the initial state. In R1-style thinking (`think`) a
candidate is a proposal: its failing action is not an error by itself (thinking-claims.md);
what the trace asserts about it is judged claim by claim (reading.py: applicability, state
and effect claims on lines of reasoning; analysis.py: verification claims and the plan the trace
settles on). In metacot and LLM-Modulo rounds, where each attempt is put forward as a solution,
the first inapplicable action makes its step invalid (`candidate_plan_invalid`, with all unmet
preconditions, PlanBench wording; an action that cannot be read, as VAL rejects the plan before
running it) and later ones are unchecked consequences. metacot: each TRY's text is read like an
answer (extract_plan); llm_modulo: each round's answer part is a candidate, and a round's plan that
runs but leaves the goal unmet makes its round invalid (`candidate_plan_misses_goal`), as the
loop's verifier rejects it; so does a round with no plan (`candidate_no_plan`: VAL runs the empty
plan) unless the goal holds already or the round rightly says that no plan exists.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Iterator

from textscan.gates import AnyOf, foldable, required
from core.record import TraceRecord
from core.verdicts import Gap, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.base import Replay
from validators.planning.check import PlanCheck, check_plan
from validators.planning.reading import ClaimReader
from validators.planning.claims import ClaimReport, step_findings
from validators.planning.extract import Extraction, Lexicon, PlanStep, LineReader, extract_plan, shifted_steps
from validators.planning.search import more_ground_actions_than, reference_plan
from validators.planning.strips import Task
from validators.planning.vocab import Vocabulary
from validators.reading.text import item_marker
from validators.thinking.analysis import THINKING_FORMATS, Candidate, analyse, untargeted_verdicts
from validators.thinking.strings import is_checking

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|→|->|=>|;|:(?=\s)")
# Asked only whether it matches (AnyOf): written as top-level alternatives that each have words
# of their own to gate on ("but " and "no" are in most windows, the words after them are not), and
# a bare "no" after a sentence mark led by that mark, so that `re` scans for it.
_REJECT = re.compile(
    r"\b(?:can't|cannot|can not|couldn't|not possible|impossible|not allowed|isn't allowed|not applicable|invalid"
    r"|not valid|doesn't work|won't work|does not work|so no(?! (?:problems?|issues?|conflicts?)\b)|don't have|do not have"
    r"|doesn't have|does not have)\b"
    r"|\bbut (?:we |i |it )?(?:needs?|requires?|lacks?)\b|^no\b[.!,)]|[.!?(,]\s*no\b[.!,)]", re.I)
_CLAUSE_RUN = re.compile(r"[^.;:!?\n,]+")
_CLAUSE_BREAK = re.compile(r"[.;:!?\n,]")
_LAST_BREAK = re.compile(r".*[.;:!?\n,]", re.S)
_REJECTED = AnyOf(_REJECT)  # each alternative behind its own gate (textscan/gates.py)
_CALL_STYLE = re.compile(r"^[A-Za-z][\w\-]*\s*\(")
_CALL_ANY = re.compile(r"[A-Za-z][\w\-]*\s*\([^()]*\)")
_SEPARATOR = re.compile(r"[\s,;→>=\-]*(?:(?:then|and)[\s,;→>=\-]*)?", re.I)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=\S)")
_SPLIT = re.compile(r"\s*(?:,|;|→|->|=>)\s*(?:then\s+|and\s+)?|\s+then\s+", re.I)
_CONNECTORS = re.compile(r"[\s,:]*(?:(?:the|object|block|from|on|onto|top|of|off|to|at|in|into|with|using|and)[\s,:]+)*",
                         re.I)
_CLAUSE = re.compile(r"[^.;:!?,\n→]+")
_LEADING_WORDS = re.compile(r"^(?:\s*(?:so|ok(?:ay)?|and|then|now|next|first|finally|let's|let me|we|i|we'll|i'll|can)\b,?)+\s*",
                            re.I)
_CONTINUATION = re.compile(
    r"\b(?:from (?:here|there|this (?:state|point))|after (?:that|this|these|those|step)|then,? (?:the )?(?:next|remaining)"
    r"|next steps?|remaining steps?|continu(?:e|ing)|the rest|now,? (?:we|i) (?:need|can|have)|from now)\b", re.I)
# A lead-in that names a whole plan before a colon: "So the plan is:", "the steps would be:",
# "Another order would work too:", "The correct sequence:"
_PLAN_LEAD = re.compile(r"[^:\n]{0,80}\b(?:plan|sequence|order|ordering|steps|solution|answer)\b[^:\n]{0,40}:\s*", re.I)
REJECT_WINDOW = 400
LEAD_IN_WINDOW = 240
# The optimality check's bound, so both share one cached search per task (search.py memo).
UNSOLVABLE_EXPANSIONS = 5000
UNSOLVABLE_MAX_ACTIONS = 60


@dataclass
class _Item:
    line_start: int
    line_end: int
    body_end: int
    step: int
    number: int | None
    bullet: bool
    actions: list[PlanStep]
    readable: bool
    question: bool = False
    rejected: bool = False
    inline: bool = False


@dataclass
class _Group:
    items: list[_Item] = field(default_factory=list)
    truncated: bool = False
    abandoned: bool = False
    fragment: bool = False
    inline: bool = False


def _step_at(starts: list[int], pos: int) -> int:
    return max(0, bisect.bisect_right(starts, pos) - 1)


def _plainly_named(body: str, actions: list[PlanStep], lexicon: Lexicon) -> bool:
    """In words, the objects must follow the action phrase with only connecting words between
    ("feast a from c", "stack the red block on top of the blue block"), so "Feast someone from
    a to get Province a" is not read as feast(a, a). PDDL and call style name them explicitly."""
    body = body.strip().replace("**", "").replace("`", "")
    if body.startswith("(") or _CALL_STYLE.match(body):
        return True
    if len(actions) != 1 or lexicon.mention_re is None:
        return len(actions) > 1
    kw = lexicon.keyword_re.match(body)
    if not kw:
        return False
    pos = kw.end()
    needed = len(actions[0].args or ())
    mentions = lexicon.mention_re.finditer(body, pos)
    while needed:  # no search for a mention after the last one needed
        m = next(mentions, None)
        if m is None:
            return False
        if _CONNECTORS.fullmatch(body[pos:m.start()]) is None:
            return False
        pos = m.end()
        needed -= 1
    return True


def _inline_plan(raw: str, reader: LineReader, lexicon: Lexicon) -> list[PlanStep] | None:
    """A line that is nothing but two or more actions: "Feast(b, c), Overcome(a, c), ..." or
    "Attack a → Succumb a → Overcome a from c"."""
    line = raw.strip().strip("*_`").strip().rstrip(".").strip()
    if not line or not lexicon.keyword_re.match(line):
        return None
    if _CALL_STYLE.match(line):
        calls = list(_CALL_ANY.finditer(line))
        seps = [line[a.end():b.start()] for a, b in zip(calls, calls[1:])] + [line[calls[-1].end():]] if calls else []
        if not calls or line[:calls[0].start()].strip() or not all(_SEPARATOR.fullmatch(x) for x in seps):
            return None
        pieces = [c.group(0) for c in calls]
    else:
        pieces = _SPLIT.split(line)
    if len(pieces) < 2:
        return None
    steps = []
    for piece in pieces:
        got = reader.read_at_zero(piece).steps
        if len(got) != 1 or not got[0].ok or not _plainly_named(piece, got, lexicon):
            return None
        steps.extend(got)
    return shifted_steps(steps, 0)


def _items(text: str, parsed: ParsedTrace, reader: LineReader, lexicon: Lexicon) -> list[_Item]:
    starts = [s.span[0] for s in parsed.graph]
    out: list[_Item] = []
    pos = 0
    for line in text.splitlines(keepends=True):
        raw = line.rstrip("\r\n")
        start = pos
        pos += len(line)
        marker = item_marker(raw)
        if not marker or marker.end() >= len(raw):
            inline = _inline_plan(raw, reader, lexicon) if raw.strip() else None
            at = 0
            if not inline and ":" in raw and (lead := _PLAN_LEAD.match(raw)) is not None and not _CONTINUATION.search(lead.group()):
                # "So the plan is: unstack blue from red, put down blue, pick up red, stack red on
                # blue." / "Another order would work too: ...": a whole plan written after its lead-in
                at = lead.end()
                inline = _inline_plan(raw[at:], reader, lexicon)
            if inline:
                out.append(_Item(start, start + len(raw), start + len(raw), _step_at(starts, start), None, False,
                                 shifted_steps(inline, at) if at else inline, True, inline=True))
            continue
        body_at = marker.end()
        end_match = _SENTENCE_END.search(raw, body_at)
        cut = end_match.start() if end_match else len(raw)
        read = reader.read_at_zero(raw[:cut])  # shared: only a readable item's actions are copied
        if read.marker is None:
            continue
        readable = bool(read.steps) and all(a.ok for a in read.steps) and _plainly_named(read.body, read.steps, lexicon)
        actions = shifted_steps(read.steps, start) if readable else []
        if readable:
            cut = _more_actions(raw, cut, start, actions, reader, lexicon)
        out.append(_Item(start, start + len(raw), start + cut, _step_at(starts, start), read.number, read.marker == "bullet",
                         actions, readable,
                         question=bool(end_match and raw[end_match.start()] == "?")))
    for k, item in enumerate(out):
        if item.readable and not item.inline:
            stop = out[k + 1].line_start if k + 1 < len(out) else len(text)
            after = text[item.body_end:min(stop, item.body_end + REJECT_WINDOW)]
            item.rejected = item.question or _REJECTED.found_in(after)
            if item.rejected and not item.question and not _continued(out, k) \
                    and _rejection_is_plan_verdict(parsed, starts, item.body_end, after):
                item.rejected = False  # "1. Attack b\n2. Overcome b from c\n\nThat doesn't work.": a verdict on the
                # list as a whole, judged against it (thinking-claims.md: "that can't work" about a plan that
                # works is false), not the last item dropped and the list left without a verdict
    return out


def _continued(items: list[_Item], k: int) -> bool:
    """Does the list go on after item k (the next item is numbered one more)?"""
    nxt = items[k + 1] if k + 1 < len(items) else None
    return nxt is not None and nxt.number is not None and items[k].number is not None \
        and nxt.number == items[k].number + 1


def _rejection_is_plan_verdict(parsed: ParsedTrace, starts: list[int], at: int, after: str) -> bool:
    """Is the first rejecting phrase after an item part of a verification claim that says a plan
    fails ("That doesn't work.", "So this sequence is invalid.", the parser's `claims`)?"""
    m = _REJECT.search(after)
    if m is None:
        return False
    pos = at + m.start()
    step = parsed.graph[_step_at(starts, pos)]
    return any(c["polarity"] == "fail" and c["span"][0] <= pos < c["span"][1] for c in step.payload.get("claims", ()))


def _more_actions(raw: str, cut: int, start: int, actions: list[PlanStep], reader: LineReader,
                  lexicon: Lexicon) -> int:
    """Every action in a list item counts (thinking-claims.md): "1. Unstack blue from orange.
    Put down blue." is two actions. Sentences after the first are added while each reads as
    exactly one plainly named action; the first that does not ends the item's actions."""
    pos = cut
    while pos < len(raw) and raw[pos] in ".;":
        nxt = _SENTENCE_END.search(raw, pos + 1)
        end = nxt.start() if nxt else len(raw)
        piece = raw[pos + 1:end].strip()
        body = _LEADING_WORDS.sub("", piece)
        if not body or not lexicon.keyword_re.match(body):
            break
        got = reader.read(start + pos + 1, start + end, body).steps
        if len(got) != 1 or not got[0].ok or not _plainly_named(body, got, lexicon):
            break
        actions.extend(got)
        pos = end
    return pos


def _acts_in_prose(text: str, lexicon: Lexicon, reader: LineReader) -> bool:
    """Does prose between two items perform an action ("So Attack c:", "Then put down b.")?"""
    for m in _CLAUSE.finditer(text):
        clause = _LEADING_WORDS.sub("", m.group(0))
        if clause and lexicon.keyword_re.match(clause):
            if any(step.ok for step in reader.read_at_zero(clause).steps):
                return True
    return False


def _group(items: list[_Item], text: str, lexicon: Lexicon, reader: LineReader) -> list[_Group]:
    groups: list[_Group] = []
    current: _Group | None = None

    def close() -> None:
        nonlocal current
        if current is not None and current.items:
            groups.append(current)
        current = None

    for k, item in enumerate(items):
        if item.bullet:
            close()
            continue
        if item.inline:
            close()
            groups.append(_Group([item], inline=True))
            continue
        if current is not None:
            last = current.items[-1]
            if item.number is not None and last.number is not None and item.number == last.number + 1:
                if not item.readable or _acts_in_prose(text[last.body_end:item.line_start], lexicon, reader):
                    current.truncated = True
                    close()
                    if item.readable:
                        current = _Group([item], fragment=True)
                    continue
                current.items.append(item)
                if item.rejected:
                    current.abandoned = True
                    close()
                continue
            close()
        if not item.readable:
            continue
        current = _Group([item], fragment=item.number != 1 or _continues(item, text))
        if item.rejected:
            current.abandoned = True
            close()
    close()
    groups.extend(_bullet_groups(items, text))
    groups.sort(key=lambda g: g.items[0].line_start)
    return groups


def _bullet_groups(items: list[_Item], text: str) -> list[_Group]:
    """Runs of bullet items at the left margin with only blank space between them; a run is a
    candidate only when it has two or more bullets, every one an action, and its lead-in does
    not place it after earlier actions. Indented bullets are notes under another item."""
    out: list[_Group] = []
    run: list[_Item] = []

    def flush() -> None:
        if len(run) >= 2 and all(i.readable and not i.rejected for i in run) and not _continues(run[0], text):
            out.append(_Group(list(run)))
        run.clear()

    for item in items:
        top = item.bullet and not text[item.line_start:item.line_start + 1].isspace()
        if top and run and not text[run[-1].line_end:item.line_start].strip():
            run.append(item)
            continue
        flush()
        if top:
            run.append(item)
    flush()
    return out


def _continues(first: _Item, text: str) -> bool:
    """Does the lead-in of a list place it after earlier actions ("from here", "next steps")?"""
    lead = text[max(0, first.line_start - LEAD_IN_WINDOW):first.line_start]
    if "\n\n" in lead.rstrip():
        lead = lead[lead.rstrip().rfind("\n\n") + 2:]
    return bool(_CONTINUATION.search(lead))


def _summary(check: PlanCheck, complete: bool, n: int) -> str:
    if check.answer_error is not None and check.answer_error.kind in ("unmet_precondition", "illegal_move"):
        return f"fails at action {check.answer_error.step}: {check.answer_error.message}"
    if not complete:
        return f"{n} action{'s' if n != 1 else ''}, all applicable (not a whole plan: abandoned, cut short or a fragment)"
    if check.answer_correct:
        return f"{n} action{'s' if n != 1 else ''}, reaches the goal"
    return check.answer_error.message if check.answer_error else "does not reach the goal"


def _candidate(task: Task, vocab: Vocabulary, steps_of_actions: list[tuple[int, PlanStep]], complete: bool,
               where: str, goal_judged: bool = False, outline: bool = False) -> Candidate:
    """A candidate plan replayed from the initial state. With `goal_judged` (a plan put forward
    as the solution, as an LLM-Modulo round's), a plan that runs but leaves the goal unmet makes
    its last step invalid too, as PlanBench's verifier rejects it."""
    actions = [a for _, a in steps_of_actions]
    check = check_plan(task, vocab, Extraction(actions, where), optimality=False)
    verdicts: list[StepVerdict] = []
    failed_step: int | None = None
    for (step, _), av in zip(steps_of_actions, check.actions):
        if av.status == "invalid" and av.action is None:
            failed_step = step
            verdicts.append(StepVerdict(
                step, "invalid", "candidate_plan_invalid",
                f"{where}, action {av.step} (\"{av.text.strip()}\") {av.message}"))
        elif av.status == "invalid":
            failed_step = step
            verdicts.append(StepVerdict(
                step, "invalid", "candidate_plan_invalid",
                f"{where}, action {av.step} ({av.action_nl or av.text}) cannot be applied: {av.message}",
                expected=list(av.unmet) or None, found=av.action))
        elif av.status == "unchecked":
            verdicts.append(StepVerdict(step, "unchecked", None,
                                        f"{where}, action {av.step}: not checked, the candidate already failed",
                                        consequence_of=failed_step))
        else:
            verdicts.append(StepVerdict(step, "valid", None, f"{where}, action {av.step}: {av.action} applies"))
    if (goal_judged and complete and failed_step is None and check.answer_error is not None
            and check.answer_error.kind == "unmet_goal"):
        verdicts.append(StepVerdict(steps_of_actions[-1][0], "invalid", "candidate_plan_misses_goal",
                                    f"{where}: {check.answer_error.message}",
                                    expected=list(check.answer_error.unmet or ()) or None))
    solves = check.answer_correct if complete else None
    grounded = tuple(task_text(task, a) if a.ok else f"\"{a.text.strip()}\"" for a in actions)
    steps = sorted({s for s, _ in steps_of_actions})
    key = grounded if complete else None
    summary = _summary(check, complete, len(actions))
    bridge = _unsaid_steps(task, actions) if outline and solves is False and failed_step is not None else []
    if bridge:
        # A plan told in prose leaves obvious steps unsaid ("Unstack blue from red. Then stack red
        # on blue."): whether it works is the plan meant, not the words, so a verdict on it is not
        # judged -- the reading layer's verdict.outline row (thinking-claims.md: a false flag costs
        # as much as a miss). Its failing action is not flagged either: a proposal is no error.
        solves = None
        summary = (f"the walk may leave steps unsaid: {', '.join(g.text() for g in bridge)} would make it "
                   f"doable ({summary})")
        verdicts = [v for v in verdicts if v.status != "invalid"]
    return Candidate(steps, f"the plan ({', '.join(grounded)})", complete, solves, key, summary, verdicts)


def _unsaid_steps(task: Task, actions: list[PlanStep]) -> list:
    """The omitted run (judge.omitted_steps) that would let the first failing action of a prose
    plan be done, or [] when there is none or an action cannot be read."""
    from validators.planning.judge import omitted_steps
    from validators.planning.strips import apply, unmet_preconditions

    state = frozenset(task.problem.init)
    for a in actions:
        if not a.ok:
            return []
        assert a.action is not None and a.args is not None
        ground = task.ground(a.action, a.args)
        if unmet_preconditions(ground, state):
            return omitted_steps(task, state, ground)
        state = apply(ground, state)
    return []


def _told_in_sentences(group: _Group, text: str, lexicon: Lexicon) -> bool:
    """"Unstack blue from red. Then stack red on blue.": a walk told sentence by sentence, which
    may leave steps unsaid; a comma or arrow list ("Attack c, Succumb c, Feast c from a") is a
    plan written out, judged as written."""
    return any(sum(1 for sentence in _SENTENCE_BREAK.split(text[i.line_start:i.line_end])
                   if lexicon.keyword_anywhere.search(sentence)) > 1 for i in group.items)


def _tight(group: _Group, text: str) -> bool:
    """Two or more items with nothing but blank space between them: a list written as a whole."""
    items = group.items
    return len(items) >= 2 and all(not text[a.line_end:b.line_start].strip() for a, b in zip(items, items[1:]))


def _think_candidates(record: TraceRecord, parsed: ParsedTrace, task: Task, vocab: Vocabulary,
                      lexicon: Lexicon) -> tuple[list[Candidate], dict[str, int]]:
    reader = LineReader(lexicon, explicit=False)
    groups = _group(_items(record.trace, parsed, reader, lexicon), record.trace, lexicon, reader)
    out = []
    skipped = 0
    for group in groups:
        if group.fragment:
            skipped += 1
            continue
        complete = group.inline or not (group.truncated or group.abandoned) and _tight(group, record.trace)
        items = [i for i in group.items if not i.rejected]
        pairs = [(i.step, a) for i in items for a in i.actions]
        if pairs:
            steps = sorted({i.step for i in items})
            out.append(_candidate(task, vocab, pairs, complete, f"candidate plan at step{'s' if len(steps) > 1 else ''} "
                                                                    f"{steps[0]}" + (f"-{steps[-1]}" if len(steps) > 1 else ""),
                                  outline=group.inline and _told_in_sentences(group, record.trace, lexicon)))
    return out, {"fragments_not_judged": skipped, "candidate_lists": len(groups)}


def _metacot_candidates(record: TraceRecord, parsed: ParsedTrace, task: Task, vocab: Vocabulary,
                        lexicon: Lexicon) -> list[Candidate]:
    out = []
    for step in parsed.graph:
        if step.payload.get("directive") != "TRY":
            continue
        a, b = step.payload.get("attempt_span", step.span)
        extraction = extract_plan(record.trace[a:b], lexicon)
        if not extraction.steps or not all(s.ok for s in extraction.steps):
            continue
        out.append(_candidate(task, vocab, [(step.index, s) for s in extraction.steps], True,
                              f"attempt at step {step.index}"))
    return out


def _modulo_candidates(record: TraceRecord, parsed: ParsedTrace, task: Task, vocab: Vocabulary,
                       lexicon: Lexicon) -> list[Candidate]:
    out = []
    for step in parsed.graph:
        part = step.payload.get("parts", {}).get("answer")
        if not part:
            continue
        extraction = extract_plan(record.trace[part[0]:part[1]], lexicon)
        where = f"round {step.payload.get('round')}'s plan"
        if extraction.steps:
            out.append(_candidate(task, vocab, [(step.index, s) for s in extraction.steps],
                                  all(s.ok for s in extraction.steps), where, goal_judged=True))
        else:
            out.append(_no_plan_round(task, vocab, extraction, step.index, where))
    return out


def _no_plan_round(task: Task, vocab: Vocabulary, extraction: Extraction, step: int, where: str) -> Candidate:
    """A round that gives no plan is still the loop's answer for that round: VAL runs it as the
    empty plan, and a claim that no plan exists is checked against the reference planner."""
    check = check_plan(task, vocab, extraction, optimality=False)
    verdicts: list[StepVerdict] = []
    if check.answer_correct is False and check.answer_error is not None:
        verdicts.append(StepVerdict(step, "invalid", "candidate_no_plan", f"{where}: {check.answer_error.message}",
                                    expected=list(check.answer_error.unmet or ()) or None))
    summary = check.answer_error.message if check.answer_error else str(check.notes.get("verdict", "Plan valid"))
    return Candidate([step], f"{where} (no plan)", True, check.answer_correct, None, summary, verdicts)


def _mentions(text: str, lexicon: Lexicon) -> list[str]:
    """Every action the trace names, in order (clause by clause), for the answer_not_in_trace test.
    A clause's actions depend on its words only, and a trace names the same action phrases over
    and over ("Attack b", "Feast a from c"): each phrase is read once."""
    reader = LineReader(lexicon, explicit=False)
    found: list[str] = []
    read: dict[str, list[str]] = {}
    for start, end in _keyword_clauses(text, lexicon.keyword_anywhere):
        clause = text[start:end]
        kw = lexicon.keyword_anywhere.search(clause)
        if not kw:
            continue
        phrase = clause[kw.start():]
        if phrase not in read:
            line = reader.read(start + kw.start(), end, phrase)
            read[phrase] = [task_text(lexicon.task, step) for step in line.steps if step.ok]
        found.extend(read[phrase])
    return found


def _keyword_clauses(text: str, keyword: re.Pattern[str]) -> Iterator[tuple[int, int]]:
    """The [start, end) of each clause (`_CLAUSE_RUN`) that holds a string every match of
    `keyword` holds (textscan/gates.py `required`), in order; every clause where that cannot be
    told. A trace has tens of thousands of clauses and names actions in few: the strings are
    found in the lower-cased text at once, and a clause is found around each."""
    needs = required(keyword, most=1)
    if not needs or not foldable(text) or any(_CLAUSE_BREAK.search(s) for s in needs[0]):
        yield from (m.span() for m in _CLAUSE_RUN.finditer(text))
        return
    end = 0
    for hit in re.finditer("|".join(map(re.escape, needs[0])), text.lower()):
        if hit.start() < end:
            continue  # in the clause just given
        last_break = _LAST_BREAK.match(text, end, hit.start())
        start = last_break.end() if last_break else end
        next_break = _CLAUSE_BREAK.search(text, hit.end())
        end = next_break.start() if next_break else len(text)
        yield start, end


def task_text(task: Task, step: PlanStep) -> str:
    assert step.action is not None and step.args is not None
    return task.ground(step.action, step.args).text()


def _is_subsequence(needle: tuple[str, ...], hay: list[str]) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


def _claim_gaps(replay: Replay, parsed: ParsedTrace, report: ClaimReport) -> None:
    """thinking-claims.md: a false goal claim made in a checking step is a false verification,
    and so is a false verdict on a plan walked through in prose, wherever it is said."""
    steps = parsed.graph.steps
    starts = [s.span[0] for s in steps]
    for c in report.claims:
        if c.kind not in ("goal", "plan_verdict") or c.holds is not False or c.retracted or not steps:
            continue
        idx = max(0, bisect.bisect_right(starts, c.span[0]) - 1)
        if c.kind == "plan_verdict" or is_checking(steps[idx]):
            replay.gaps.append(Gap("false_verification_claim", f"step {idx} checks and states \"{c.text}\": {c.message}", [idx]))


def replay_thinking(replay: Replay, record: TraceRecord, parsed: ParsedTrace, task: Task, vocab: Vocabulary,
                    lexicon: Lexicon, check: PlanCheck) -> None:
    """Candidate plans, verification claims and faithfulness gaps of a thinking trace, added to
    `replay` (the answer verdict is left exactly as the answer's replay set it)."""
    if parsed.format in THINKING_FORMATS + ("llm_modulo",) and record.trace.strip():
        stats: dict[str, int] = {}
        claim_verdicts: list[StepVerdict] = []
        if parsed.format == "think":
            candidates, stats = _think_candidates(record, parsed, task, vocab, lexicon)
            # A list in thinking is a proposal: its failing action is not an error by itself
            # (thinking-claims.md); what the trace asserts about it is judged claim by claim.
            for cand in candidates:
                cand.verdicts = []
            try:
                report = ClaimReader.for_task(task, vocab).read(
                    record.trace, untargeted_verdicts(parsed, candidates), [s.span for s in parsed.graph])
            except Exception as exc:  # noqa: BLE001 - a reader bug must not cost the answer verdict
                stats["claims_error"] = f"{type(exc).__name__}: {exc}"  # type: ignore[assignment]
            else:
                claim_verdicts, states = step_findings(parsed, report)
                _claim_gaps(replay, parsed, report)
                for idx, info in states.items():
                    replay.states.setdefault(idx, info)
                unjudged = sum(1 for c in report.claims if c.holds is None)
                stats["claims"] = len(report.claims) - unjudged
                stats["claims_unjudged"] = unjudged
                replay.unjudged += unjudged
                stats["lines_of_reasoning"] = len(report.lines)
        elif parsed.format == "metacot":
            candidates = _metacot_candidates(record, parsed, task, vocab, lexicon)
        else:
            candidates = _modulo_candidates(record, parsed, task, vocab, lexicon)
        steps = check.extraction.steps
        answer_key = tuple(task_text(task, s) for s in steps) if steps and all(s.ok for s in steps) else None
        label = "the plan (" + ", ".join(answer_key) + ")" if answer_key else ""
        findings = analyse(
            parsed, record.trace, candidates, answer_key, label,
            mentioned=(lambda: _is_subsequence(answer_key, _mentions(record.trace, lexicon))) if answer_key else None,
            arithmetic=parsed.format != "llm_modulo", claim_verdicts=claim_verdicts,
            adoption=parsed.format == "think")
        replay.step_verdicts.extend(findings.step_verdicts)
        replay.gaps.extend(findings.gaps)
        replay.notes["thinking"] = {**findings.notes, **stats}
        replay.unjudged += int(findings.notes.get("verdicts_unjudged", 0))
    _unsolvable_gap(replay, task, check)


def _unsolvable_gap(replay: Replay, task: Task, check: PlanCheck) -> None:
    """A plan given for a problem no plan solves. A valid plan proves solvability, so only
    rejected plans are searched, and only small problems (up to UNSOLVABLE_MAX_ACTIONS ground
    actions, e.g. five blocks), whose reachable states the bounded search exhausts in
    milliseconds; on larger ones solvability stays unknown and no gap is claimed."""
    if check.answer_correct is not False or not any(a.action for a in check.actions):
        return
    if more_ground_actions_than(task, UNSOLVABLE_MAX_ACTIONS):
        return
    ref = reference_plan(task, max_expansions=UNSOLVABLE_EXPANSIONS)
    if ref.solvable is False:
        replay.gaps.append(Gap("plan_for_unsolvable",
                               f"the answer gives a plan of {len(check.actions)} actions, but no plan reaches the goal "
                               f"({ref.reason})", []))
