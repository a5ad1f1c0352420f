"""Plan text as models write it -> a list of plan steps, each with its character span.

Accepted: PDDL lines `(unstack b a)` (also numbered or timed `0: (...)`), call style
`Unstack(red, orange)`, and natural-language steps in a domain's vocabulary ("unstack the red
block from on top of the blue block", "Feast c from a", "load package_0 into truck_1 at
location_1_0"), numbered, bulleted or plain, with markdown. The region is narrowed as
PlanBench does (`llm_planning_analysis/utils/text_to_pddl.py::text_to_plan_blocksworld`):
between `[PLAN]` and `[PLAN END]`, after `### plan:`; otherwise the whole answer.

Where PlanBench's rule-based path drops a line whose object count differs from the action's
arity, and VAL crashes on wrong arity (reference-semantics.md 4.3-4.4), a line that names an
action but cannot be resolved is kept as an unparseable step with its text: the plan is then
rejected as unparseable instead of silently changing meaning.

An answer often states its plan more than once (a detailed list, then "Final plan:"). Lines
are grouped into candidate plans (a numbering restart, a change of list style or indentation,
or a heading line ending in ':' starts a new one) and the last candidate is the answer's plan,
as the "final answer" a reader (and PlanBench's LLM translator) would take.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from validators.planning.strips import Task
from validators.planning.vocab import Vocabulary

_END_MARK = re.compile(r"\[\s*(?:pddl\s+)?plan[\s_]*end\s*\]|\[\s*end[\s_]+(?:of[\s_]+)?plan\s*\]", re.I)
_START_MARK = re.compile(r"\[\s*(?:pddl\s+)?plan\s*\]", re.I)
_HASH_PLAN = re.compile(r"#+\s*plan\s*:", re.I)
_COST_MARK = re.compile(r"\[\s*cost\s*\]", re.I)
_FENCE = re.compile(r"^\s*(```|~~~)")
_MARKER = re.compile(
    r"^(?:(?P<num>\d+)\s*[.):]\s*|\((?P<pnum>\d+)\)\s*|(?P<bullet>[-*+•‣▪◦])\s+"
    r"|step\s*(?P<snum>\d+)\s*[:.)\-]?\s*)", re.I)
_LABEL = re.compile(r"^(?:(?:action|move)\s*\d*\s*[:.)\-]\s*|(?:final\s+)?(?:answer|plan)\s*:\s*)", re.I)
_TIMED = re.compile(r"^\d+(?:\.\d+)?\s*:\s*(?=\()")
_FILLER = re.compile(
    r"^(?:(?:then|next|first(?:ly)?|second(?:ly)?|third(?:ly)?|finally|lastly|now|and|after\s+that|afterwards)"
    r"\b[,:]?\s+)+", re.I)
_PAREN_GROUP = re.compile(r"\(([^()]*)\)")
_CALL = re.compile(r"^([A-Za-z][\w\-]*)\s*\(([^()]*)\)")
_PARENTHETICAL = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_NO_PLAN = re.compile(r"no\s+plan\s+(?:is\s+)?possible", re.I)
_NO_PLAN_LOOSE = re.compile(
    r"\b(?:no\s+(?:valid\s+|possible\s+)?(?:plan|solution|sequence(?:\s+of\s+actions)?)\s+(?:exists|is\s+possible|can\s+achieve)"
    r"|(?:is|it's|it\s+is)\s+(?:impossible|not\s+possible)|unsolvable|cannot\s+be\s+achieved)", re.I)


@dataclass
class PlanStep:
    """One step of an extracted plan. `action`/`args` are None when the line is unparseable."""

    span: tuple[int, int]
    text: str
    action: str | None = None
    args: tuple[str, ...] | None = None
    error: str | None = None
    note: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.action is not None


@dataclass
class Extraction:
    steps: list[PlanStep]
    region: str
    candidates: int = 0
    claims_no_plan: bool = False
    notes: list[str] = field(default_factory=list)


def _norm_name(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name.lower())


def _mention_key(word: str) -> str:
    return re.sub(r"[\s_]+", " ", word.strip().lower())


def _phrase_regex(words: str) -> str:
    parts = [re.escape(w) for w in re.split(r"[\s_\-]+", words.strip()) if w]
    return r"[\s_\-]*".join(parts)


class Lexicon:
    """What the extractor matches for one task+vocabulary: action words, object mentions."""

    def __init__(self, task: Task, vocab: Vocabulary) -> None:
        self.task = task
        self.vocab = vocab
        domain = task.domain
        self.actions_by_norm: dict[str, list[str]] = {}
        keyword_to_actions: dict[str, list[str]] = {}
        for name, schema in domain.actions.items():
            self.actions_by_norm.setdefault(_norm_name(name), []).append(name)
            phrases = {name}
            template = vocab.actions.get(name)
            if template:
                head = template.split("{}")[0]
                head = re.sub(r"\b(?:the|a|an)\s*$", "", head.strip(), flags=re.I).strip()
                if head:
                    phrases.add(head)
                    self.actions_by_norm.setdefault(_norm_name(head), [])
                    if name not in self.actions_by_norm[_norm_name(head)]:
                        self.actions_by_norm[_norm_name(head)].append(name)
            for phrase in phrases:
                keyword_to_actions.setdefault(_phrase_regex(phrase).lower(), []).append(name)
        # Longest phrases first so "pick up" wins over a hypothetical "pick".
        self.keywords = sorted(keyword_to_actions.items(), key=lambda kv: -len(kv[0]))
        alternation = "|".join(f"(?:{k})" for k, _ in self.keywords)
        self.keyword_re = re.compile(rf"^(?:{alternation})(?![\w])", re.I)
        self.keyword_anywhere = re.compile(rf"(?<![\w\-])(?:{alternation})(?![\w])", re.I)

        mentions: dict[str, str] = {}
        names = set(task.objects) | set(vocab.objects)
        for obj in sorted(names):
            words = [vocab.object_nl(obj), vocab.short_objects.get(obj, "")]
            if vocab.bare_names or len(obj) > 1 or words[0] == obj:
                words.append(obj)
            for word in words:
                if word:
                    mentions.setdefault(_mention_key(word), obj)
        self.lookup = mentions
        ordered = sorted(mentions, key=len, reverse=True)
        self.mention_re = re.compile(
            r"(?<![\w\-])(" + "|".join(r"[\s_]+".join(map(re.escape, m.split(" "))) for m in ordered)
            + r")(?![\w\-])", re.I) if ordered else None
        self.static = domain.static_predicates

    def object_of(self, token: str) -> str | None:
        key = _mention_key(token.strip().strip(".,;:'\"`*"))
        if not key:
            return None
        if key in self.lookup:
            return self.lookup[key]
        for prefix in ("the ", "object ", "block "):
            if key.startswith(prefix) and key[len(prefix):] in self.lookup:
                return self.lookup[key[len(prefix):]]
        return key if key in self.task.objects else None

    def mention_objects(self, text: str) -> list[str]:
        if self.mention_re is None:
            return []
        return [self.lookup[_mention_key(m.group(1))] for m in self.mention_re.finditer(text)]

    def choose(self, candidates: list[str], args: tuple[str, ...]) -> str:
        """Among same-word actions (load-truck / load-airplane), the one whose static type facts hold."""
        if len(candidates) == 1:
            return candidates[0]
        fitting = []
        for name in candidates:
            schema = self.task.domain.actions[name]
            if schema.arity != len(args):
                continue
            ground = self.task.ground(name, args)
            static_ok = all((lit.atom in self.task.problem.init) == lit.positive
                            for lit in ground.pre if lit.atom[0] in self.static and len(lit.atom) == 2)
            if static_ok and not self.task.type_errors(ground):
                fitting.append(name)
        if fitting:
            return fitting[0]
        same_arity = [c for c in candidates if self.task.domain.actions[c].arity == len(args)]
        return (same_arity or candidates)[0]


@dataclass
class _Line:
    start: int
    end: int
    raw: str
    indent: int
    marker: str | None
    number: int | None
    body: str
    steps: list[PlanStep] = field(default_factory=list)


def _iter_lines(text: str, lo: int, hi: int) -> Iterator[tuple[int, int, str]]:
    pos = lo
    for line in text[lo:hi].splitlines(keepends=True):
        stripped = line.rstrip("\r\n")
        yield pos, pos + len(stripped), stripped
        pos += len(line)


def _region(text: str) -> tuple[int, int, str, bool]:
    """[lo, hi) of the part of the answer that holds the plan, its name, and whether it is explicit."""
    end = _END_MARK.search(text)
    if end:
        starts = [m for m in _START_MARK.finditer(text, 0, end.start())]
        lo = starts[-1].end() if starts else 0
        return lo, end.start(), "between [PLAN] and [PLAN END]" if starts else "before [PLAN END]", True
    start = _START_MARK.search(text)
    if start:
        return start.end(), len(text), "after [PLAN]", True
    hashed = _HASH_PLAN.search(text)
    if hashed:
        cost = _COST_MARK.search(text, hashed.end())
        return hashed.end(), cost.start() if cost else len(text), "after '### plan:'", True
    return 0, len(text), "whole answer", False


def _split_marker(s: str) -> tuple[str, str | None, int | None]:
    marker, number = None, None
    for _ in range(3):
        m = _MARKER.match(s)
        if not m or m.end() == 0:
            break
        if m.group("bullet"):
            marker = marker or "bullet"
        else:
            marker = "number"
            number = int(m.group("num") or m.group("pnum") or m.group("snum"))
        s = s[m.end():]
    return s, marker, number


def _clean(raw: str) -> str:
    s = raw.replace("**", "").replace("__", "").replace("`", "")
    s = re.sub(r"^\s*#+\s*", "", s)
    return s.strip()


class _LineReader:
    def __init__(self, lex: Lexicon, explicit: bool) -> None:
        self.lex = lex
        self.explicit = explicit

    def read(self, start: int, end: int, raw: str) -> _Line:
        indent = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
        s = _clean(raw)
        s, marker, number = _split_marker(s)
        s = _LABEL.sub("", s, count=1).strip()
        s = _TIMED.sub("", s).strip()
        s = _FILLER.sub("", s).strip()
        line = _Line(start, end, raw, indent, marker, number, s)
        if s:
            line.steps = self._steps(s, start, end, raw.strip())
        return line

    def _steps(self, s: str, start: int, end: int, text: str) -> list[PlanStep]:
        span = (start, end)
        lex = self.lex
        if s.startswith("("):
            return self._pddl(s, span, text)
        call = _CALL.match(s)
        if call and _norm_name(call.group(1)) in lex.actions_by_norm:
            return [self._resolve(lex.actions_by_norm[_norm_name(call.group(1))],
                                  [a for a in re.split(r"[,\s]+", call.group(2)) if a], span, text, pddl=True)]
        kw = lex.keyword_re.match(s)
        if kw:
            return self._natural(s, span, text)
        return []

    def _pddl(self, s: str, span: tuple[int, int], text: str) -> list[PlanStep]:
        steps = []
        for group in _PAREN_GROUP.finditer(s):
            tokens = group.group(1).split()
            if not tokens:
                continue
            names = self.lex.actions_by_norm.get(_norm_name(tokens[0]))
            if names and tokens[0].lower() in self.lex.task.domain.actions:
                names = [tokens[0].lower()]
            if names:
                steps.append(self._resolve(names, tokens[1:], span, text, pddl=True))
            elif self.explicit or all(self.lex.object_of(t) for t in tokens[1:]) and len(tokens) > 1:
                steps.append(PlanStep(span, text, error=f"unknown action '{tokens[0]}'"))
        if not steps and self.explicit:
            steps.append(PlanStep(span, text, error="not an action of this domain"))
        return steps

    def _resolve(self, names: list[str], tokens: list[str], span: tuple[int, int], text: str,
                 pddl: bool) -> PlanStep:
        """PDDL/call style: one token per argument, so the count must equal the arity (VAL)."""
        args = []
        unknown = []
        for tok in tokens:
            obj = self.lex.object_of(tok)
            if obj is None:
                obj = tok.strip(".,;:").lower()
                unknown.append(obj)
            args.append(obj)
        arities = {self.lex.task.domain.actions[n].arity for n in names}
        if len(args) not in arities:
            schema = self.lex.task.domain.actions[names[0]]
            return PlanStep(span, text, error=(
                f"{schema.name} takes {schema.arity} argument{'s' if schema.arity != 1 else ''} "
                f"{schema.signature()}, the step gives {len(args)}"))
        name = self.lex.choose(names, tuple(args))
        note = f"unknown object{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}" if unknown else None
        return PlanStep(span, text, name, tuple(args), note=note)

    def _natural(self, s: str, span: tuple[int, int], text: str) -> list[PlanStep]:
        lex = self.lex
        body = _PARENTHETICAL.sub(" ", s)
        starts = [m.start() for m in lex.keyword_anywhere.finditer(body)]
        starts = [p for p in starts if p == 0 or re.search(r"(?:,|;|→|->|=>|\.|\bthen|\band|:)\s*$", body[:p])]
        steps = []
        for i, p in enumerate(starts):
            segment = body[p: starts[i + 1] if i + 1 < len(starts) else len(body)]
            kw = lex.keyword_re.match(segment)
            if not kw:
                continue
            names = next(acts for k, acts in lex.keywords if re.fullmatch(k, kw.group(0), re.I))
            objects = lex.mention_objects(segment[kw.end():])
            arity = max(lex.task.domain.actions[n].arity for n in names)
            fitting = [n for n in names if lex.task.domain.actions[n].arity <= len(objects)]
            if not fitting:
                schema = lex.task.domain.actions[names[0]]
                found = ", ".join(lex.vocab.object_nl(o) for o in objects) or "none"
                steps.append(PlanStep(span, text, error=(
                    f"'{kw.group(0).strip()}' needs {schema.arity} object{'s' if schema.arity != 1 else ''} "
                    f"{schema.signature()}; the step names {len(objects)} ({found})")))
                continue
            arity = max(lex.task.domain.actions[n].arity for n in fitting)
            chosen = [n for n in fitting if lex.task.domain.actions[n].arity == arity]
            args = tuple(objects[:arity])
            name = lex.choose(chosen, args)
            note = None
            if len(objects) > arity:
                extra = ", ".join(lex.vocab.object_nl(o) for o in objects[arity:])
                note = f"further objects named in the step were ignored: {extra}"
            steps.append(PlanStep(span, text, name, args, note=note))
        return steps


_ANNOTATION = re.compile(r"^[A-Za-z][\w ]{0,30}:\s")
_NOT_AN_ACTION = "not an action of this domain"


def _is_heading(line: _Line) -> bool:
    body = _clean(line.raw)
    return bool(body) and body.rstrip("*_ ").endswith(":") and len(body) < 120


def _is_filler_item(line: _Line, current: list[_Line], explicit: bool) -> bool:
    """A non-action line that sits in the plan's list as one of its items ("2. Succumb", "3. Put it
    down"): it is reported as an unreadable step, never skipped. Annotations ("Reason: ..."),
    headings and long prose are not items; unmarked lines count only inside [PLAN] blocks."""
    if not current or not line.body or _is_heading(line) or _ANNOTATION.match(line.body) or len(line.body) > 150:
        return False
    base, last = current[0], current[-1]
    if line.indent != base.indent or line.marker != base.marker:
        return False
    if line.marker is None:
        return explicit
    return line.number is None or last.number is None or line.number == last.number + 1


def _leading_items(loose: list[_Line], first: _Line) -> list[_Line]:
    """Items of the same list that precede a candidate's first action ("1. You initiate ...")."""
    items: list[_Line] = []
    expect = first.number
    for line in reversed(loose):
        if line.indent != first.indent or line.marker != first.marker:
            break
        if expect is not None and line.number != expect - 1:
            break
        expect = line.number
        line.steps = [PlanStep((line.start, line.end), line.raw.strip(), error=_NOT_AN_ACTION)]
        items.append(line)
    return list(reversed(items))


def _plan_like(candidate: list[_Line]) -> bool:
    """A list whose items are mostly not actions is an explanation that mentions actions."""
    fillers = sum(1 for line in candidate if line.steps and line.steps[0].error == _NOT_AN_ACTION)
    return fillers * 2 < len(candidate)


def extract_plan(text: str, lex: Lexicon) -> Extraction:
    """The answer's plan: the last candidate plan in the plan region (see module docstring)."""
    if not text or not text.strip():
        return Extraction([], "empty answer")
    lo, hi, region, explicit = _region(text)
    reader = _LineReader(lex, explicit)
    candidates: list[list[_Line]] = []
    current: list[_Line] = []
    pending_break = False
    loose: list[_Line] = []  # list items without an action since the last heading
    for start, end, raw in _iter_lines(text, lo, hi):
        if not raw.strip() or _FENCE.match(raw):
            continue
        line = reader.read(start, end, raw)
        if not line.steps:
            if _is_heading(line) and (not current or line.indent <= current[0].indent):
                pending_break = bool(current)
                loose = []
            elif not pending_break and _is_filler_item(line, current, explicit):
                line.steps = [PlanStep((start, end), raw.strip(), error=_NOT_AN_ACTION)]
                current.append(line)
            elif line.marker is not None:
                loose.append(line)
            continue
        if current:
            base = current[0]
            last = current[-1]
            if line.indent > base.indent:
                continue
            restart = (
                pending_break
                or line.indent < base.indent
                or line.marker != base.marker
                or (line.number is not None and last.number is not None and line.number <= last.number)
            )
            if restart:
                candidates.append(current)
                current = []
        if not current:
            current = _leading_items(loose, line)
        loose = []
        pending_break = False
        current.append(line)
    if current:
        candidates.append(current)
    for cand in candidates:
        while cand and cand[-1].steps[0].error == _NOT_AN_ACTION and cand[-1].marker is None:
            cand.pop()
    plans = [c for c in candidates if c and _plan_like(c)]
    chosen = plans[-1] if plans else (candidates[-1] if candidates else [])
    steps = [step for line in chosen for step in line.steps]
    notes = []
    if len(plans) > 1:
        notes.append(f"the answer states {len(plans)} candidate plans; the last one is checked")
    if len(candidates) > len(plans):
        notes.append(f"{len(candidates) - len(plans)} list(s) that mostly are not actions were taken as explanation")
    no_plan = bool(_NO_PLAN.search(text)) or (not any(s.ok for s in steps) and bool(_NO_PLAN_LOOSE.search(text)))
    return Extraction(steps, region, len(plans), no_plan, notes)
