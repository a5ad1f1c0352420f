"""Claims about states and actions inside R1-style thinking, read on the shared reading layer
and judged on lines of reasoning (semantics: ../shared/docs/thinking-claims.md).

Three parts, each with one job:
* `read_unit`: a unit's tokens -> its shape, its task mentions and the rule rows that match
  (claim_rules.py); pure, and the same for a unit wherever it stands;
* `ClaimReader.read`: the units in order -> line events (new line, perform, fork, step back, undo,
  lose, re-anchor, doubt: applied and logged by lines.py, which keeps each state the previous one
  with the action applied) and assertions with a modality (asserted, proposed, hypothetical,
  questioned, retracted) and the state each speaks of; a claim judged in a state that has two
  readings is judged in both and left unjudged ("line uncertain") when they disagree;
* `judge.py`: (assertion, state, schema) -> holds and message.

Every assertion becomes a Claim, judged or not; an unjudged one says why. Roots and
consequences (thinking-claims.md): a false claim on a line after the line's first false claim
of an inapplicable action, or one that repeats an earlier false claim, records the root it
follows (`Claim.follows`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace
from typing import Sequence

from validators.planning import judge as J
from validators.planning.claim_rules import BY_ID
from validators.planning.claims import Claim, ClaimReport, LineOfReasoning
from validators.planning.lines import Lines
from validators.planning.role_rules import is_role, role_rules
from validators.planning.search import ground_all, more_ground_actions_than
from validators.planning.strips import Atom, GroundAction, Task, apply, unmet_goals, unmet_preconditions
from validators.planning.task_words import ASIDE_FIRSTS, ASIDES, SKIP, ActionMention, FactMention, TaskWords
from validators.planning.vocab import Vocabulary
from validators.reading.cues import INNER_ADVERBS, Hit, UnitCues, lexicon
from validators.reading.text import Reading, Token, Unit, read_text, tokens_of

LETTER = {"req": "R", "add": "D", "del": "X", "state": "S", "yes": "Y", "no": "N", "can": "C", "cant": "K",
          "hedge": "H", "guess": "G", "branch": "G", "cond": "I", "restart": "E", "retract": "B", "now": "W", "after": "T",
          "initially": "Z", "cause": "U", "means": "M", "goal": "O", "goal_met": "P", "works": "V", "plan": "L",
          "step": "J", "question": "Q", "general": "g", "neg": "n", "except": "x", "kept": "k", "filler": "~", "contrast": "c",
          "partial": "p", "must": "m"}
PRIORITY = ("retract", "restart", "cant", "question", "req", "del", "add", "kept", "goal", "goal_met", "works",
            "state", "initially", "after", "cause", "means", "cond", "hedge", "branch", "guess", "can", "yes", "no", "neg",
            "now", "general", "except", "plan", "step", "contrast", "partial", "must", "filler")
_RANK = {c: k for k, c in enumerate(PRIORITY)}
PUNCT = {",": ",", ":": ":", "(": "(", ")": ")", "[": "(", "]": ")", "->": ">", "?": "?", ";": ";", ".": ".", "=": "=", "!": "!",
         "and": "&", "&": "&", "/": ",", "or": "|"}
_NEG_WORD = re.compile(r"(?:not|never|cannot|\w*n't|\w*n’t)$")
_GROUNDING_LIMIT = 5_000  # ground actions tried to complete "unstack blue" (PlanBench tasks have a few dozen)
_FROM_HERE = re.compile(r"\bfrom (?:here|this point|this state)\b", re.I)
STATE_REACH = 3      # units after a line's last action that a bare "Yes."/state list may speak of it
ANCHOR_PARAGRAPHS = 1
CANT_REACH = 3       # units after a step taken that a bare "Can't perform." may speak of it


@dataclass
class UnitReading:
    """What one unit holds, read once: its shape and the mention or cue behind each letter."""

    unit: Unit
    shape: str
    items: list[object]              # per letter: ActionMention | FactMention | Hit | None
    actions: list[tuple[int, ActionMention]]
    facts: list[tuple[int, FactMention]]
    cues: UnitCues
    starts: list[int] = field(default_factory=list)  # the token each letter starts at

    def number_at(self, k: int) -> int | None:
        """The number written at letter k ("step 3": the "#" after "J")."""
        if not 0 <= k < len(self.starts):
            return None
        tok = self.unit.tokens[self.starts[k]]
        return int(tok.norm) if tok.kind == "num" and tok.norm.isdigit() and len(tok.norm) < 4 else None

    def rows(self, row_id: str) -> list:
        key = (row_id, self.shape)
        got = _ROW_HITS.get(key)
        if got is None:
            if len(_ROW_HITS) > _ROW_CACHE_SIZE:
                _ROW_HITS.clear()
            got = _ROW_HITS[key] = tuple(BY_ID[row_id].regex.finditer(self.shape))
        return list(got)

    def matches(self, row_id: str) -> bool:
        key = (row_id, self.shape)
        got = _ROW_MATCHES.get(key)
        if got is None:
            if len(_ROW_MATCHES) > _ROW_CACHE_SIZE:
                _ROW_MATCHES.clear()
            got = _ROW_MATCHES[key] = BY_ID[row_id].regex.search(self.shape) is not None
        return got


# A row's matches depend on the shape alone, and R1 writes the same shapes over and over ("F.",
# "A:F,F,F."): matched once per (row, shape). Match objects are immutable, so they are shared.
_ROW_CACHE_SIZE = 200_000
_ROW_HITS: dict[tuple[str, str], tuple[re.Match[str], ...]] = {}
_ROW_MATCHES: dict[tuple[str, str], bool] = {}


_NOUN_LEAD = frozenset({"the", "block", "blocks", "object", "objects"})


def _facts_after(facts: dict[int, list[FactMention]], toks: list[Token], at: int, words: TaskWords) -> None:
    """The facts of the tokens from `at` on that start there, past skipped words ("are", "is")."""
    rest = toks[at:]
    for m in words.facts(rest):
        if all(t.norm in SKIP for t in rest[:m.i]):
            facts.setdefault(at + m.i, []).append(replace(m, i=at + m.i, j=at + m.j))


def read_unit(unit: Unit, words: TaskWords) -> UnitReading:
    toks = unit.tokens
    acts = {m.i: m for m in words.actions(toks)}
    facts: dict[int, list[FactMention]] = {}
    for m in words.facts(toks):  # a list ("Planet a, b and c") or one object's facts share a start
        facts.setdefault(m.i, []).append(m)
    if acts and facts:
        ends = [(i, max(f.j for f in group)) for i, group in facts.items()]
        for a in list(acts.values()):
            if a.j not in facts and any(a.i < i < a.j < end for i, end in ends):
                _facts_after(facts, toks, a.j, words)  # "The effects of Attack b are Pain b": the fact read
                # from "b are Pain b" took the action's object; read again after the action
    made = {i: (Hit("add" if adds else "del", "add.verb" if adds else "del.verb", i, o), f)
            for i, o, _j, f, adds in words.made_facts(toks) if i not in acts}  # "clears red", "fills my hand"
    cue_hits = lexicon().hits(toks)
    best: dict[int, Hit] = {}
    asks = unit.end == "?"  # "... also does it.": a verdict; "Does it work?": a question

    def rank(h: Hit) -> tuple[int, bool, int]:
        return h.j - h.i, asks or h.cls != "question", -_RANK.get(h.cls, 99)
    for h in cue_hits:
        cur = best.get(h.i)
        if cur is None or rank(h) > rank(cur):
            best[h.i] = h
    if facts and any(h.cls == "question" or (h.cls == "goal_met" and h.j - h.i == 1) for h in best.values()):
        ends = {f.j for group in facts.values() for f in group}
        goal_named = any(h.cls in ("goal", "now", "state") for h in best.values())  # "Now Pain a holds." is
        # read by the state rows as it is
        for i, h in list(best.items()):
            if i in ends and (h.cls == "question" or (h.cls == "goal_met" and not goal_named)):
                # "Pain c is there now.": after its fact "is there" says it holds; "Pain b holds." too,
                # where no goal is named ("the goal holds") and no state word reads the unit
                best[i] = next((y for y in cue_hits if y.i == i and y.j == h.j and y.cls == "yes"), h)
    shape: list[str] = []
    items: list[object] = []
    starts: list[int] = []
    a_list: list[tuple[int, ActionMention]] = []
    f_list: list[tuple[int, FactMention]] = []

    def emit(letter: str, item: object, at: int) -> None:
        starts.append(at)
        shape.append(letter)
        items.append(item)

    k = 0
    while k < len(toks):
        if k in acts:
            m = acts[k]
            a_list.append((len(shape), m))
            emit("A" if m.ground is not None else "a", m, k)
            k = m.j
            continue
        if k in made:
            hit, made_fact = made[k]
            emit(LETTER[hit.cls], hit, k)
            f_list.append((len(shape), made_fact))
            emit("F", made_fact, made_fact.i)
            k = made_fact.j
            continue
        if k in facts:
            while k in facts:
                group = facts[k]
                for n_item, f in enumerate(group):
                    if n_item:
                        emit(",", None, k)  # the list's items, each its own letter
                    f_list.append((len(shape), f))
                    emit("F" if f.atom is not None else "f", f, k)
                end = max(f.j for f in group)
                for h in cue_hits:  # "Red is still under blue", "Blue is now on the table": the cue inside the fact
                    if k < h.i < end and h.cls in ("now", "kept", "must"):
                        emit(LETTER[h.cls], h, h.i)
                        break
                if end == k:
                    break
                k = end
            continue
        h = best.get(k)
        if h is not None:
            if h.cls == "guess" and toks[h.j - 1].norm == "be" and h.j in acts and acts[h.j].form == "ed":
                h = Hit("can", "can.doable", h.i, h.j)  # "Orange could be picked up now": doable, not a guess
            elif h.cls == "question" and h.j - h.i > 1 and shape and (h.j == len(toks) or toks[h.j].norm in _CLAUSE_ENDS):
                said = next((y for y in cue_hits if y.cls == "yes" and y.i == h.i and y.j == h.j), None)
                emit("Y" if said else "~", said, k)  # "Province c and Harmony are there.": they hold; no question
                k = h.j
                continue
            elif toks[h.i].norm == "without" and h.j in acts and acts[h.j].form == "ing":
                emit("~", None, k)  # "pick up red right away, without putting blue down first": how the step is
                emit("~", None, h.j)  # done, no denial; the step left out is neither taken nor claimed
                k = acts[h.j].j
                continue
            elif h.cls == "means" and not shape and toks[k].norm == "so" and toks[h.j - 1].norm in ("can", "could"):
                emit("~", None, k)  # "So I can pick up red right away": a conclusion opening the unit, not the
                h = Hit("can", "can.doable", h.j - 1, h.j)  # purpose of "Unstack blue so I can pick up red"
                k = h.i
            emit(LETTER.get(h.cls, "_"), h, k)
            k = max(h.j, k + 1)
            continue
        t = toks[k]
        if t.norm in _NOUN_LEAD and (k + 1 in facts or k + 2 in facts and toks[k + 1].norm in _NOUN_LEAD):
            k += 1  # "The orange block is clear", "block c is clear": the words the fact's object opens with
            continue
        emit(PUNCT.get(t.norm, "#" if t.kind == "num" else "_"), None, k)
        k += 1
    return UnitReading(unit, "".join(shape), items, a_list, f_list, UnitCues(cue_hits), starts)


_CLAUSE_ENDS = frozenset({".", ",", ";", "!", ":"})
@dataclass
class _Focus:
    """The action the talk is about: named at the head of a recent unit."""

    action: GroundAction
    pre: frozenset[Atom] | None   # the line's state before it (None: unknown)
    line: int
    unit: int
    performed: bool
    proposed: bool
    span: tuple[int, int]
    paragraph: int = -1
    item: bool = False
    shape: str = ""
    needs_listed: bool = False
    judged: bool = False
    rejected: bool = False
    claim_index: int | None = None
    supposed: bool = False  # named as a supposition heading its lists ("If we do Overcome c from b:")

    @property
    def told(self) -> bool:
        """Do the lists after it tell it: a step taken, or one supposed under a heading of its own."""
        return self.performed or self.supposed


@dataclass
class _Heading:
    """A unit ending in ':' and what it makes of the lines under it."""

    kind: str                      # "proposal", "state", "initial", "req", "add", "del", "after", "plan"
    paragraph: int
    unit: int
    action: GroundAction | None = None
    rules: tuple[str, ...] = ()
    opened: int = -1  # the paragraph it stands in (`paragraph` moves on with the fact lines under it)
    by_lines: bool = False  # it heads fact lines in paragraphs of their own
    opens_now: bool = False  # it opens with a time word for now ("Now, current state:"; row state.now_opens)

    def __post_init__(self) -> None:
        if self.opened < 0:
            self.opened = self.paragraph


@dataclass
class _Run:
    book: Lines  # the lines of reasoning and the events that made them (lines.py)
    claims: list[Claim] = field(default_factory=list)
    item_base: int | None = None
    focus: _Focus | None = None
    heading: _Heading | None = None
    roots: dict[int, Claim] = field(default_factory=dict)       # line id -> its first false claim
    said: dict[tuple, Claim] = field(default_factory=dict)      # repeated false claims -> the first
    last_list_number: int | None = None
    list_start: tuple[int, int, int] | None = None  # the numbered list: (line id, its actions then, last item seen)
    step_named: dict[int, GroundAction] = field(default_factory=dict)  # "step 2 is Succumb b"
    moved: dict[int, int] = field(default_factory=dict)  # line id -> paragraph where it last moved
    branch_doubt: tuple[int, int] | None = None  # (line id, paragraph) of an 'Alternatively' branch in doubt
    described: tuple[GroundAction, int, int] | None = None  # (action, unit, paragraph): "Succumb b adds ..." not taken
    told_before: tuple[GroundAction, int, int] | None = None  # `described` as it stood before this unit
    binding: tuple[str, dict[str, str], int] | None = None  # "Let's say Feast x from y": (action, var -> param, paragraph)
    bound_end: int = -1  # where the unit that last bound variables ends
    needs_of: tuple[int, "_Focus"] | None = None  # (paragraph, step): a paragraph that opens with "Pre: ..." under the step
    initial_paragraph: tuple[int, int] | None = None  # (paragraph, events then): it opens on the initial state
    after_heading: tuple[GroundAction, int, str] | None = None  # "After Feast c from a:", the unit it was last read
    # at, and the heading's row
    said_now: tuple[int, int, int] | None = None  # (paragraph, line id, its actions then): "so right now, blue is on red."
    said_init: tuple[int, int, int] | None = None  # the same for a paragraph that laid out the initial state
    last_recall: tuple[int, LineOfReasoning, int] | None = None  # (unit, the past state's line, paragraph)
    tag_run: tuple[int, int] | None = None  # (focus unit, last unit) of a run of need checks ("Province c - yes.")
    need_run: tuple[int, int] | None = None  # (focus unit, last unit) of the step's needs listed, then checked one by one
    telling: int | None = None  # the last unit of an unbroken run telling the step in focus (row effect.told)
    telling_bullet: tuple[int, int, "_Focus"] | None = None  # (indent, unit, focus) of the last bullet that told it
    recalled: tuple[int, int, int] | None = None  # the same, of a paragraph that went back to a past state of the line
    recalled_state: frozenset[Atom] | None = None  # that past state (None: unknown)
    recalled_unit: int = -1  # the unit that recalled it
    quiet_since_recall: bool = True  # no action named in the units after it (the paragraph did not walk on from it)
    before: "UnitReading | None" = None  # the unit read just before this one
    made_atoms: frozenset[Atom] = frozenset()  # facts the unit says a verb makes ("clears red"): judged leniently
    loose_end: int = -1  # where the last unit ends that names an action with objects the reader could not
    # bind ("pick up orange and stack it on red"): the line in force may lack a step the text took
    listed: tuple[GroundAction, int] | None = None  # (action, unit): the last unit of a run listing an action's
    # needs and effects ("Action 3: Attack a." "Needs ...", "Adds Pain.", "Removes ..."; row effect.listed)

    def recall(self, paragraph: int, line: LineOfReasoning, past: LineOfReasoning, unit: int, quiet: bool) -> None:
        """The paragraph went back to `past`, a state of `line` before its last steps: what it says
        after may speak of either (row state.both_readings)."""
        self.recalled = (paragraph, line.id, len(line.actions))
        self.recalled_state = past.state if past.known else None
        self.recalled_unit = unit
        self.quiet_since_recall = quiet

    def recalled_past(self, line: LineOfReasoning) -> frozenset[Atom] | None:
        """The past state the paragraph recalled, for a claim that may speak of it or of the line's
        state (row state.both_readings): None when either is unknown or the paragraph has named a
        step since the recall (it may have walked on from there)."""
        if self.recalled_state is None or not line.known or not line.actions or not self.quiet_since_recall:
            return None
        return self.recalled_state

    @property
    def lines(self) -> list[LineOfReasoning]:
        return self.book.lines

    @property
    def line_at(self) -> list[tuple[int, int]]:
        return self.book.line_at


class ClaimReader:
    """Reads and judges the claims of a trace. One reader serves every trace of a problem
    (`for_task`); `read` keeps nothing on the reader between traces."""

    @classmethod
    def for_task(cls, task: Task, vocab: Vocabulary) -> "ClaimReader":
        key = ("claim_reader_v2", vocab.name)
        got = task.memo.get(key)
        if got is None:
            got = task.memo[key] = cls(task, vocab)
        return got

    def __init__(self, task: Task, vocab: Vocabulary) -> None:
        self.task = task
        self.vocab = vocab
        self.words = TaskWords.of(task, vocab)
        self.init = task.problem.init
        self.judge = J.Judge(task, vocab)
        self._memo: dict[tuple[str, ...], UnitReading] = {}
        self.variables = tuple(v for v in VARIABLES if v not in task.objects)
        self._var_words: TaskWords | None = None

    def _read_unit(self, u: Unit) -> UnitReading:
        """`read_unit`, remembered by the unit's words: traces repeat the same sentences ("Yes.",
        "Harmony (yes)"), and a unit's reading depends on its tokens alone."""
        key = tuple(t.norm for t in u.tokens)
        hit = self._memo.get(key)
        if hit is None:
            if len(self._memo) > 50_000:
                self._memo.clear()
            hit = self._memo[key] = read_unit(u, self.words)
            return hit
        return UnitReading(u, hit.shape, hit.items, hit.actions, hit.facts, hit.cues, hit.starts)

    def _words_with_variables(self) -> TaskWords:
        """The task's words, and the letters x, y, z (no object of the task) as objects of their
        own: "Feast x from y", "Pain y", "object x's craving"."""
        if self._var_words is None:
            objects = {**self.task.problem.objects, **{v: "object" for v in self.variables}}
            task = Task(self.task.domain, replace(self.task.problem, objects=objects))
            self._var_words = TaskWords._build(task, self.vocab)
        return self._var_words

    def _bound_rules(self, run: _Run, u: Unit, modality: str, line: LineOfReasoning, text: str) -> None:
        """Rules stated with variables (row rule.bound): an action named with variables binds
        them to its parameters for the rest of the paragraph, and the facts of variables that
        the unit says it adds, removes or needs are rule claims about that action."""
        if run.binding is not None and run.binding[2] != u.paragraph:
            run.binding = None
        it = run.binding is not None and bool(u.tokens) and u.tokens[0].norm == "it" \
            and not text[run.bound_end:u.span[0]].strip()  # "It also needs Harmony" right after the unit binding it
        if not it and not any(t.norm in self.variables for t in u.tokens):
            return
        vr = read_unit(u, self._words_with_variables())
        bound_at: list[tuple[int, tuple[str, dict[str, str], int]]] = []  # (letter, binding from there on)
        for at, m in vr.actions:
            if m.args and all(a in self.variables for a in m.args) and len(set(m.args)) == len(m.args):
                params = self.task.domain.actions[m.name].params
                bound_at.append((at, (m.name, dict(zip(m.args, params)), u.paragraph)))
        before = run.binding
        if bound_at:
            run.binding = bound_at[-1][1]
            run.bound_end = u.span[1]
        if modality not in ("asserted", "proposed", "hypothetical"):  # a rule is one wherever it stands
            return

        def binding_at(k: int) -> tuple[str, dict[str, str], int] | None:
            """The action named with variables nearest before letter k ("if you Attack X, you get
            Pain X, then you can Succumb X": Pain X is Attack's)."""
            got, since = before, -1
            for at, b in bound_at:
                if at < k:
                    got, since = b, at
            if got is not None and any(since < at < k and m.name != got[0] for at, m in vr.actions):
                return None  # "Overcome X from Y requires ... . Perhaps the Attack action is on an object X, and
                # requires that X is a Province": another action named since the binding speaks of its own X
            return got

        s = vr.shape
        groups = _cue_groups(s, -1, "F")
        need = s.find("R")
        if need >= 0:
            groups.append((need, "req", [k for k in range(need + 1, len(s)) if s[k] == "F"
                                         and not any(k in g[2] for g in groups)]))
        for c, what, ks in groups:
            if ks and c > max(ks) and c < len(vr.starts) and vr.starts[c] > 0 \
                    and vr.unit.tokens[vr.starts[c] - 1].norm in _SINGULAR:
                ks = [max(ks)]  # "..., Harmony, and Pain X is removed": the verb agrees with the last item only
            for k in ks:
                f = vr.items[k]
                binding = binding_at(min(k, c))
                if binding is None or not isinstance(f, FactMention) or f.atom is None or (len(f.atom) < 2 and not it):
                    continue  # a fact of no objects names no variable: only "it" says whose rule it is
                name, bind, _ = binding
                if _denied(s, k):
                    continue
                free = [a for a in f.atom[1:] if a not in bind]
                if free and (any(a not in self.variables for a in free)
                             or any(a in m.args for _, m in vr.actions for a in free)):
                    continue  # an object named, or a variable another action of the unit binds
                names = {p: v for v, p in bind.items()}
                # a variable no action binds ("Succumb X needs Pain Y") stands for an object other than
                # the action's: it matches none of its parameters
                names.update({f"?{a}": a for a in free})
                holds, msg = J.bound_rule(self.task, name, f.atom, tuple(bind.get(a, f"?{a}") for a in f.atom[1:]),
                                          what, names)
                self._add(run, Claim("rule", u.span, u.text(text), holds, msg, line.id,
                                     atom=f.atom, rules=("rule.bound",), modality=modality))

    def _role_rules(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str) -> None:
        """Row rule.role: facts a rule gives to a role ("another object must be a Planet"), for the one
        action the unit names without objects (role_rules.py)."""
        names = {m.name for _, m in ur.actions if m.ground is None and not any(m.args)}
        if len(names) != 1:
            return
        toks = ur.unit.tokens
        phrases = [" ".join(t.norm for t in toks[h.i:h.j]) if ch == "g" and isinstance(h, Hit)
                   else toks[ur.starts[k]].norm if ch == "_" and k < len(ur.starts) else None
                   for k, (ch, h) in enumerate(zip(ur.shape, ur.items))]  # a "_" keeps its word ("Pain of the object")
        sense = "req" if ("R" in ur.shape or any(t.norm == "must" for t in toks)) \
            and not any(ch in ur.shape for ch in "DX") else None
        for _k, got in role_rules(self.task, ur.shape, ur.items, phrases, names.pop(), sense):
            self._add(run, Claim("rule", ur.unit.span, ur.unit.text(text), got.holds, got.message, line.id,
                                 rules=("rule.role",), modality="asserted"))

    @staticmethod
    def _told_makes_it(run: _Run, u: Unit, n: int, atom: Atom, positive: bool) -> bool:
        """Did the unit just before tell what an action does (not taking it), and would that action
        make this fact so?"""
        told = run.told_before
        if told is None or n - told[1] != 1 or told[2] != u.paragraph:
            return False
        return atom in (told[0].add if positive else told[0].delete)

    def _answered(self, run: _Run, q: UnitReading, a: UnitReading, n: int, line: LineOfReasoning, text: str) -> None:
        """A question the next unit answers with a bare yes or no (row state.answered, app.answered):
        "Is Harmony still there? Yes." says Harmony holds; "Can I Attack b now? No." says Attack b
        cannot be done. Judged in the line's state, as the same words said without the question
        would be; a question that denies ("Isn't ...") or names more than one fact or action is not read."""
        u = q.unit
        answer = BY_ID["state.answered"].regex.match(a.shape)
        if answer is None or a.unit.paragraph != u.paragraph or not line.known \
                or re.search("[nNIHGKBXDRTJ]", q.shape) \
                or u.paragraph - run.moved.get(line.id, u.paragraph) > ANCHOR_PARAGRAPHS:
            return
        yes = answer.group("ans") == "Y"
        span = (u.span[0], a.unit.span[1])
        words = text[span[0]:span[1]]
        where = "after " + ", ".join(x.text() for x in line.actions) if line.actions else "in the initial state"
        grounded = [m for _, m in q.actions if m.ground is not None]
        facts = [f for _, f in q.facts if f.atom is not None]
        if len(grounded) == 1 and not facts and len(q.actions) == 1 and ("C" in q.shape or q.shape.lstrip("~,").startswith("Q")):
            act = grounded[0].ground
            holds, msg = self.judge.applicable(act, line.state, yes)
            if holds is False and yes and not _now_said(q) and any(not unmet_preconditions(act, st) for st in line.states[:-1]):
                holds, msg = None, (f"{act.text()} can be done in an earlier state of the line: the question may "
                                    "be about that state")
            self._add(run, Claim("applicability", span, words, holds, msg, line.id, negative=not yes,
                                 state=_atoms(line.state), rules=("app.answered",), modality="asserted",
                                 action=act.text()))
            return
        if q.actions or len(facts) != 1:
            return
        f = facts[0]
        positive = yes != bool(f.absent_word)
        focus = run.focus
        state = line.state
        if focus is not None and focus.pre is not None and focus.paragraph == u.paragraph and n - focus.unit <= STATE_REACH \
                and f.atom in {lit.atom for lit in focus.action.pre}:
            state, where = focus.pre, f"before {focus.action.text()}"  # "Step 1: Unstack Blue from Red. Is Blue on
            # top of Red? Yes. Is Blue clear? Yes.": the needs of the step just named, checked one by one
        holds, msg = self.judge.state(state, f.atom, positive, where)
        if state is line.state and focus is not None and focus.performed and focus.pre is not None and n - focus.unit <= 1 \
                and focus.paragraph == u.paragraph and line.actions and line.actions[-1] == focus.action \
                and not holds and self.judge.state(focus.pre, f.atom, positive, "")[0]:
            holds, msg = None, (f"true before {focus.action.text()}, false after it: which of the two states the "
                                "question asks of is not said")
        elif state is not line.state and focus is not None and focus.performed and not holds and line.actions \
                and line.actions[-1] == focus.action and self.judge.state(line.state, f.atom, positive, "")[0]:
            holds, msg = None, (f"false before {focus.action.text()}, true after it: which of the two states the "
                                "question asks of is not said")  # "Attack b. Is Harmony true? No."
        self._add(run, Claim("state", span, words, holds, msg, line.id, atom=f.atom, negative=not positive,
                             state=_atoms(state), rules=("state.answered",), modality="asserted",
                             after=line.actions[-1].text() if line.actions else None))

    @staticmethod
    def _named_step_pre(run: _Run, line: LineOfReasoning, ur: UnitReading,
                        ground: GroundAction) -> frozenset[Atom] | None:
        """The state before the list's step k that the unit names with its action ("step 3 is Feast b
        from a"), or None when the line's step k is another action or its state is not known."""
        named = _STEP_NAMED.search(ur.shape)
        k_named = ur.number_at(named.start() + 1) if named is not None else None
        at = run.item_base + k_named - 1 if k_named is not None and run.item_base is not None else -1
        if 0 <= at < len(line.actions) and line.actions[at] == ground and line.known_at(at):
            return line.states[at]
        return None

    def _with_variables(self, ur: UnitReading) -> bool:
        """Does the unit name an action with rule variables ("Overcome X from Y")? Then it states
        the rule, not a step or a time on the line."""
        toks = ur.unit.tokens
        return any(m.ground is None and m.j < len(toks) and toks[m.j].norm in self.variables for _, m in ur.actions)

    def _it_read(self, ur: UnitReading, line: LineOfReasoning) -> UnitReading | None:
        """A unit naming no action whole but "it" ("Then stack it on orange"): read again with "it"
        as the object of the line's last action, in the words the task uses for it; kept only when
        it then names one action, whole, that can be done where the line is (a wrong reading must
        not make a claim). None: it then names an action that cannot be done there, so "it" is
        something else and the step is unread."""
        last = line.actions[-1]
        if not last.args:
            return ur
        obj = next((key for key, o in self.words.objects.items() if o == last.args[0]), None)
        if obj is None:
            return ur
        u = ur.unit
        toks = []
        for t in u.tokens:
            if t.norm == "it":
                toks.extend(Token(t.start, t.end, w, "word") for w in obj)
            else:
                toks.append(t)
        again = read_unit(replace(u, tokens=toks), self.words)
        grounded = [m for _, m in again.actions if m.ground is not None]
        if len(again.actions) != 1 or len(grounded) != 1:
            return ur
        if unmet_preconditions(grounded[0].ground, line.state):
            return None  # "Red is clear. Pick it up.": "it" is not that object; an action we cannot read
        return again

    def _completed(self, ur: UnitReading, line: LineOfReasoning) -> UnitReading:
        """A unit whose one action is named with some of its objects ("unstack blue", "after putting
        red down"), read with that action whole when the line leaves one binding: the line's last
        action, for a done form or after "after" ("after unstacking blue, I hold it"); else the one
        binding that can be done in the line's state. Otherwise (none, several, or a task too big to
        ground) the unit is kept as read (row event.completed)."""
        k, m = ur.actions[0]
        if not any(a is not None for a in m.args) or more_ground_actions_than(self.task, _GROUNDING_LIMIT):
            return ur
        last = line.actions[-1] if line.actions else None
        fits_last = last is not None and last.name == m.name and len(last.args) == len(m.args) \
            and all(a is None or a == b for a, b in zip(m.args, last.args))
        if fits_last and (m.form != "base" or "T" in ur.shape[:k]):
            ground = last
        else:
            fits = [g for g in ground_all(self.task) if g.name == m.name and len(g.args) == len(m.args)
                    and all(a is None or a == b for a, b in zip(m.args, g.args))]
            doable = [g for g in fits if not unmet_preconditions(g, line.state)]
            if len(doable) != 1:
                return ur
            ground = doable[0]
        whole = replace(m, args=tuple(ground.args), ground=ground)
        items = list(ur.items)
        items[k] = whole
        return replace(ur, shape=ur.shape[:k] + "A" + ur.shape[k + 1:], items=items, actions=[(k, whole)])

    def _shared_verb(self, ur: UnitReading, line: LineOfReasoning) -> UnitReading:
        """A verb two actions share, said with the objects of the one that takes fewer ("lift {}" is
        pick-up, "lift {} off {}" unstack): "Lifting blue makes red clear." right after "Unstack blue
        from red." speaks of that unstack. The other action is taken when the line completes it (its
        last action, for a done form, or its one doable binding) and the action as named is not
        doable there or is not the step just taken; otherwise the unit keeps its reading (row
        event.shared_verb)."""
        k, m = ur.actions[0]
        other = m.shared
        assert other is not None
        items = list(ur.items)
        items[k] = other
        alt = replace(ur, shape=ur.shape[:k] + "a" + ur.shape[k + 1:], items=items, actions=[(k, other)])
        done = self._completed(alt, line)
        if done is alt:
            return ur
        taken = done.actions[0][1].ground
        last = line.actions[-1] if line.actions else None
        if m.ground is not None and taken != last and not unmet_preconditions(m.ground, line.state):
            return ur
        return done

    # -- lines ---------------------------------------------------------------------------------
    @staticmethod
    def _new_line(run: _Run, pos: int, rule: str = "") -> LineOfReasoning:
        return run.book.new_line(pos, rule)

    @staticmethod
    def _fork(run: _Run, line: LineOfReasoning, keep: int, pos: int, rule: str = "") -> LineOfReasoning:
        return run.book.fork(line, keep, pos, rule)

    @staticmethod
    def _perform(run: _Run, line: LineOfReasoning, action: GroundAction, pos: int, listed: bool, rule: str = "",
                 item: int | None = None) -> None:
        run.book.perform(line, action, pos, listed, rule, item)

    # -- reading -------------------------------------------------------------------------------
    def read(self, text: str, verdicts: Sequence[tuple[int, int, bool, str]] = (),
             step_spans: Sequence[tuple[int, int]] = (), reading: Reading | None = None) -> ClaimReport:
        reading = reading or read_text(text, step_spans)
        units = reading.units
        run = _Run(Lines(self.init))
        line = self._new_line(run, 0)
        readings = [self._read_unit(u) for u in units]
        next_verdict = 0
        prev_modality = "asserted"
        hedged = -1  # the last paragraph with a hedge or a guess: a supposition there goes on guessing
        pending_can: tuple[str, int] | None = None
        pending_some: tuple[str, int] | None = None
        for n, ur in enumerate(readings):
            u = ur.unit
            if n == 0 or readings[n - 1].unit.paragraph != u.paragraph:
                f0 = run.focus
                run.needs_of = (u.paragraph, f0) if _NEEDS_LABEL.match(ur.shape) and f0 is not None and f0.performed \
                    and f0.paragraph == u.paragraph - 1 and f0.pre is not None else None
                run.initial_paragraph = (u.paragraph, len(run.book.events)) if "Z" in ur.shape and not ur.actions else None
            if line.actions and line.known and all(m.ground is None for _, m in ur.actions) \
                    and any(t.norm == "it" for t in u.tokens):
                it_read = self._it_read(ur, line)  # "Unstack blue from red. Then put it down."
                if it_read is None:
                    run.book.lose(line, u.span[0], "event.it")
                else:
                    ur = it_read
                    u = ur.unit
            if line.known and len(ur.actions) == 1 and ur.actions[0][1].ground is None \
                    and (the_step := _the_step_named(ur, line, run.focus, u.paragraph)) is not None:
                ur = the_step  # "Attack a. The Attack removes Planet b too.": the step just taken, named by a noun
            elif line.known and len(ur.actions) == 1 and ur.actions[0][1].ground is None:
                ur = self._completed(ur, line)  # "after unstacking blue", "so I can unstack blue": the one binding
            elif line.known and len(ur.actions) == 1 and ur.actions[0][1].shared is not None:
                ur = self._shared_verb(ur, line)  # "Unstack blue from red. Lifting blue makes red clear."
            ur = _as_label(ur)  # "The effects are Pain a and Province b.": as "Effects: Pain a and Province b."
            ur = _without_asides(ur)  # "Province a, however, stays.": as "Province a stays."
            if any(m.ground is None and (any(a is not None for a in m.args)
                                         or (m.j < len(u.tokens) and u.tokens[m.j].norm in ("it", "them")))
                   for _, m in ur.actions):
                run.loose_end = u.span[1]  # "and stack it on red": a step the line may lack
            shape = ur.shape
            modality = _modality(ur, run.heading, u)
            if n and u.tokens and u.tokens[0].norm == ")" and readings[n - 1].unit.end == "?":
                modality = "questioned"  # "Pain (object?) is true, and Planet is false.": the sentence goes on after
                # the query its "?" cut off; which object it means is what it asks
            if modality == "asserted" and n and readings[n - 1].unit.paragraph == u.paragraph \
                    and prev_modality == "hypothetical" and not ur.rows("event.perform") and not _REASONED.match(shape) \
                    and not (hedged != u.paragraph and ur.actions and all(m.ground is None for _, m in ur.actions)
                             and any(ur.matches(r) for r in (*RULE_ROWS, "rule.only"))):
                modality = "hypothetical"  # "Suppose I Attack a. After that, Pain a is there": the supposition goes on;
                # "Since after Feast, Province is c and Pain exists, we can do X" checks it: an assertion. A rule
                # of no object ("Also, unstacking A from B is only allowed when ...") after a supposition of a step ("So if
                # I stack block A onto block B, ...") speaks of the schema; after a hedge ("Wait, perhaps the Attack
                # action's prerequisites are ...") it goes on guessing
            if "H" in shape or "G" in shape:
                hedged = u.paragraph
            prev_modality = modality
            if modality == "asserted" and ("V" in shape or "L" in shape or _REACHES_GOAL.search(shape)):
                self._inline_plan(run, ur, line, text)
            elif modality == "asserted" and (result := _PLAN_RESULT.search(shape)) is not None:
                self._plan_result(run, ur, result, line, line.state if line.known and line.actions else None, text)
                # (read before the unit's own steps are taken: the line's state is where the sentence starts)
            # headings govern the lines under them until the paragraph ends
            lone = not (u.bullet or u.item is not None or u.indent)  # bullets and items under a heading are its lines anyway
            if run.heading is not None and (lone or u.bullet) and u.paragraph == run.heading.paragraph + 1 \
                    and (run.heading.kind in _STATE_HEADINGS or (u.bullet and run.heading.kind in _LIST_HEADINGS)) \
                    and _FACT_LINE.match(shape) and n != run.heading.unit:
                run.heading.paragraph = u.paragraph  # "So after Attack c, we have:" over "Harmony: No." and "Pain c:
                run.heading.by_lines = lone  # Yes." (or "- Planets: a, c.") a line each, blank lines between
            elif run.heading is not None and run.heading.by_lines and lone and u.paragraph == run.heading.paragraph \
                    and n != run.heading.unit and not _FACT_LINE.match(shape):
                run.heading = None  # a paragraph that goes on past its facts is no line under the heading
            if run.heading is not None and (u.paragraph != run.heading.paragraph or n == run.heading.unit):
                if n != run.heading.unit and not (u.bullet or u.item is not None or u.indent) \
                        and u.paragraph != run.heading.paragraph:
                    if run.heading.kind == "initial" and line.actions and modality == "asserted" \
                            and line.last < readings[run.heading.unit].unit.span[0]:
                        line = self._new_line(run, u.span[0], "heading.initial")  # the initial state laid out
                        run.item_base = None  # again: what follows walks from it
                    run.heading = None
                elif u.paragraph != run.heading.paragraph and u.paragraph > run.heading.paragraph + 1:
                    run.heading = None
            # -- line events
            head = ur.rows("event.perform")
            head_rule = "event.perform"
            lose_after = False
            if not head and modality == "proposed" and (nxt := ur.rows("event.step_proposed")):
                head, head_rule = nxt, "event.step_proposed"
            if not head and modality in ("asserted", "proposed") and (walk := ur.rows("event.from_initial")):
                head, head_rule = walk, "event.from_initial"  # "Initial state: Attack a → Pain a, ...": a walk from
                line = self._new_line(run, u.span[0], "event.from_initial")  # the initial state, a new line
                run.item_base = None
            if not head and (u.bullet or u.item is not None):
                head, head_rule = ur.rows("event.bullet_step"), "event.bullet_step"
            if not head and modality == "asserted" and u.item is None:
                can = ur.rows("event.can_perform")
                m_can: ActionMention | None = ur.items[can[0].start("act")] if can else None  # type: ignore[assignment]
                if m_can is not None and line.known and not unmet_preconditions(m_can.ground, line.state):  # type: ignore[arg-type]
                    head, head_rule = can, "event.can_perform"
                elif m_can is not None and "W" not in shape and not (line.actions and line.actions[-1] == m_can.ground):
                    # "The first step would be to unstack blue ... So I can unstack blue": the step just taken, named again
                    run.book.lose(line, u.span[0], "event.can_perform")  # with "now" ("Now I can stack blue on red") it is a claim about now, judged
            if head and head_rule == "event.perform" and u.item is None and not u.bullet \
                    and re.match(r"\)?[~_]{0,2}C", shape[head[0].end():]) and line.known \
                    and (m_head := ur.items[head[0].start("act")]).ground is not None \
                    and unmet_preconditions(m_head.ground, line.state) \
                    and m_head.ground not in line.actions \
                    and all(unmet_preconditions(m_head.ground, st) for st in line.states[:-1]):  # type: ignore[union-attr]
                # (one the line took is a step back; one an earlier state allows may be a silent return there)
                head = []  # "Feast b from c could be done now.", not doable there: a claim about the step, judged as
                run.focus = _Focus(m_head.ground, line.state, line.id, n, False, False, u.span,  # type: ignore[arg-type]
                                   paragraph=u.paragraph)  # of the step in focus, and not a step taken; the text
                lose_after = True  # may go on as if it were: the line is lost after it
            if head and "M" in shape[:head[0].start("act")] and u.item is None \
                    and not re.match(r"\)?\(J#\)", shape[head[0].end():]):
                head = []  # "To get Pain a, Attack a.": a means, in prose; "(step 3)" or an item makes it a step
            head_act = head[0].group("act") if head else None
            head_m: ActionMention | None = ur.items[head[0].start("act")] if head else None  # type: ignore[assignment]
            actions_before, line_before = len(line.actions), line.id
            if ur.matches("event.restart") and u.item is None:
                line = self._new_line(run, u.span[0], "event.restart")
                run.item_base = None
            if u.item == 1 and head_m is not None:
                line = self._new_line(run, u.span[0], "item")
                run.item_base = 0
            elif u.item == 1 and not ur.actions:
                run.item_base = None
                if ur.matches("event.initial_item") and modality == "asserted":
                    line = self._new_line(run, u.span[0], "event.initial_item")
            elif u.item is not None and u.item > 1 and head_m is not None and run.item_base is not None:
                keep = run.item_base + u.item - 1
                extra = line.actions[keep:]
                if extra and line.known and line.known_at(keep) and head_m.ground is not None \
                        and not any(line.from_item[keep:]) \
                        and not unmet_preconditions(head_m.ground, line.state) \
                        and unmet_preconditions(head_m.ground, line.states[keep]):
                    run.item_base += len(extra)  # "Step 2: ... So Attack a: ... Step 3: Overcome a from b",
                    # which needs the Attack: an unnumbered step between items, kept (event.unnumbered_step)
                elif len(line.actions) > keep:
                    line = self._fork(run, line, keep, u.span[0])
                elif len(line.actions) < keep:
                    run.book.lose(line, u.span[0], "item")
            if u.item is not None:
                if u.item == 1:
                    run.list_start = (line.id, len(line.actions), 1)
                elif run.list_start is not None and u.item == run.list_start[2] + 1:
                    run.list_start = (run.list_start[0], run.list_start[1], u.item)
            recall: LineOfReasoning | None = None
            for named in _STEP_NAMED.finditer(shape):
                k_named = ur.number_at(named.start() + 1)
                m_named: ActionMention = ur.items[named.end() - 1]  # type: ignore[assignment]
                if k_named is not None and m_named.ground is not None:
                    run.step_named[k_named] = m_named.ground
            if u.item == 1:
                run.step_named = {}
            recap = _RECAP.match(shape) or _state_after_step(ur)
            if recap is not None and modality in ("asserted", "proposed"):
                k_recap = ur.number_at(recap.end() - 1)
                at_k = self._recap(run, line, k_recap, ur)
                names = _STEP_NAMED.match(shape, recap.end() - 2)  # "After step 1 (Feast b from a):" names the step
                steps = [(i, m) for i, m in ur.actions if i > recap.end() and m.ground is not None
                         and not (names is not None and i == names.end() - 1)
                         and not any(ch in shape[recap.end():i] for ch in "RMI")]
                # "So, after step 1, we need to restore Harmony to Feast b from c": a purpose, not the branch's step
                reached = at_k.actions[-1] if at_k is not None and at_k.actions else None
                steps = [(i, m) for i, m in steps if m.ground != reached]  # "After step 2, Succumb c added Planet
                # c", "after step 3, Pain b (from Attack b)": the step the recap reached, named again (taking it
                # twice is no reading anyone means)
                branch = steps[0][1] if steps else None
                if any(_EFFECT_LEAD.match(shape, i + 1) for i, _ in steps):
                    at_k, branch = None, None  # what another step did ("after step 3, ... Wait, after step 1:
                    # Feast c from a adds ..."): the text is back at that step, a state we do not place
                if at_k is not None and k_recap is not None and _another_step_k(run, at_k, k_recap, ur):
                    at_k = None  # "After step 3 (state: ...)": the state restated is another list's step 3
                    run.item_base, run.list_start = None, None  # and its next items are no steps of the line
                if at_k is None:
                    run.book.lose(line, u.span[0], "recap")
                elif branch is not None:  # "Alternatively, after step 1, Succumb c.": a new line from step 1
                    line = at_k
                    self._perform(run, line, branch.ground, u.span[1], False, "recap")  # type: ignore[arg-type]
                    run.moved[line.id] = u.paragraph
                elif at_k.id != line.id and (_RECAP_HEADING.match(shape)
                                             or (_STATE_AFTER_STEP.match(shape) and shape.endswith(":"))):
                    line = at_k  # "After step 6:" over the state and the checks that follow: the text is there now
                    run.moved[line.id] = u.paragraph
                elif at_k.id != line.id:
                    recall = at_k  # "So after step 1, Province a is there.": that state, for this unit, and
                    run.recall(u.paragraph, line, at_k, n, True)  # the paragraph's "so ..." after it may speak of either
            vague = _vague_time(ur, line)
            general = ("g" in shape and any(ur.matches(r) for r in RULE_ROWS)) or self._with_variables(ur) \
                or (vague >= 0 and shape[vague + 1:vague + 2] == "a" and "f" in shape and not re.search("[FA]", shape))
            # ("After Attack, Pain is set.": facts named without objects after an action named so: the rule)
            # "After Overcome, it sets Harmony ... and the object craves the other object", "after Overcome X
            # from Y, Harmony is set": what the action does, no time on the line
            if vague >= 0 and modality == "asserted" and all(k > vague for k, _ in ur.facts) and not general:
                run.book.lose(line, u.span[0], "vague_time")  # "After the initial Attack and Succumb, we have ...": a state we cannot place
            after = ur.rows("event.after")
            if after:
                chain = [after[0].start("act")]
                while (more := _CHAIN.match(shape, chain[-1] + 1)) is not None \
                        and ("&" in more.group() or shape[more.end():more.end() + 1] in (",", "&")):
                    chain.append(more.start(1))  # "after Attack b and Overcome b from c": after the last of them;
                    # "after Attack c, Succumb c to get ...": the second is the sentence's own step, no link
                here = line
                opens = re.search(r"[FfYNDXRS]", shape[:chain[0]]) is None  # "After X, ...", not "... hold after X"
                for at in chain:
                    m_after: ActionMention = ur.items[at]  # type: ignore[assignment]
                    here = self._after(run, here, m_after.ground, u, opens)  # type: ignore[arg-type]
                if here.id != line.id and len(here.actions) < len(line.actions) and here.id == len(run.lines) - 1 \
                        and line.actions[:len(here.actions)] == here.actions and ur.cues.first("branch", 0, 2) is None:
                    recall = here  # "Yes, after putting down red, it's clear.": a past state, for this unit only;
                    # "Alternatively, after Feast a from b, ..." turns back to it: the line goes on from there
                    run.recall(u.paragraph, line, here, n, len(ur.actions) <= len(chain))  # "after X, we have to put
                    # red down": walks on
                else:
                    line = here
            described = bool(head) and re.match(r"[\)]?>?(?:,[_~]{1,4},)?[_~]{0,1}[DXRk]", shape[head[0].end():]) is not None \
                and u.item is None and not u.bullet  # "Attack b removes Planet b", "Attack b -> needs ...": what it does, not a step taken
            described = described or (bool(head) and u.item is None and not u.bullet and _would_be_possible(ur, head[0].end()))
            performs = (head_m is not None and head_act and modality in ("asserted", "proposed") and not described
                        and not ur.cues.has("cant") and not after and "I" not in shape[:head[0].start("act")]
                        and re.search(r"[,~]N[.!]?$", shape) is None)  # "Overcome a from b: Requires ..., so no."
            if performs and pending_can is not None and head_m is not None and head_m.name == pending_can[0] \
                    and n - pending_can[1] <= 1 and line.known:
                holds, msg = self.judge.applicable(head_m.ground, line.state, True)  # type: ignore[arg-type]
                self._add(run, Claim("applicability", readings[pending_can[1]].unit.span,
                                     readings[pending_can[1]].unit.text(text), holds, msg, line.id,
                                     state=_atoms(line.state), rules=("app.can_unnamed",), modality="asserted",
                                     action=head_m.ground.text()))  # type: ignore[union-attr]
            pending_can = None
            if modality == "asserted" and BY_ID["app.can_unnamed"].regex.search(shape):
                pending_can = (next(m for _, m in ur.actions if m.ground is None).name, n)
            if pending_some is not None:
                if n - pending_some[1] == 1 and u.paragraph == readings[pending_some[1]].unit.paragraph \
                        and BY_ID["app.all_present"].regex.search(shape) and line.known:
                    holds, msg = self.judge.some_applicable(pending_some[0], line.state)
                    first = readings[pending_some[1]].unit
                    self._add(run, Claim("applicability", (first.span[0], u.span[1]), text[first.span[0]:u.span[1]],
                                         holds, msg, line.id, state=_atoms(line.state), rules=("app.some_needs", "app.all_present"),
                                         modality="asserted"))
                pending_some = None
            if modality == "asserted" and BY_ID["app.some_needs"].regex.search(shape):
                pending_some = (next(m for _, m in ur.actions if m.ground is None).name, n)
            if performs:
                assert head_m is not None and head_m.ground is not None
                ground = head_m.ground
                pre = line.state if line.known else None
                if line.known and unmet_preconditions(ground, line.state):
                    named_k = re.match(r"\)?\(J#\)", shape[head[0].end():])
                    k_named = ur.number_at(head[0].end() + named_k.end() - 2) if named_k else None
                    source = _line_with_step(run.lines, ground, k_named, self.init) if k_named else None
                    if source is not None:  # "So unstack red from orange (step 3)": step 3 of the walk it names
                        if source.known_at(k_named - 1):  # type: ignore[operator]
                            line = self._fork(run, source, k_named - 1, u.span[0], "event.step_named")  # type: ignore[operator]
                        else:  # its state was lost after the steps: they are walked again from the start
                            line = self._new_line(run, u.span[0], "event.step_named")
                            for done in source.actions[:k_named - 1]:  # type: ignore[operator]
                                self._perform(run, line, done, u.span[0], False, "event.step_named")
                        pre = line.state
                if line.known and unmet_preconditions(ground, line.state) \
                        and not (ground not in line.actions and "J" not in shape
                                 and _says_now(ur, head[0].start("act"), line, text, u)):
                    walk_at = run.item_base + u.item - 1 if u.item is not None and run.item_base is not None else None
                    back = run.book.step_back(line, ground, u.span[0], head_rule, walk_at)
                    if back is not None:
                        line = back
                        pre = line.state
                again = bool(line.actions) and line.actions[-1] == ground and run.moved.get(line.id) == u.paragraph
                if again:  # "Step 4: Overcome a from c -> needs ... Yes. Overcome a from c -> adds ...": one step
                    pre = self._pre(run, line, ground, u)
                run.focus = None
                run.focus = _Focus(ground, pre, line.id, n, True, modality == "proposed" or _proposal(run.heading),
                                   u.span, paragraph=u.paragraph, item=u.item is not None,
                                   shape=shape[head[0].start("act"):])
                if not again:
                    self._perform(run, line, ground, u.span[1], u.item is not None, head_rule, u.item)
                    then = _then_it(self.words, ur, head[0].end(), ground)
                    if then is not None and line.known and not unmet_preconditions(then, line.state):
                        self._perform(run, line, then, u.span[1], u.item is not None, "event.and_it")
                    for nxt in _then_chain(self.words, ur, head[0].start("act"), ground):  # "So, Attack b, then Overcome b from c.": both steps
                        if nxt is None or not line.known:
                            run.book.lose(line, u.span[0], "event.then")  # a step read in part
                            break  # (one not doable there is taken forced, as a step of its own would be)
                        self._perform(run, line, nxt, u.span[1], u.item is not None, "event.then")
            elif head_m is not None and head_m.ground is not None and run.focus is not None and run.focus.performed \
                    and run.focus.action == head_m.ground and run.focus.line == line.id \
                    and (run.focus.paragraph == u.paragraph or run.telling == n - 1) and described and line.actions \
                    and line.actions[-1] == head_m.ground:
                run.focus = replace(run.focus, unit=n)  # "Succumb c: requires Pain c. Then, Succumb c adds ...": the
                # step just taken, told on (what follows, "It also brings back ...", is still about it)
            elif head_m is not None and head_m.ground is not None:
                run.focus = None
                pre = self._pre(run, line, head_m.ground, u)
                if _STEP_NAMED.search(shape):  # "Wait, step 6: Overcome c from a requires ...": before the list's step 6
                    pre = self._named_step_pre(run, line, ur, head_m.ground)
                run.focus = _Focus(head_m.ground, pre, line.id, n, False,
                                   modality != "asserted", u.span, paragraph=u.paragraph)
            elif (sup := ur.rows("event.supposed")) and ur.items[sup[0].start("act")].ground is not None:  # type: ignore[union-attr]
                supposed: GroundAction = ur.items[sup[0].start("act")].ground  # type: ignore[union-attr]
                run.focus = _Focus(supposed, self._pre(run, line, supposed, u), line.id, n, False, True, u.span,
                                   paragraph=u.paragraph, supposed=True)  # "If we do Overcome c from b:" over its lists
            elif "R" in shape and len(named_r := [i for i, m in ur.actions if m.ground is not None]) == 1 \
                    and "U" not in shape[:named_r[0]]:  # "That requires ... (no, because Harmony was removed after
                # Feast b from a)": the action of the reason is not the one whose needs are listed
                only = next(m for _, m in ur.actions if m.ground is not None)
                pre = self._pre(run, line, only.ground, u)  # type: ignore[arg-type]
                if _STEP_NAMED.search(shape):  # "But step 3 is Feast b from a, which requires ...": before the list's step 3
                    pre = self._named_step_pre(run, line, ur, only.ground)  # type: ignore[arg-type]
                run.focus = _Focus(only.ground, pre, line.id, n, False,  # type: ignore[arg-type]
                                   modality != "asserted", u.span, paragraph=u.paragraph)
            elif modality == "questioned" and len(grounded_q := [m for _, m in ur.actions if m.ground is not None]) == 1 \
                    and len(ur.actions) == 1 and "(" not in shape[:ur.actions[0][0]] \
                    and (run.focus is None or run.focus.action != grounded_q[0].ground):
                asked: GroundAction = grounded_q[0].ground  # type: ignore[assignment]
                run.focus = _Focus(asked, self._pre(run, line, asked, u), line.id, n, False, True, u.span,
                                   paragraph=u.paragraph)  # "Like, Feast a from c? That requires a craves c (yes)":
                # the needs checked next are the asked step's, in the state it would start from
            elif ur.matches("event.unnamed") and modality == "asserted" and not _RULE_HEADING.match(shape):
                run.book.lose(line, u.span[0], "event.unnamed")  # "Then put it down.": a step we cannot read; the line may have moved
                if run.focus is not None and run.focus.line == line.id:
                    run.focus = None  # and "That gives red on orange." after it speaks of that step, not the one before
            if modality == "asserted" and not ur.cues.has("cant") \
                    and any(m.ground is None and any(a is not None for a in m.args) and not _role_or_purpose(u, m)
                            for _, m in ur.actions):
                run.book.lose(line, u.span[0], "partial_action")  # "after unstacking orange": an action we read only in part; the line may have moved
                # ("So can't Feast b.": an action rejected is not taken, and the line stays where it is)
            if line.actions and (performs or after or len(line.actions) != actions_before or line.id != line_before):
                run.moved[line.id] = u.paragraph
            elif not line.actions and line.id != 0:
                run.moved.setdefault(line.id, u.paragraph)  # a line begun again from the initial state
            turn = ur.cues.first("branch", 0, 2)  # "Alternatively, ..." opening the unit
            if turn is not None and line.id == line_before and recap is None and not after \
                    and _AFTER_STEP.search(shape) is None \
                    and line.actions and line.known and line.uncertain_from is None:
                run.book.doubt(line, actions_before, u.span[0], "'" + u.text(text)[:40].strip() + "' turns to another "
                               "branch from a state it does not name", "event.branch")
                run.branch_doubt = (line.id, u.paragraph)
            elif run.branch_doubt is not None and u.paragraph != run.branch_doubt[1]:
                run.book.settle(run.lines[run.branch_doubt[0]], u.span[0], "event.branch")
                run.branch_doubt = None
            if run.described is not None and n - run.described[1] == 1 and u.paragraph == run.described[2] \
                    and modality == "asserted" and ur.matches("event.described_now") and not ur.actions and line.known:
                # "Succumb b adds Province b, Planet b, Harmony. Now, Province is b again": the step told is taken
                self._perform(run, line, run.described[0], u.span[0], False, "event.described_now")
                run.moved[line.id] = u.paragraph
            run.told_before = run.described
            run.described = None
            if described and modality == "asserted" and head_m is not None and head_m.ground is not None:
                run.described = (head_m.ground, n, u.paragraph)
            # a heading sets what its lines are
            if u.end == ":":
                run.heading = self._heading(ur, n, u, modality, line, run.focus)
                if run.heading is not None and run.heading.kind == "after" and run.heading.action is not None:
                    run.after_heading = (run.heading.action, n, run.heading.rules[0])
            if recall is None and run.last_recall is not None and run.last_recall[0] == n - 1 \
                    and run.last_recall[2] == u.paragraph and not ur.actions and modality == "asserted" \
                    and not re.search("[TWZJS]", shape) and _points_back(u):
                recall = run.last_recall[1]  # "So after step 2, red is on blue. That alone already satisfies the
                # goal.": "that" is the state just recalled (row event.recall_that)
            elif recall is None and run.last_recall is not None and run.last_recall[0] == n - 1 \
                    and run.last_recall[2] == u.paragraph and not line.known and run.last_recall[1].known \
                    and modality == "asserted" and not performs and not head and ur.matches("event.recall_lost") \
                    and not re.search("[Aa]", shape.replace("CA", "C")) \
                    and len(re.findall("[Aa]", readings[n - 1].shape)) <= 1:
                recall = run.last_recall[1]  # the line lost, "So after unstacking blue, red is on the table. So I
                # can pick up red": the state recalled is the one the paragraph goes on about (row event.recall_lost);
                # a step mentioned in between ("stacking it there is correct", "..., we have to put blue down")
                # may have moved it, and ends that
            run.last_recall = (n, recall, u.paragraph) if recall is not None else None
            if line.known and not performs and modality != "questioned" and _opens_with_condition(u):
                for m_back in ur.rows("event.went_back"):
                    back_m: ActionMention = ur.items[m_back.start("act")]  # type: ignore[assignment]
                    if back_m.ground is not None and back_m.ground in line.actions[:-1] \
                            and back_m.ground != line.actions[-1] and unmet_preconditions(back_m.ground, line.state):
                        # ("Then, when you unstack red, the orange becomes clear": the step just taken, told)
                        run.book.lose(line, u.span[0], "event.went_back")
                        break
            # -- claims
            start = len(run.claims)
            if self.variables and modality != "questioned":
                self._bound_rules(run, u, modality, recall or line, text)
            if modality == "asserted" and ur.matches("rule.role"):
                self._role_rules(run, ur, recall or line, text)
            bullet = run.telling_bullet
            if u.bullet and run.telling is None and bullet is not None and bullet[0] == u.indent \
                    and run.focus is bullet[2] and all(not readings[k].unit.line_start for k in range(bullet[1] + 1, n)):
                run.telling = n - 1  # "   - Added: ... (since ...? Wait, ... So c craves b." then "   - Removed: ...": the
                # sentences inside one bullet do not end the list of bullets telling the step
            run.before = readings[n - 1] if n else None
            self._claims(run, ur, n, modality, recall or line, text)
            if lose_after:
                run.book.lose(line, u.span[1], "event.can_perform")
                lose_after = False
            if modality == "questioned" and n + 1 < len(readings):
                after = readings[n + 2] if n + 2 < len(readings) else None
                if after is None or not re.match(r"[~,]*[YNB]", after.shape):  # "Yes... no, it was removed": answered twice
                    self._answered(run, ur, readings[n + 1], n, recall or line, text)
            if n != run.recalled_unit and ur.actions:
                run.quiet_since_recall = False  # "we have to stack Blue somewhere. ... So we can pick up Red": walked on
            focus_now = run.focus
            if u.bullet and focus_now is not None and focus_now.told and (run.telling == n - 1 or focus_now.unit == n):
                run.telling_bullet = (u.indent, n, focus_now)  # a bullet of the list telling the step (its sentences
                # may end the run: "   - Added: ..., c craves b (since ...?")
            if focus_now is not None and focus_now.told and (
                    (focus_now.unit == n and (focus_now.supposed or not re.search("[IHGQKBE]", shape)))
                    or (run.telling == n - 1 and _tells(ur, focus_now.action))):
                run.telling = n  # "Step 1: Attack a." then "Needs ...", "Yes.", "Adds Pain a.": all about the step
            else:
                run.telling = None
            last = line.actions[-1] if line.actions else None
            step_told = _STEP_TOLD.match(shape) is not None
            if recall is None and last is not None and not ur.actions and modality == "asserted" \
                    and u.paragraph - run.moved.get(line.id, u.paragraph) <= ANCHOR_PARAGRAPHS and (
                        (focus_now is not None and focus_now.performed and focus_now.line == line.id
                         and last == focus_now.action
                         and (step_told or (run.telling == n and not re.search("[NnK]", shape))))
                        or (step_told and any(c.kind == "effect" and c.line == line.id and c.after == last.text()
                                              for c in run.claims[start:]))):
                run.moved[line.id] = u.paragraph  # "Pre: ...", "Post: ...", "Removes ...": paragraphs that tell
                # the step just taken keep the text at it (row event.step_told), also under "After Feast a from b,
                # the effects are:" where no step is in focus
            said = [c for c in run.claims[start:] if c.kind == "state" and c.line == line.id and c.modality == "asserted"]
            if recall is None and said and all(c.holds is True for c in said) and line.known and line.actions \
                    and (ur.matches("event.state_agrees") or (run.heading is not None and run.heading.kind == "state")):
                run.moved[line.id] = u.paragraph  # "Great, now we have Craves(a, c).": the model's state is the
                # line's, so the text is at it (row event.state_agrees)
            if recall is not None:
                run.line_at.append((u.span[1], line.id))
            while next_verdict < len(verdicts) and verdicts[next_verdict][0] < u.span[1]:
                if verdicts[next_verdict][0] >= u.span[0] and modality != "questioned":
                    self._line_verdict(run, verdicts[next_verdict], line, text)
                next_verdict += 1
            run.listed = _listing(run, ur, n, modality, run.claims[start:])
            line = self._blocked(run, ur, n, line, start)
            for c in run.claims[start:]:
                c.line_actions = tuple(a.text() for a in run.lines[c.line].actions)
            if _retracted_next(readings, n):
                for c in run.claims[start:]:
                    c.retracted = True
            if line.known is False and line.known_upto is None:
                line.known_upto = len(line.actions)
        run.focus = None
        _doubted_rules(readings, run.claims)
        _link(run.claims)
        return ClaimReport(run.claims, run.lines, run.line_at, run.book.events)

    def _blocked(self, run: _Run, ur: UnitReading, n: int, line: LineOfReasoning, start: int) -> LineOfReasoning:
        """"4. Feast b from c (requires ..., Harmony). But Harmony was removed in step 3.": the step just
        taken is not applicable where the line was, and the next unit says that one of its needs is
        gone there. The model found it blocked and did not take it (row event.blocked): undone, not
        forced; and when the reader had stepped back to a state that allows it, that second reading
        is dropped and the line is the one the model spoke of."""
        f = run.focus
        if f is None or not f.performed or f.line != line.id or not line.actions or line.actions[-1] != f.action:
            return line
        if ur.matches("event.cant") and 1 <= n - f.unit <= CANT_REACH and ur.unit.paragraph - f.paragraph <= 1 \
                and f.pre is not None and unmet_preconditions(f.action, f.pre):
            run.book.undo(line, ur.unit.span[0], "event.cant")  # "2. Attack a. - Pre: ... Harmony (no). Can't perform."
            return line
        if not 1 <= n - f.unit <= CANT_REACH or ur.unit.paragraph != f.paragraph or not ur.matches("event.blocked"):
            # "5. Overcome c from a. To make c crave a. Requires Province a and Pain c. But Pain c is not present."
            return line
        said_gone = {c.atom for c in run.claims[start:] if c.kind in ("state", "effect") and c.negative and not c.retracted}
        # "But Harmony was removed in step 3": an earlier step's removal, said of the need
        made = next((e for e in reversed(run.book.events) if e.line == line.id and e.kind in ("new", "fork", "step_back")),
                    None)
        if made is not None and made.kind == "step_back" and made.source is not None:
            source = run.lines[made.source]
            if source.known and said_gone & {lit.atom for lit in f.action.pre if lit.positive and lit.atom not in source.state}:
                run.book.reanchor(source, ur.unit.span[0], "event.blocked")
                return source
            return line
        if f.pre is None or not unmet_preconditions(f.action, f.pre):
            return line
        if said_gone & {lit.atom for lit in f.action.pre if lit.positive and lit.atom not in f.pre}:
            run.book.undo(line, ur.unit.span[0], "event.blocked")
        return line

    def _labelled_effects(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, act: GroundAction,
                          judged_facts: set[int], lo: int = 2, rule: str = "") -> None:
        """"1. Attack a (needs ...). After: Pain a, remove Province a, Planet a, Harmony.": the facts
        after the label (from letter `lo`; 0: no label, row effect.unlabelled) and before the first
        add or delete cue are what the step adds; the cues govern the rest (row effect.label)."""
        s, u = ur.shape, ur.unit
        first = min((k for k, ch in enumerate(s) if ch in "DX"), default=len(s))
        said = [(k, "add") for k in range(lo, first) if s[k] in "Ff"]
        said += [(k, what) for _, what, ks in _cue_groups(s, lo - 1, "Ff") for k in ks]
        for k, what in said:
            f = ur.items[k]
            if k in judged_facts or not isinstance(f, FactMention) or _negated(s, k):
                continue
            judged_facts.add(k)
            if f.absent_word:
                what = _OTHER[what]
            holds, msg = self._effect_verdict(run, line, act, f, what)
            self._add(run, Claim("effect", u.span, u.text(text), holds, msg, line.id, atom=f.atom, negative=what == "del",
                                 after=act.text(), rules=(rule,) if rule else ("effect.label",) if lo
                                 else ("effect.unlabelled",), modality="asserted"))

    def _effect_verdict(self, run: _Run, line: LineOfReasoning, act: GroundAction, f: FactMention,
                        what: str) -> tuple[bool | None, str]:
        """A fact said added ("add") or removed ("del") by `act`, against its schema; by predicate when
        it names no objects ("- Pain removed.": judge.effect_any). A false one said by a verb of making
        about the line's last step ("Then put red down. That would free up orange.") may tell the state
        after the step, which an earlier step made (the unstack freed orange): where that state is as
        said, it is left unjudged (row effect.made_verb)."""
        if f.atom is None:
            return self.judge.effect_any(act, f.predicate, what)
        holds, msg = self.judge.effect(act, f.atom, what)
        if not holds and f.atom in run.made_atoms and line.known and line.actions and line.actions[-1] == act \
                and (f.atom in line.state) == (what == "add"):
            return None, msg + "; the fact is as said after it (an earlier step made it so), so it is not judged"
        return holds, msg

    def _listed_effects(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, act: GroundAction,
                        judged_facts: set[int], modality: str) -> None:
        """"Alternatively, Action 3: Attack a." "Needs ...". "Adds Pain." "Removes Province a, ...": an
        effect list in a run listing one action's needs and effects is a claim about that action's
        schema, taken or only proposed (row effect.listed)."""
        s, u = ur.shape, ur.unit
        if ur.matches("effect.label"):
            if s[0] == "T" or u.tokens[ur.starts[0]].norm in _EFFECT_WORDS:  # "Result:" may list the state
                self._labelled_effects(run, ur, line, text, act, judged_facts, rule="effect.listed")
            return
        if not _effect_list(ur):
            return
        for c, what, ks in _cue_groups(s, -1, "Ff"):
            for k in ks:
                f = ur.items[k]
                if k in judged_facts or not isinstance(f, FactMention):
                    continue
                said = _said_effect(s, k, f, what, c)
                if said is None:
                    continue
                judged_facts.add(k)
                holds, msg = self._effect_verdict(run, line, act, f, said)
                self._add(run, Claim("effect", u.span, u.text(text), holds, msg, line.id, atom=f.atom,
                                     negative=said == "del", after=act.text(), rules=("effect.listed",),
                                     modality=modality))

    def _purposes(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, judged_facts: set[int],
                  modality: str) -> None:
        s = ur.shape
        if "M" not in s or "F" not in s or "A" not in s or "Q" in s or "I" in s:
            return
        grounded = [(i, m) for i, m in ur.actions if m.ground is not None]
        pairs: list[tuple[ActionMention, int, list[int], str]] = []
        for m in BY_ID["effect.purpose"].regex.finditer(s):  # "A to get F, F"
            act = ur.items[m.start("act")]
            pairs.append((act, m.start("m"), [k for k in range(m.start("m") + 1, m.end()) if s[k] == "F"],  # type: ignore[arg-type]
                          "effect.purpose"))
        lead = BY_ID["effect.purpose_first"].regex.match(s)  # "To get F, (we need) A", no other action in the unit
        if lead is not None and len(grounded) == 1:
            pairs.append((ur.items[lead.start("act")], lead.start("m"),  # type: ignore[arg-type]
                          [k for k in range(lead.start("m") + 1, lead.start("act")) if s[k] == "F"], "effect.purpose_first"))
        for act, at, ks, rid in pairs:
            if act.ground is None:
                continue
            cue = ur.unit.tokens[ur.starts[at]:ur.starts[at + 1] if at + 1 < len(ur.starts) else None]
            what = "del" if any(t.norm in ("remove", "removing") for t in cue) else "add"
            made = act.ground.add if what == "add" else act.ground.delete
            for k in ks:
                f = ur.items[k]
                if k in judged_facts or not isinstance(f, FactMention) or f.atom is None or f.absent_word \
                        or f.atom[0] not in {a[0] for a in made}:
                    continue
                judged_facts.add(k)
                holds, msg = self.judge.effect(act.ground, f.atom, what)
                self._add(run, Claim("effect", ur.unit.span, ur.unit.text(text), holds, msg, line.id, atom=f.atom,
                                     negative=what == "del", after=act.ground.text(), rules=(rid,), modality=modality))

    def _supposed_facts(self, run: _Run, ur: UnitReading, m: re.Match[str], line: LineOfReasoning, text: str,
                        judged_facts: set[int]) -> None:
        """Row state.supposed: "If I Overcome b from c, then c craves b.": the facts said after the
        supposition's clause are what the supposed step leaves. A fact the step adds or removes is
        judged by the step alone; one it does not touch only where the step can be done where the
        line is (the supposition is made from there), in the state after it."""
        act: ActionMention = ur.items[m.start("act")]  # type: ignore[assignment]
        if act.ground is None:
            return
        s, ground = ur.shape, act.ground
        after = apply(ground, line.state) if line.known and not unmet_preconditions(ground, line.state) else None
        for k in range(m.start("facts"), len(s)):
            f = ur.items[k]
            if s[k] != "F" or k in judged_facts or not isinstance(f, FactMention) or f.atom is None:
                continue
            positive = not (_negated(s, k) or _list_negated(s, k)) != f.absent_word
            if f.atom in ground.add or f.atom in ground.delete:
                present = f.atom in ground.add  # the step alone decides it
            elif after is not None:
                present = f.atom in after
            else:
                continue
            holds, msg = self.judge.state(frozenset({f.atom}) if present else frozenset(), f.atom, positive,
                                          f"after {ground.text()}, supposed")
            judged_facts.add(k)
            self._add(run, Claim("state", ur.unit.span, ur.unit.text(text), holds, msg, line.id, atom=f.atom,
                                 negative=not positive, rules=("state.supposed",), modality="asserted",
                                 after=ground.text()))

    def _after_rules(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, judged_facts: set[int]) -> None:
        """Row rule.after: "After Feast, Pain is gone.", "Once you Attack, Planet becomes false.",
        "After picking up a block, the hand is empty.": what an action named without objects
        leaves, judged by predicate (judge.rule_after; a removal or keeping said of the fact as
        judge.rule and judge.rule_denied)."""
        m = BY_ID["rule.after"].regex.search(ur.shape)
        if m is None:
            return
        act: ActionMention = ur.items[m.start("act")]  # type: ignore[assignment]
        s, toks = ur.shape, ur.unit.tokens
        lo, hi = m.start("clause"), m.end("clause")
        governed = {k: what for _, what, ks in _cue_groups(s[:hi], lo - 1, "fF") for k in ks}
        for k in range(lo, hi):
            f = ur.items[k]
            if s[k] not in "fF" or k in judged_facts or not isinstance(f, FactMention) \
                    or (f.atom is not None and len(f.atom) > 1) or re.search(r"[RMIHG(]", s[lo:k]):
                continue  # a need, an aim, a guess, a parenthesis: not what holds after the action
            segment = s[max(s.rfind(",", lo, k), s.rfind("&", lo, k), lo):k]
            said = re.match(r"(?:[,&]{1,2}_?[fF])*_{0,2}([kN])", s[k + 1:hi])  # "Province, Planet are gone"
            still = any(toks[ur.starts[j]].norm == "still" for j in range(lo, k) if s[j] == "W")
            if k in governed:  # "Pain is added", "Province, Planet, Harmony are removed", "you get Pain"
                if f.absent_word:
                    continue
                holds, msg = self.judge.rule(act.name, f.predicate, governed[k])
            elif re.search(r"[DX]", s[lo:k]):
                continue  # a fact after another's cue that does not govern it: not read
            elif (said is not None and said.group(1) == "k") or still:
                holds, msg = self.judge.rule_denied(act.name, f.predicate, "del")
            else:
                negated = "N" in segment or "n" in segment or (said is not None and said.group(1) == "N")
                holds, msg = self.judge.rule_after(act.name, f.predicate, negated == f.absent_word)
            if holds is None:
                continue
            judged_facts.add(k)
            self._add(run, Claim("rule", ur.unit.span, ur.unit.text(text), holds, msg, line.id, atom=f.atom,
                                 rules=("rule.after",), modality="asserted"))

    def _goal_named(self, ur: UnitReading) -> bool:
        """"The goal b craves c is satisfied": every fact of the unit stands between the goal word and
        its verdict, and is a fact of the goal."""
        m = _GOAL_NAMED.search(ur.shape)
        goal = {lit.atom for lit in self.task.problem.goal if lit.positive}
        return m is not None and all(m.start() < k < m.end() and f.atom in goal for k, f in ur.facts)

    def _must_rules(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, judged_facts: set[int]) -> None:
        """Row rule.must: "To pick up a block, it must be clear and on the table": each fact of the
        clause is what the action named first needs."""
        m = BY_ID["rule.must"].regex.search(ur.shape)
        if m is None:
            return
        toks = ur.unit.tokens
        lead = toks[ur.starts[m.start("lead")]].norm
        if lead not in _PURPOSE_LEADS and not (ur.shape[m.start("lead")] == "M" and lead == "in"):
            return
        if any(ur.shape[k] == "g" and isinstance(h := ur.items[k], Hit)
               and is_role(" ".join(t.norm for t in toks[h.i:h.j])) for k in range(m.start("clause"), m.end("clause"))):
            return  # "For Feast, the other object must crave the object": role words, read by rule.role
        act: ActionMention = ur.items[m.start("act")]  # type: ignore[assignment]
        s = ur.shape
        depth = 0
        for k in range(m.start("clause"), m.end("clause")):
            depth += (s[k] == "(") - (s[k] == ")")
            if s[k] in "UI" or (s[k] in "_~" and toks[ur.starts[k]].norm in _REASON_WORDS):
                break  # "..., which it is", "since it's on top": the state, not the rule
            f = ur.items[k]
            if s[k] not in "fF" or depth > 0 or k in judged_facts or not isinstance(f, FactMention):
                continue
            if act.ground is not None and f.atom is not None and not f.absent_word:
                holds, msg = self.judge.needs(act.ground, f.atom)
            elif f.atom is not None and len(f.atom) > 1:
                continue
            elif f.absent_word:
                holds, msg = self.judge.rule_denied(act.name, f.predicate, "req")
            else:
                holds, msg = self.judge.rule(act.name, f.predicate, "req")
            judged_facts.add(k)
            self._add(run, Claim("rule", ur.unit.span, ur.unit.text(text), holds, msg, line.id, atom=f.atom,
                                 rules=("rule.must",), modality="asserted",
                                 action=act.ground.text() if act.ground is not None else None))

    def _needs_of(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, modality: str, n: int) -> None:
        """"Feast a from c would require Craves(c, a), Province a, and Harmony.": what a named action
        needs, said of its objects, is a claim about its schema (a rule claim: the model's reading of
        the action), true or false wherever it stands; a need of a predicate the action does not
        need at all is judged only when said plainly ("Succumb a needs Harmony"; not a far aim, "requires
        getting Pain a first").
        "Requires Province b, ..." going on telling the step just taken (row rule.needs_told) is the
        step's needs."""
        s = ur.shape
        if "R" not in s:
            return
        told = run.focus.action if "A" not in s and "a" not in s and run.telling == n - 1 and run.focus is not None \
            and run.focus.told and re.match(r"R:?F", s) else None
        rid = "rule.needs_told" if told is not None else "rule.needs_of"
        if told is None and "A" not in s and "a" not in s and (step := BY_ID["rule.needs_step"].regex.match(s)):
            at = _list_step(run, line, ur.number_at(step.start("r") - 1), ur.unit) if run.item_base is not None else -1
            if at < 0:
                return  # "But step 2 requires ...": a step we cannot place
            told, rid = line.actions[at], "rule.needs_step"  # the list's step 2
        elif told is None and "A" not in s and "a" not in s:
            told, rid = _named_just_before(run.before, ur), "rule.needs_named"
            if told is None and run.listed is not None and run.listed[1] == n - 1:
                told = run.listed[0]  # "Adds Pain a." then "Needs Province a, ...": the run lists one action
        if told is None and "A" not in s:
            return
        m = BY_ID[rid].regex.search(s)
        if m is None or "Q" in s or "n" in s[m.start("r"):] or "N" in s[m.start("r"):m.start("r") + 2]:
            return
        ground = told if told is not None else ur.items[m.start("act")].ground  # type: ignore[attr-defined]
        if ground is None:
            return
        pre = {lit.atom for lit in ground.pre if lit.positive}
        preds = {a[0] for a in pre}
        toks = ur.unit.tokens
        end = next((k for k in range(m.start("r") + 1, len(s)) if s[k] in ".;?!AMIUc"
                    or toks[ur.starts[k]].norm in ("which", "that", "since", "as", "but")), len(s))
        depth = 0
        for k in range(m.start("r") + 1, end):
            depth += (s[k] == "(") - (s[k] == ")")
            f = ur.items[k] if s[k] == "F" and depth <= 0 else None  # "Province b (no, Province is a)": the state
            if not isinstance(f, FactMention) or f.atom is None or f.absent_word:
                continue
            if _KEPT_AFTER.match(s, k + 1):
                break  # "requires Harmony, and Planet b remains": what the step leaves, no need
            if f.atom[0] not in preds and (told is not None or not _need_said_plainly(ur, m.start("r"), k)):
                continue
            holds, msg = self.judge.needs(ground, f.atom)
            self._add(run, Claim("rule", ur.unit.span, ur.unit.text(text), holds, msg, line.id, atom=f.atom,
                                 rules=(rid,), modality=modality, action=ground.text()))

    def _recap(self, run: _Run, line: LineOfReasoning, k: int | None, ur: UnitReading) -> LineOfReasoning | None:
        """"After step 2, we have ...": the line at the state after the list's step k (a fork, or
        the line itself), when the list's steps are its actions one for one; None: not known. The
        list's next item then goes on from step k (`item_base`)."""
        base = run.item_base
        if base is None and run.list_start is not None and run.list_start[0] == line.id \
                and len(line.actions) - run.list_start[1] == run.list_start[2]:
            base = run.list_start[1]
        u = ur.unit
        if k is None or base is None or not 0 < base + k <= len(line.actions) or not line.known_at(base + k):
            return self._recap_by_name(run, line, k, ur)
        if k in run.step_named and run.step_named[k] != line.actions[base + k - 1]:
            return None  # "Wait, step 2 is Succumb b": not the line's step 2
        if line.item_of[base + k - 1] not in (None, k):
            return None  # the list has items that hold no step ("2. Now, Province a, Pain a."): its step k is not sure
        run.item_base = base
        if base + k == len(line.actions):
            return line
        return self._fork(run, line, base + k, u.span[0])

    def _recap_by_name(self, run: _Run, line: LineOfReasoning, k: int | None, ur: UnitReading) -> LineOfReasoning | None:
        """"After step 1 (Feast b from a):" where the list's numbers are not the line's steps (its
        items hold a goal or a remark: "1. Create Pain b.", "2. Now, Province c is still present."):
        the step is the action the recap names, when the line took it exactly once; the state after
        it is the line's, whatever number the model gave it. The list's items go on unnumbered."""
        named = run.step_named.get(k) if k is not None else None
        if named is None:
            return None
        at = [i for i, a in enumerate(line.actions) if a == named]
        if len(at) != 1 or not line.known_at(at[0] + 1) or at[0] >= k:  # type: ignore[operator]
            return None  # items without a step make the model's numbers run ahead of the line's, never behind
        end = at[0] + 1
        ends = [end]
        later = {a for j, a in run.step_named.items() if j > k}  # type: ignore[operator]
        while end < len(line.actions) and (line.item_of[end] or 0) <= k and line.actions[end] not in later:  # type: ignore[operator]
            end += 1  # the next action is no later numbered item: the model's step k may hold it too
            ends.append(end)  # ("So step 1: Unstack Blue from Orange. ... Then, I can put Blue down.")
        if len(ends) > 1:
            # "After step 1: Blue is on the table.": the one extent of step k after which the facts the recap
            # states hold (none, or more than one: the state is not placed)
            said = [(f.atom, _negated(ur.shape, i) == f.absent_word) for i, f in ur.facts if f.atom is not None]
            fits = [e for e in ends if line.known_at(e) and all((a in line.states[e]) == pos for a, pos in said)]
            if not said or len(fits) != 1:
                return None
            end = fits[0]
        run.item_base, run.list_start = None, None
        if end == len(line.actions):
            return line
        return self._fork(run, line, end, ur.unit.span[0])

    @staticmethod
    def _pre(run: _Run, line: LineOfReasoning, ground: GroundAction, u: Unit) -> frozenset[Atom] | None:
        """The state an action named, not taken, is checked in: the line's, or, for the step the
        line has just taken ("Step 3: Attack b." then "Attack b: Requires ..."), the one before it."""
        if not line.known:
            return None
        if line.actions and line.actions[-1] == ground and (
                run.moved.get(line.id, -9) >= u.paragraph - 1
                or (unmet_preconditions(ground, line.state) and not unmet_preconditions(ground, line.states[-2]))):
            return line.states[-2]  # also further on, when only the state before it allows it: doing the
            # same step twice is not a reading anyone means (Lines.step_back)
        return line.state

    def _after(self, run: _Run, line: LineOfReasoning, ground: GroundAction, u: Unit,
               opens: bool = False) -> LineOfReasoning:
        """"After Attack a, ...": the line's last action, an earlier one of the line (a recall:
        judged in the state right after it, on a fork), or an action the line then performs."""
        if line.actions and line.actions[-1] == ground:
            if line.known or not line.known_at(len(line.actions)) or not opens:
                return line  # "Both are true after Feast c from a." once the text has moved on: a past state
            # "Alternatively, maybe after Feast b from c, we have ...": the line was lost after its last
            # action, and a unit that opens with that action places the text back in the state it left
            return self._fork(run, line, len(line.actions), u.span[0], "event.after")
        for k in range(len(line.actions) - 1, -1, -1):
            if line.actions[k] == ground:
                return self._fork(run, line, k + 1, u.span[0])
        if line.known and not unmet_preconditions(ground, line.state):
            self._perform(run, line, ground, u.span[1], u.item is not None, "event.after")
            return line
        if not unmet_preconditions(ground, self.init):
            new = self._new_line(run, u.span[0], "event.after")
            self._perform(run, new, ground, u.span[1], u.item is not None, "event.after")
            return new
        run.book.lose(line, u.span[0], "event.after")
        return line

    def _heading(self, ur: UnitReading, n: int, u: Unit, modality: str, line: LineOfReasoning,
                 focus: _Focus | None) -> _Heading | None:
        s = ur.shape
        if "H" in s or "G" in s or "I" in s:
            return _Heading("proposal", u.paragraph, n, rules=("heading.proposal",))
        acts = [m for _, m in ur.actions if m.ground is not None]
        if "Z" in s and not acts:
            return _Heading("initial", u.paragraph, n, rules=("heading.initial",))
        if "T" in s and acts:
            return _Heading("after", u.paragraph, n, acts[-1].ground, rules=("heading.after",))
        if focus is not None and focus.performed and focus.unit == n and focus.line == line.id and line.actions \
                and line.actions[-1] == focus.action and len(acts) == 1 and acts[0].ground == focus.action \
                and ur.matches("heading.step"):
            return _Heading("step", u.paragraph, n, focus.action, rules=("heading.step",))
        if "T" in s and focus is not None and focus.performed and focus.line == line.id and line.actions \
                and line.actions[-1] == focus.action and u.paragraph - focus.paragraph <= 1 and n - focus.unit <= 3 \
                and ur.matches("heading.after_step") \
                and all(m.name == focus.action.name for _, m in ur.actions):
            return _Heading("after", u.paragraph, n, focus.action, rules=("heading.after_step",))
        if "R" in s:
            return _Heading("req", u.paragraph, n, acts[-1].ground if acts else None, rules=("heading.req",))
        if "D" in s:
            return _Heading("add", u.paragraph, n, acts[-1].ground if acts else None, rules=("heading.add",))
        if "X" in s:
            return _Heading("del", u.paragraph, n, acts[-1].ground if acts else None, rules=("heading.del",))
        if "S" in s or "W" in s:
            return _Heading("state", u.paragraph, n, rules=("heading.state",),
                            opens_now=BY_ID["state.now_opens"].regex.match(s) is not None)
        if "L" in s:
            return _Heading("plan", u.paragraph, n, rules=("heading.plan",))
        return None

    # -- claims of one unit ---------------------------------------------------------------------
    def _claims(self, run: _Run, ur: UnitReading, n: int, modality: str, line: LineOfReasoning, text: str) -> None:
        u = ur.unit
        s = ur.shape
        if modality == "questioned":
            return
        judged_facts: set[int] = set()
        first_claim = len(run.claims)
        run.made_atoms = frozenset(
            ur.items[k + 1].atom for k in range(len(s) - 1)  # type: ignore[union-attr]
            if s[k] in "DX" and s[k + 1] == "F" and getattr(ur.items[k], "cue", "") in _MADE_CUES) \
            if "DF" in s or "XF" in s else frozenset()
        heading = run.heading if run.heading is not None and run.heading.unit != n else None
        focus = run.focus if run.focus is not None and (n - run.focus.unit <= STATE_REACH or (
            heading is not None and heading.kind in ("req", "add", "del") and 0 <= heading.unit - run.focus.unit <= STATE_REACH)) \
            else None  # "Feast a from b.", "Preconditions:" and its lines, however many: all of the step
        asserted = modality == "asserted"
        # rules: an action named without objects, with what it needs or does
        because_rule = _because_rule(s)  # "Succumb c would also work, since Succumb adds Pain to the object."
        if modality == "asserted" and "n" not in s and "N" not in s and ("A" not in s or because_rule >= 0):
            fired = [rid for rid in ("rule.req", "rule.add", "rule.del") if ur.matches(rid)]
            if fired:
                groups = _cue_groups(s, because_rule, "fF")
                need = s.find("R")
                if "rule.req" in fired and need >= 0:  # "Succumb needs Province.": the needs after the cue
                    taken = {k for g in groups for k in g[2]}
                    end = next((k for k in range(need + 1, len(s)) if s[k] in ".;:?!DXT"), len(s))
                    # "Stacking needs the block being stacked to be held, and afterwards the hand is empty": what
                    # follows "afterwards" is no need (planted set 8)
                    groups.append((need, "req", [k for k in range(need + 1, end) if s[k] in "fF" and k not in taken]))
                bound = {(c.atom[0] if c.atom else None) for c in run.claims[-12:] if c.span == u.span and "rule.bound" in c.rules}
                for c, what, ks in groups:
                    act = _nearest(ur, c, "a")
                    if act is None or act.i < (ur.starts[because_rule] if because_rule >= 0 else -1):
                        continue
                    for k in ks:
                        f = ur.items[k]
                        grounded_fact = f.atom is not None and len(f.atom) > 1  # type: ignore[union-attr]
                        if grounded_fact and (what == "req" or f.absent_word  # type: ignore[union-attr]
                                              or self.judge.rule(act.name, f.predicate, what)[0]):  # type: ignore[union-attr]
                            continue  # "The Attack removed Province a": which attack is not said, so a fact with
                            # objects is judged by its predicate only where no grounding makes it so ("... and Pain a")
                        if f.predicate in bound:  # type: ignore[union-attr]
                            continue  # "Succumb X needs Province X": judged as the rule with X bound (rule.bound)
                        if f.absent_word:  # type: ignore[union-attr]
                            # "Unstacking requires the hand to be full": it needs the fact's absence, so it does not
                            # need the fact; "gives a full hand": it removes it
                            if what == "del":
                                continue
                            holds, msg = self.judge.rule_denied(act.name, f.predicate, "req") if what == "req" \
                                else self.judge.rule(act.name, f.predicate, "del")  # type: ignore[union-attr]
                            self._add(run, Claim("rule", u.span, u.text(text), holds, msg, line.id,
                                                 rules=(f"rule.{what}",), modality=modality))
                            continue
                        holds, msg = self.judge.rule(act.name, f.predicate, what)  # type: ignore[union-attr]
                        judged_facts.add(k)
                        self._add(run, Claim("rule", u.span, u.text(text), holds, msg, line.id,
                                             rules=(f"rule.{what}",), modality=modality))
        if modality == "asserted" and "A" not in s and "n" not in s and "N" not in s:
            for m in ur.rows("rule.only"):  # "You can only stack a block onto one that is on the table."
                cue = ur.items[m.start("cue")]
                if not isinstance(cue, Hit) or cue.cue != "req.only":
                    continue
                act = ur.items[m.start("act")]
                for k in range(m.end("act"), len(s)):
                    if s[k] in ".;:?!,":
                        break
                    if s[k] == "f":
                        holds, msg = self.judge.rule(act.name, ur.items[k].predicate, "req")  # type: ignore[union-attr]
                        self._add(run, Claim("rule", u.span, u.text(text), holds, msg, line.id, rules=("rule.only",),
                                             modality=modality))
        if modality == "asserted" and "A" not in s:
            for m in ur.rows("rule.denied"):
                act = ur.items[m.start("act")]
                what = {"R": "req", "D": "add", "X": "del"}[m.group("cue")]
                for k in range(m.start("facts"), m.end("facts")):
                    f = ur.items[k]
                    if s[k] not in "fF" or (f.atom is not None and len(f.atom) > 1):  # type: ignore[union-attr]
                        continue
                    holds, msg = self.judge.rule_denied(act.name, f.predicate, what)  # type: ignore[union-attr]
                    self._add(run, Claim("rule", u.span, u.text(text), holds, msg, line.id, rules=("rule.denied",),
                                         modality=modality))
        if modality == "asserted" and "n" not in s and "N" not in s:
            self._must_rules(run, ur, line, text, judged_facts)
        if modality == "asserted" and "A" not in s:
            for m in ur.rows("rule.kept"):  # "Feasting keeps Harmony.", "After attacking, Harmony stays true."
                act = ur.items[m.start("act")]
                for k in range(m.start("clause"), m.end("clause")):
                    f = ur.items[k]
                    if s[k] not in "fF" or k in judged_facts or (f.atom is not None and len(f.atom) > 1) \
                            or self.judge.changes_both(act.name, f.predicate):  # type: ignore[union-attr]
                        continue
                    judged_facts.add(k)
                    holds, msg = self.judge.rule_denied(act.name, f.predicate, "del")  # type: ignore[union-attr]
                    self._add(run, Claim("rule", u.span, u.text(text), holds, msg, line.id, rules=("rule.kept",),
                                         modality=modality))
        if modality == "hypothetical" and (sup := _SUPPOSED_STEP_FACTS.match(s)) is not None:
            self._supposed_facts(run, ur, sup, line, text, judged_facts)
        if modality == "asserted" and "A" not in s:
            self._after_rules(run, ur, line, text, judged_facts)
        if modality == "asserted" and "n" not in s and "N" not in s:
            for m in ur.rows("rule.passive"):
                f = ur.items[m.start("fact")]
                act = ur.items[m.start("act")]
                what = {"D": "add", "X": "del", "R": "req"}[m.group("cue")[0]]
                if s[m.start("fact")] == "f":
                    judged_facts.add(m.start("fact"))  # "Province is removed by Attack": what Attack does, not the state
                    # ("But Province b was removed by Attack": a fact of the state too)
                holds, msg = self.judge.rule(act.name, f.predicate, what)  # type: ignore[union-attr]
                self._add(run, Claim("rule", u.span, u.text(text), holds, msg, line.id, rules=("rule.passive",),
                                     modality=modality))
        if ("U" in s or "D" in s) and "A" in s and modality in ("asserted", "proposed") and not re.search("[nNQIK]", s):
            self._passive_effects(run, ur, line, text, judged_facts, modality)
        # effects of a named action: each add or delete cue governs the facts after it (or, in the
        # passive, the list right before it), for the nearest action before the cue
        if "A" in s and ("D" in s or "X" in s) and not _PLAN_RESULT.search(s) \
                and (modality != "hypothetical" or _SUPPOSED_STEP_THEN.match(s)
                                                     or ("I" not in s and "H" not in s and "G" not in s)):
            # "If Succumb c adds Planet c, ...": supposed; "If I do Feast b from c, it adds Pain c": what the supposed
            # step does, said after its clause (an effect written beside a proposal, thinking-claims.md); a unit
            # with no condition of its own, after one ("So if I Attack c, ... Then, after attacking c, Pain c would
            # be added"), says what the step does
            for c, what, ks in _cue_groups(s, s.find("A"), "F"):
                act = _nearest(ur, c, "A")
                if act is None or act.ground is None or s[c - 1:c] == "T":
                    continue  # "use Overcome c from a after generating Pain c via Feast": an earlier step's effect
                m_i = next(i for i, m in ur.actions if m is act)
                if "R" in s[m_i:c] or "I" in s[m_i:c] or "M" in s[m_i:c] and what == "del" and "D" not in s[m_i:c]:
                    continue  # "Requires Province a (which is removed)": the state, not an effect
                if s[max(m_i, c - 2):c].rstrip("_~").endswith("K"):
                    continue  # "via Overcome a from c, you can't get rid of c craves a": what cannot be undone, no effect
                lead = _colon_lead(s, ks, c)
                denied = _denied_cue(s, c, ks)  # "Attack a doesn't remove Planet b": the whole list is denied
                for k in (ks if denied else _contrasted(s, ks, c)):  # "Attack b removes Planet b, not Planet c": Planet c stays
                    judged_facts.add(k)
                    self._effect_denied(run, u, text, line, act.ground, ur.items[k], what, f"effect.{what}", modality)  # type: ignore[arg-type]
                for k in () if denied else ks:
                    f = ur.items[k]
                    judged_facts.add(k)
                    said = _said_effect(s, k, f, what, c)  # type: ignore[arg-type]
                    if said is None:
                        continue
                    holds, msg = self._effect_verdict(run, line, act.ground, f, said)  # type: ignore[arg-type]
                    if k in lead and not holds and self.judge.effect(act.ground, f.atom, _OTHER[what])[0]:  # type: ignore[union-attr]
                        holds, msg = None, ("the list after the colon may list what it " + _OTHER[what] + "s before "
                                            "the passive cue starts; read that way it is right, so it is not judged")
                    self._add(run, Claim("effect", u.span, u.text(text), holds, msg, line.id, atom=f.atom,  # type: ignore[union-attr]
                                         negative=said == "del", after=act.ground.text(), rules=(f"effect.{what}",),
                                         modality=modality))
            for m in ur.rows("effect.list"):
                act = ur.items[m.start("act")]  # type: ignore[assignment]
                stop = s.find("X", m.end())
                for k, f in ur.facts:
                    if m.end() <= k < stop and k not in judged_facts and f.atom is not None and not _negated(s, k):
                        judged_facts.add(k)
                        holds, msg = self._effect_verdict(run, line, act.ground, f, "add")
                        self._add(run, Claim("effect", u.span, u.text(text), holds, msg, line.id, atom=f.atom,
                                             after=act.ground.text(), rules=("effect.list",), modality=modality))
        if "A" in s and "k" in s and modality in ("asserted", "proposed") and not re.search("[nNQ]", s):
            for m in ur.rows("effect.kept"):  # "Attack a leaves Harmony untouched": it does not remove Harmony;
                # "Attack a adds Pain a but doesn't change Harmony", "Attack a: Pain a added, Harmony stays"
                act = ur.items[m.start("act") if m.group("act") else m.start("act2")]  # type: ignore[assignment]
                if act.ground is not None:
                    self._kept_effects(run, ur, line, text, act.ground, m, "effect.kept", modality, judged_facts)
        elif "A" not in s and "k" in s and modality == "asserted" and not re.search("[nNQ]", s) and focus is not None \
                and focus.performed and focus.paragraph == u.paragraph and n - focus.unit <= 2 \
                and focus.shape.count("A") + focus.shape.count("a") <= 1 and _points_to_step(u):
            for m in ur.rows("effect.kept_focus"):  # "Attack a. That doesn't change Planet b."
                self._kept_effects(run, ur, line, text, focus.action, m, "effect.kept_focus", modality, judged_facts)
        if "D" in s and "A" in s and modality in ("asserted", "proposed") and not re.search("[nQIK]", s):
            self._effects_of(run, ur, line, text, judged_facts, modality)
        told = run.focus if run.telling == n - 1 and run.focus is not None and run.focus.told \
            and _effect_list(ur) else None
        # the step told over paragraphs: "Removes Province a, ..." (not "4. Create Pain a.", an aim)
        if told is not None and (focus is None or focus.action != told.action or focus.paragraph != u.paragraph):
            focus = told
        pointed = _pointing_masked(ur)  # read once for the effect rows and the state rows below
        fur, pointing = pointed if pointed is not None and "A" not in s and ("D" in s or "X" in s) else (ur, ())
        # "We lose Pain a after this step.": words that point at the step in focus
        fs = fur.shape
        if "A" not in s and ("D" in s or "X" in s) and focus is not None and (focus.performed or focus is told) \
                and focus.shape.count("A") + focus.shape.count("a") <= 1 \
                and (focus is told or (focus.paragraph == u.paragraph and n - focus.unit <= 3)
                     or (focus.paragraph == u.paragraph - 1 and n - focus.unit <= 3 and not focus.item
                         and _points_to_step(u))) \
                and fur.matches("effect.focus") \
                and "R" not in s and "T" not in fs and "a" not in s[:_first_cue(s)] and "J#" not in s and "U" not in s \
                and not ("R" in focus.shape and ur.matches("event.blocked")):  # "...: requires Province b. But
            # Province b was removed.": a need found gone, not an effect of the step
            for c, what, ks in _cue_groups(fs, -1, "Ff"):  # "- Pain removed.": some fact of the predicate
                if "I" in s[:c]:
                    continue
                if _denied_cue(fs, c, ks):  # "Attack a. It doesn't remove Planet b."
                    for k in ks:
                        if s[k] == "f":
                            continue
                        judged_facts.add(k)
                        self._effect_denied(run, u, text, line, focus.action, ur.items[k], what,  # type: ignore[arg-type]
                                            "effect.told" if focus is told else "effect.focus", modality)
                    continue
                for k in ks:
                    f = ur.items[k]
                    judged_facts.add(k)
                    said = _said_effect(fs, k, f, what, c)  # type: ignore[arg-type]
                    if said is None:
                        continue
                    holds, msg = self._effect_verdict(run, line, focus.action, f, said)  # type: ignore[arg-type]
                    self._add(run, Claim("effect", u.span, u.text(text), holds, msg, line.id, atom=f.atom,  # type: ignore[union-attr]
                                         negative=said == "del", after=focus.action.text(),
                                         rules=("effect.told" if focus is told else "effect.focus", *pointing),
                                         modality=modality))
            for k, f in ur.facts:  # "So we get Pain a, while Harmony doesn't change.": what the step leaves
                kept = _kept_hit(ur, k) if k not in judged_facts and _KEPT_AFTER.match(s, k + 1) else None
                if kept is not None and (kept.cue != "kept.unchanged" or _persists(ur, k)):
                    self._kept_effect(run, ur, line, text, focus.action, k, kept.cue == "kept.same",
                                      "effect.focus", modality, judged_facts)
            if focus.pre is not None:
                for m in ur.rows("effect.keeps"):  # "That gives Pain b and Province c while keeping b craves c"
                    for k in range(m.start("facts"), m.end("facts")):
                        f = ur.items[k]
                        if s[k] != "F" or k in judged_facts or f.atom is None or _negated(s, k):  # type: ignore[union-attr]
                            continue
                        judged_facts.add(k)
                        after = apply(focus.action, focus.pre)
                        holds, msg = self.judge.state(after, f.atom, True, f"after {focus.action.text()}")  # type: ignore[union-attr]
                        self._add(run, Claim("state", u.span, u.text(text), holds, msg, line.id, atom=f.atom,  # type: ignore[union-attr]
                                             after=focus.action.text(), rules=("effect.focus", "effect.keeps"),
                                             modality=modality, state=_atoms(after)))
        telling_it = focus is not None and focus.performed and run.telling == n - 1
        if asserted and focus is not None and focus.performed \
                and ur.matches("effect.label") and (
                    (focus.paragraph == u.paragraph and n - focus.unit <= 2
                     and (s[0] == "T" or u.tokens[ur.starts[0]].norm in _EFFECT_LABELS))
                    or (telling_it and (s[0] == "T" or u.tokens[ur.starts[0]].norm in _EFFECT_WORDS))):
            # a paragraph on, "Result:" may list the state after the step, not what it adds
            self._labelled_effects(run, ur, line, text, focus.action, judged_facts)
        elif asserted and telling_it and ur.matches("effect.unlabelled"):
            self._labelled_effects(run, ur, line, text, focus.action, judged_facts, lo=0)  # type: ignore[union-attr]
        if run.listed is not None and run.listed[1] == n - 1 and "A" not in s and "a" not in s \
                and modality in ("asserted", "proposed") and not re.search("[nNQIK]", s) \
                and not any(c.kind == "effect" for c in run.claims[first_claim:]):
            self._listed_effects(run, ur, line, text, run.listed[0], judged_facts, modality)
        # effects claimed through a purpose: "Feast c from b to get Province c and Pain c", "To create c
        # craves a, we need Overcome a from c": the action is said to give the fact. A purpose can be a
        # far aim ("Unstack red to get orange on blue"), so a fact is judged only when the action adds
        # (or removes) facts of its predicate: then a wrong object is the model's misreading of the action
        if modality in ("asserted", "proposed", "hypothetical"):
            self._purposes(run, ur, line, text, judged_facts, modality)
            self._needs_of(run, ur, line, text, modality, n)
        # the state after an action: an arrow list, or the lines under "After Attack a:"
        arrow = ur.rows("effect.arrow")
        after_act: GroundAction | None = None
        rid_after = None
        if arrow:
            after_act = ur.items[arrow[0].start("act")].ground  # type: ignore[union-attr]
            rid_after = "effect.arrow"
            lo = arrow[0].end()
        elif heading is not None and heading.kind == "after" and heading.action is not None and (u.bullet or u.indent) \
                and u.line_start:  # a line under the heading; not "But they are already present." after its first sentence
            after_act = heading.action
            rid_after = heading.rules[0] if heading.rules else "heading.after"
            lo = 0
        elif heading is not None and heading.kind == "step" and heading.action is not None and (u.bullet or u.indent) \
                and u.line_start and ("D" in s or "X" in s) and not re.search("[ARIQHG]", s):
            after_act, rid_after, lo = heading.action, "heading.step", 0  # "So Succumb a:" over "- Pain a removed."
        elif run.after_heading is not None and n - run.after_heading[1] == 1 and "A" not in s and (
                _EFFECT_LEAD.match(s) or (s.startswith("_:") and u.tokens[ur.starts[0]].norm in _EFFECT_WORDS)):
            after_act = run.after_heading[0]  # "After Feast c from a:\n\nAdds Pain a, Province a.\n\nRemoves ...": its
            rid_after = run.after_heading[2]  # effects, a paragraph each
            lo = 0
            run.after_heading = (after_act, n, rid_after)
        if after_act is not None and (asserted or modality == "proposed"):
            base = self._heading_base(line, after_act)
            other_act = min((i for i, _ in ur.actions if i >= lo), default=len(s))
            pending = [(k, f) for k, f in ur.facts if lo <= k < other_act and k not in judged_facts and f.atom is not None]
            pre_atoms = {lit.atom for lit in after_act.pre if lit.positive}
            if rid_after == "effect.arrow" and pending and all(f.atom in pre_atoms for _, f in pending) \
                    and not all(f.atom in after_act.add for _, f in pending):
                pending = []  # "Overcome b from c -> Province c and Pain": its needs, not its result
            if rid_after in ("heading.after", "heading.after_step", "heading.step") and ("D" in s or "X" in s):
                for c, what, ks in _cue_groups(s, -1, "Ff"):
                    for k in ks:
                        if k in judged_facts:
                            continue
                        f = ur.items[k]
                        judged_facts.add(k)
                        holds, msg = self._effect_verdict(run, line, after_act, f, what)  # type: ignore[arg-type]
                        self._add(run, Claim("effect", u.span, u.text(text), holds, msg, line.id, atom=f.atom,  # type: ignore[union-attr]
                                             negative=what == "del", after=after_act.text(), rules=(rid_after,),
                                             modality=modality))
                pending = []  # "- Remove Province c (other object), Pain b.": a fact the cue's list did not reach is
                # still an effect told, not the state
            for k, f in pending if base is not None else ():
                judged_facts.add(k)
                neg = (_negated(s, k) or _list_denied(s, k, ur)) != f.absent_word  # "- (c no longer craves b)"
                holds, msg = self.judge.state(apply(after_act, base), f.atom, not neg, f"after {after_act.text()}")
                self._add(run, Claim("state", u.span, u.text(text), holds, msg, line.id, atom=f.atom, negative=neg,
                                     after=after_act.text(), rules=(rid_after,), modality=modality,
                                     state=_atoms(apply(after_act, base))))
        # a numbered step of a walk that takes the action and states its effects presents it as doable
        if focus is not None and focus.performed and not focus.proposed and not focus.judged and asserted \
                and focus.pre is not None and focus.item and any(
                    c.after == focus.action.text() and (c.kind == "effect" or "effect.arrow" in c.rules)
                    and not any(r.startswith("effect.purpose") for r in c.rules)  # "2. Overcome a from c to get a craves c.": proposed
                    and c.span[0] >= focus.span[0] for c in run.claims[-8:]) and "N" not in s and "K" not in s \
                and n - focus.unit <= 1:
            focus.judged = True
            holds, msg = self.judge.applicable(focus.action, focus.pre, True)
            self._add(run, Claim("applicability", u.span, u.text(text), holds, msg, focus.line,
                                 state=_atoms(focus.pre), rules=("app.walk",), modality=modality,
                                 action=focus.action.text()))
        # "Province b, which was removed in step 5": what step 5 of the list did
        if modality in ("asserted", "proposed") and run.item_base is not None and "J#" in s:
            for m in _FACT_IN_STEP.finditer(s):
                f = ur.items[m.start()]
                at = _list_step(run, line, ur.number_at(m.end() - 1), u)
                if not isinstance(f, FactMention) or f.atom is None or at < 0 or m.start() in judged_facts:
                    continue
                judged_facts.add(m.start())
                what = "add" if m.group("cue") == "D" else "del"
                holds, msg = self.judge.effect(line.actions[at], f.atom, what)
                self._add(run, Claim("effect", u.span, u.text(text), holds, msg, line.id, atom=f.atom,
                                     negative=what == "del", after=line.actions[at].text(), rules=("effect.in_step",),
                                     modality=modality))
        # applicability
        self._applicability(run, ur, n, modality, line, text, focus)
        if not asserted:
            return
        # facts tagged yes/no, state lists, facts said gone or denied
        in_needs = "R" in s or (heading is not None and heading.kind == "req")
        about_init = _about_initial(s) or (heading is not None and heading.kind == "initial")
        state_list = ur.matches("state.list") or (heading is not None and heading.kind in ("state", "initial")
                                                 and (u.bullet or u.indent or u.item is None))
        first_fact = min((k for k, _ in ur.facts), default=len(s))
        rule_talk = "A" not in s and 0 <= s.find("a") < first_fact and any(ch in s for ch in "RDXN")  # "Attack
        # says once performed, the facts will be false: ..."; not "..., because the Feast changed the planets"
        need_at = s.find("R")
        after_step = _AFTER_STEP.search(s) or _STATE_OF_STEP.match(s)  # "State after step 3: ..."
        step_state: frozenset[Atom] | None = None
        if after_step is not None:
            kth = ur.number_at(after_step.end() - 1)
            if kth is None or run.item_base is None or not 0 < run.item_base + kth <= len(line.actions) \
                    or not line.known_at(run.item_base + kth) \
                    or run.step_named.get(kth, line.actions[run.item_base + kth - 1]) != line.actions[run.item_base + kth - 1] \
                    or line.item_of[run.item_base + kth - 1] not in (None, kth):
                return  # "After step 5, we have ...": a state we cannot place
            step_state = line.states[run.item_base + kth]
        step_allowed = _STEP_ALLOWED.search(s) if after_step is None and "J" in s else None
        if step_allowed is not None:  # "Orange is on the table and clear at that point, so step 3 is allowed."
            kth = ur.number_at(step_allowed.start() + 1)  # the facts are step 3's needs: the state before it
            if kth is None or run.item_base is None or not 0 < run.item_base + kth <= len(line.actions) \
                    or not line.known_at(run.item_base + kth - 1) \
                    or line.item_of[run.item_base + kth - 1] not in (None, kth):
                return
            step_state, after_step = line.states[run.item_base + kth - 1], step_allowed
        governed = {k: what for _, what, ks in _cue_groups(s, -1, "F") for k in ks}
        means_at = s.find("M")
        vague_at = _vague_time(ur, line)
        opening = BY_ID["state.after_opening"].regex.match(s)  # "After Attack a, Harmony is true": the action
        # sets the time the facts speak of; the facts are not about it
        tail = opening.end() if opening is not None else 0
        named_last = s.rfind("A", 0, tail)
        if (opening is not None and named_last < 0 or opening is None and _POINTING_OPENING.match(s)) \
                and not (focus is not None and focus.performed and focus.line == line.id):
            return  # "After that, ..." or "Once performed, ..." with no step taken to point at: the state after a
            # step only proposed or talked of (row state.after_opening), not the line's
        grounded = [m for i, m in ur.actions if m.ground is not None and i >= tail]  # "because the Feast changed it" names none
        closing = BY_ID["state.after_closing"].regex.search(s) if opening is None and s.count("A") == 1 else None
        if closing is not None and re.search("[DXRIQMHGKaJ]", s[:closing.start()]) is None:
            named_last, grounded = closing.start("act"), []  # "Province b is gone after Attack a.": as "After Attack a, ..."
        else:
            closing = None
        if tail and not state_list and BY_ID["state.list"].regex.match(s[tail:]):
            state_list = True  # "After Attack a, we have Pain a and Harmony."
        listing_line = run.lines[run.list_start[0]] if run.list_start is not None else None
        step_list = after_step is not None and not state_list and ur.matches("state.step_list") \
            and listing_line is not None and u.paragraph - run.moved.get(listing_line.id, -9) <= 2 \
            and bool(listing_line.item_of) and listing_line.item_of[-1] is not None
        # the list written near, and its line not walked on in prose since ("Then Feast c from a ..."): a
        # recap there may count steps of its own
        if step_list:
            state_list = True  # "After step 1: Province b, Pain a.": the state after the list's step 1
        twice = named_last >= 0 and ur.items[named_last].ground is not None \
            and line.actions.count(ur.items[named_last].ground) > 1  # type: ignore[union-attr]
        # "After Feast b from a, we have ..." where the line did it twice: which time is not said
        pointing_after = opening is None and closing is None and focus is not None and "T" in s \
            and pointed is not None and "focus.pointing_time" in pointed[1] \
            and "T" not in pointed[0].shape and not re.search("[DXRIQMHGKaAJ]", s[:s.rfind("T")])
        # "We have Harmony after that.": as "After that, we have Harmony." right after the step
        said_after = focus is not None and (opening is not None or closing is not None or pointing_after) and (
            named_last < 0 or ur.items[named_last].ground == focus.action)  # type: ignore[union-attr]
        # "After Attack a, Harmony is true." or "After that, ..." right after the step: the state after it, said
        both_ways: list[Claim] = []  # facts true before the step just taken and false after it
        before_false = False  # a fact of the unit false in the state before that step: no reading makes the unit true
        effect_talk = re.match(r"[~,&]*[DX]", s) is not None
        reason = re.match(r"[~,]*U", s) is not None and focus is not None and n - focus.unit <= 1 \
            and focus.paragraph == u.paragraph  # "And removes ..., Province (b is removed)"
        if need_at >= 0 and focus is not None and focus.paragraph == u.paragraph \
                and (focus.unit == n or (not ur.actions and n - focus.unit <= 2)):
            run.need_run = (focus.unit, n)  # "Step 4: Overcome a from c. Requires Province c and Pain a."
        need_facts = {k for k, f in ur.facts if f.atom is not None and self._need_check(run, ur, n, f, focus, line)} \
            if asserted and not in_needs and not about_init else set()
        if need_facts and len(need_facts) == len(ur.facts):
            run.need_run = (focus.unit, n)  # type: ignore[union-attr]  # "Hand is empty.": a check, judged or not
        for k, f in ur.facts:
            if rule_talk or effect_talk or (need_at >= 0 and k > need_at and _tag(s, k) is None) \
                    or (means_at >= 0 and k > means_at) or s[k + 1:k + 2] == "m":
                continue  # "we need Province a", "to create c craves a", "red must be clear": needs and goals,
                # not the state; "Requires Province b (yes)" says Province b holds
            if vague_at >= 0 and k > vague_at:
                continue  # "but after various steps, we lost Province b": a state we cannot place
            if twice and k >= tail:
                continue
            if closing is not None and k > closing.start():
                continue
            if f.atom is None and state_list and not ur.actions and not about_init and line.known and k not in judged_facts \
                    and (s[k + 1:k + 2] in ("", ",", ".", ";", "&")) and _item_start(s, k):
                positive = not (_negated(s, k) or _list_denied(s, k, ur) or _list_negated(s, k))
                if not positive and len(self.task.objects) > 1 and _arity(self.task, f.predicate) > 0 \
                        and not _STATE_HEADED.match(s):
                    continue  # "no Province" beside Attack a: whose province is not said; under "State:" it
                    # lists the whole state, and says no province holds
                holds, msg = self.judge.state_any(line.state, f.predicate, positive,
                                                  "after " + ", ".join(a.text() for a in line.actions)
                                                  if line.actions else "in the initial state")
                self._add(run, Claim("state", u.span, u.text(text), holds, msg, line.id, negative=not positive,
                                     state=_atoms(line.state), rules=("state.list",), modality=modality,
                                     after=line.actions[-1].text() if line.actions else None))
                continue
            if k in judged_facts or f.atom is None:
                continue
            tag = _tag(s, k)
            rid = None
            positive = True
            if tag is not None:
                rid, positive = "fact.tag", (tag == "Y") != _denied(s, k)  # "no Pain b exists"
            elif state_list and not grounded:
                if "|" in s[max(0, k - 1):k + 2] and not (_negated(s, k) or _list_negated(s, k)):
                    continue  # "Province a or Province b": neither is asserted
                if governed.get(k) == "add" and _aim_cue_before(ur, k):
                    continue  # "5. Now, create c craves a.": an aim, not a fact of the state
                if re.search(r"O[^.;:?!,]*$", s[:k]):
                    continue  # "But the goal is c→b." under a state heading: the aim, not a fact of the state
                if governed.get(k) == "del" and _singular_gone_after(s, k, ur):
                    continue  # "with Province b, Harmony, and Pain b is removed": the earlier items may be kept
                rid, positive = "state.list", not (_negated(s, k) or (_list_denied(s, k, ur) and not f.absent_word)
                                                   or _list_negated(s, k) or (governed.get(k) == "del" and not _one_item_gone(s, k, ur)))
            elif (ur.matches("state.plain") or (pointing_after and pointed[0].matches("state.plain"))) \
                    and not grounded and not in_needs and focus is not None and focus.performed \
                    and n - focus.unit <= 1 and focus.paragraph == u.paragraph:  # "Red is clear after that." too
                rid, positive = "state.plain", not (_negated(s, k) or _list_negated(s, k))
            elif tail and not grounded and not in_needs and BY_ID["state.plain"].regex.match(s[tail:]) \
                    and (named_last >= 0 or said_after):  # "After unstacking blue, blue is on the table."
                rid, positive = "state.plain", not (_negated(s, k) or _list_negated(s, k))
            elif not grounded and not in_needs and "W" not in s and run.said_now == (u.paragraph, line.id, len(line.actions)) \
                    and ur.matches("state.said_now") and (s.find("U") < 0 or k < s.find("U")):
                rid, positive = "state.said_now", not (_negated(s, k) or _list_negated(s, k))
            elif not grounded and not in_needs and "W" not in s and run.said_init == (u.paragraph, line.id, len(line.actions)) \
                    and ur.matches("state.said_now") and (s.find("U") < 0 or k < s.find("U")):
                rid, positive = "state.said_initial", not (_negated(s, k) or _list_negated(s, k))
            elif _gone(s, k) and not grounded and not in_needs:
                rid, positive = "state.gone", False
            elif re.match(r"_{0,2}(?:k|Y|W_)", s[k + 1:k + 5]) and not grounded and not in_needs:
                if _OPENS_DENIED.match(s):
                    continue  # "None of Province a, Planet a or Harmony remain.", "Neither Planet a nor Harmony
                    # remains.": the last fact is not said to hold
                rid, positive = "state.holds", True
            elif _denied(s, k) and not grounded and not in_needs and ("S" in s or "W" in s or _said_had(ur, k - 1, "no")):
                rid, positive = "state.no", False  # also "We don't have Pain b."
            elif k and _said_had(ur, k - 1, "kept") and not grounded and not in_needs:
                rid, positive = "state.holds", True  # "We still have Harmony."
            if need_facts and k not in need_facts:
                continue  # "Province is a, not c." after Overcome a from c's needs: the check speaks of the state
                # before the step, and Province a, no need of it, is not judged there
            if rid in (None, "state.gone", "state.no", "state.holds", "state.plain") and k in need_facts:
                if rid is None and not (_denied(s, k) or f.absent_word):
                    continue
                if rid is None:
                    positive = not _denied(s, k)  # ("Province is a, not c": Province c, said absent by its words,
                    # is flipped below)
                rid = "state.need_check"
                run.need_run = (focus.unit, n)  # type: ignore[union-attr]
            if rid is None:
                continue
            kept = _kept_hit(ur, k) if rid in ("state.holds", "state.list") else None
            if kept is not None and kept.cue in ("kept.same", "kept.not_removed"):
                near = focus is not None and focus.performed and focus.pre is not None and focus.paragraph == u.paragraph \
                    and n - focus.unit <= STATE_REACH and bool(line.actions) and line.actions[-1] == focus.action \
                    and (said_after or not re.search("[TJZ]", s))  # not "after step 1, Province a was not removed"
                if near:
                    self._left_as_was(run, ur, k, f, line, text, kept.cue, modality, judged_facts)
                elif tail and named_last >= 0 and ur.items[named_last].ground is not None:  # type: ignore[union-attr]
                    self._kept_effect(run, ur, line, text, ur.items[named_last].ground, k,  # type: ignore[union-attr,arg-type]
                                      kept.cue == "kept.same", "state.after_opening", modality, judged_facts)
                    # "After Attack a, Harmony doesn't change.": what the action does to it
                continue  # "Pain b is unchanged", "Harmony is not removed": of the step, not that the fact holds
            tag_state = heading is not None and not in_needs and (heading.kind == "state" or (
                heading.kind == "after" and bool(line.actions) and line.actions[-1] == heading.action))
            # "So after Attack c, we have:" over "Harmony: No.", "b craves a: No (removed).": the state it heads
            if rid == "fact.tag" and not in_needs and not about_init and not tag_state \
                    and "S" not in s and "W" not in s and "T" not in s:
                in_needs = focus is not None and focus.paragraph == u.paragraph \
                    and (n - focus.unit <= 1 or run.tag_run == (focus.unit, n - 1)) \
                    and f.atom in {lit.atom for lit in focus.action.pre}  # "Attack a. Pain a is there.": no need
                # of the step, so no check of its needs (it was judged before the step, and flagged); "Check:
                # Province c - yes. Pain a - yes.": each check of a run goes on checking the step's needs
                if not in_needs and _stated(ur, k) and not grounded:
                    rid, positive = "state.holds", True  # "Succumb a. Harmony is back.": no need of the step, said
                    # to hold after it
                elif not in_needs:
                    continue
                else:
                    run.tag_run = (focus.unit, n)  # type: ignore[union-attr]
            persists = _persists(ur, k)  # "Planet a stays.", "Province a is kept.": the step left it, the state after
            checked = rid == "state.holds" and not persists and not in_needs and not about_init and not any(ch in s for ch in "SWT") \
                and focus is not None and n - focus.unit == 1 and f.atom in {lit.atom for lit in focus.action.pre if lit.positive} \
                and ((focus.needs_listed and focus.paragraph == u.paragraph)
                     or (focus.performed and f.atom in focus.action.delete and positive and u.paragraph - focus.paragraph <= 1))
            # "Step 6: Overcome b from a requires Province a and Pain b. Province a is present (yes), ...": the
            # needs just listed, checked one by one, in the state before the step; and "Succumb c to get
            # Province c. But Pain c is present.": a need of the step just named, which the step removes,
            # said present with no time word: the need checked, before the step
            needs_step = run.needs_of[1] if run.needs_of is not None and run.needs_of[0] == u.paragraph \
                and rid == "state.holds" and not in_needs and not about_init and not any(ch in s for ch in "ST") \
                and f.atom in {lit.atom for lit in run.needs_of[1].action.pre if lit.positive} else None
            # "Step 2: Overcome b from a.\n\nPre: ..., Yes. So Province(a) is present, Pain(b) from step 1.": a
            # paragraph headed "Pre:" under the step checks the step's needs, before it
            if rid in ("state.list", "state.gone", "state.no") and focus is not None and focus.unit == n and focus.performed \
                    and "S" not in s and "W" not in s and "T" not in s:
                continue  # facts beside an action just taken: before or after it is not said
            via: tuple[str, ...] = ()
            if step_state is not None:
                state, where = step_state, (f"before step {kth} of the list" if step_allowed is not None
                                            else f"after step {kth} of the list")
            elif about_init or rid == "state.said_initial":
                state, where = self.init, "in the initial state"
            elif (in_needs and focus is not None and focus.line == line.id) or checked or rid == "state.need_check":
                state, where = focus.pre, f"before {focus.action.text()}"  # type: ignore[union-attr]
            elif needs_step is not None:
                state, where = needs_step.pre, f"before {needs_step.action.text()}"
            elif in_needs:
                continue
            elif reason and focus is not None and focus.performed and focus.line == line.id:
                state, where = focus.pre, f"before {focus.action.text()}"  # "4. Stack blue onto orange. Because orange is clear now."
            elif run.recalled == (u.paragraph, line.id, len(line.actions)):
                # the paragraph went back to a past state of the line: "now" may be that one or the line's;
                # judged only where both give one verdict (row state.both_readings)
                past = run.recalled_past(line)
                if past is None or u.paragraph - run.moved.get(line.id, u.paragraph) > ANCHOR_PARAGRAPHS:
                    continue
                sign = not positive if f.absent_word else positive
                if self.judge.state(past, f.atom, sign, "")[0] != self.judge.state(line.state, f.atom, sign, "")[0]:
                    continue
                state, via = line.state, ("state.both_readings",)
                where = "after " + ", ".join(a.text() for a in line.actions) + " and in the past state the paragraph recalled"
            else:
                moved = run.moved.get(line.id, u.paragraph)
                anchored = u.paragraph - moved <= ANCHOR_PARAGRAPHS or (
                    tag_state and heading is not None and heading.opened - moved <= ANCHOR_PARAGRAPHS)
                if not anchored and u.paragraph - moved == ANCHOR_PARAGRAPHS + 1 and ur.matches("state.now_opens"):
                    anchored, via = True, ("state.now_opens",)
                elif not anchored and tag_state and heading is not None and heading.opens_now \
                        and heading.opened - moved == ANCHOR_PARAGRAPHS + 1:
                    anchored, via = True, ("state.now_opens",)  # "Now, current state:" over its lines
                state = line.state if line.known and anchored else None
                where = "after " + ", ".join(a.text() for a in line.actions) if line.actions else "in the initial state"
            if state is None:
                continue
            if f.absent_word:
                positive = not positive
            judged_facts.add(k)
            holds, msg = self.judge.state(state, f.atom, positive, where)
            ambiguous = False
            if "W" not in s and not said_after and not persists and not _says_result(u) and focus is not None \
                    and focus.performed and focus.pre is not None \
                    and n - focus.unit <= 1 \
                    and focus.paragraph == u.paragraph and state is line.state and line.actions \
                    and line.actions[-1] == focus.action:
                held_before = self.judge.state(focus.pre, f.atom, positive, "")[0]
                before_false = before_false or not held_before
                if not holds and held_before:
                    ambiguous = True
                    holds, msg = None, (f"true before {focus.action.text()}, false after it: which of the two states "
                                        "the sentence speaks of is not said")
            self._add(run, Claim("state", u.span, u.text(text), holds, msg, line.id, atom=f.atom,
                                 negative=not positive, state=_atoms(state), modality=modality,
                                 rules=(rid, *via, *(("state.after_opening",) if tail else ()),
                                        *(("state.after_closing",) if closing is not None else ()),
                                        *(("focus.pointing_time",) if pointing_after else ()),
                                        *(("state.step_list",) if step_list else ())),
                                 after=line.actions[-1].text() if line.actions else None))
            if ambiguous:
                both_ways.append(run.claims[-1])
            elif holds is False and state is line.state and self._told_makes_it(run, u, n, f.atom, positive) \
                    and all(m.name == run.told_before[0].schema.name for _, m in ur.actions):  # type: ignore[index]
                # (not "But Province b was removed by Attack.", which names its own cause)
                c = run.claims[-1]  # "Succumb a gives back Harmony. So Harmony is true.": the state after the action
                c.holds, c.rules = None, (*c.rules, "state.after_told")  # just told, which is not taken
                c.message = (f"the sentence before tells what {run.told_before[0].text()} does, and it makes this "  # type: ignore[index]
                             "true: it may speak of the state after it")
            if rid == "state.list" and "Z" in s and about_init and state is self.init and not ur.actions \
                    and (focus is None or focus.paragraph != u.paragraph):
                run.said_init = (u.paragraph, line.id, len(line.actions))  # "The initial state is that red is on
                # orange, and both red and blue are clear. So orange is clear as well."
            if rid == "state.list" and "W" in s and state is line.state and (focus is None or focus.paragraph != u.paragraph):
                run.said_now = (u.paragraph, line.id, len(line.actions))  # not beside a step taken: its needs are
                # checked in the same words ("Step 8: Stack Blue onto Red. Red is now on Orange. ... So Red is clear.")
        if both_ways and before_false and focus is not None:
            for c in both_ways:  # "Attack a. Now we have Pain a and Province a.": before the step Pain a is false,
                # after it Province a: the unit is false in either state (row state.either_state)
                c.holds, c.rules = False, (*c.rules, "state.either_state")
                c.message = (f"says {self.judge.named(c.atom)} {'does not hold' if c.negative else 'holds'} "
                             f"after {focus.action.text()}, but it {'does' if c.negative else 'does not'}; read as the state before it, another fact "
                             "of the sentence is false there")
        _self_corrected(run.claims[first_claim:])
        # goal: of the line in force, when it moved in this paragraph or the one before (as state claims)
        anchored = u.paragraph - run.moved.get(line.id, u.paragraph) <= ANCHOR_PARAGRAPHS
        if not anchored:
            return
        once = BY_ID["goal.once"].regex.match(s) if ur.facts else None
        if ur.matches("goal.not") and "p" not in s and line.known and line.actions and "I" not in s and "H" not in s \
                and not ur.facts and asserted:
            unmet = unmet_goals(self.task.problem, line.state)
            where = "after " + ", ".join(a.text() for a in line.actions)
            holds, msg = (True, f"the goal does not hold {where}: right") if unmet else (
                False, f"says the goal does not hold {where}, but it does")
            self._add(run, Claim("goal", u.span, u.text(text), holds, msg, line.id, negative=True,
                                 state=_atoms(line.state), after=line.actions[-1].text(), rules=("goal.not",),
                                 modality=modality))
        elif (met := BY_ID["goal.met"].regex.search(s)) is not None and not _negated_clause(s, met.start(), met.end()) \
                and "p" not in s and line.known and line.actions \
                and "I" not in s and "H" not in s \
                and (not ur.facts or _FACTS_SO_GOAL.match(s) or once is not None or self._goal_named(ur)) \
                and not re.search(r"P[~_]{0,1}U[~_]{0,1}[Aa]", s):  # "achieved by stacking red on blue": a means
            if once is not None and not all(k < once.end("facts") and f.atom is not None and f.atom in line.state
                                            and not _negated(s, k) for k, f in ur.facts):
                return  # "once blue is on red" where it is not yet (or facts besides the condition): not this state
            unmet = unmet_goals(self.task.problem, line.state)
            holds, msg = self.judge.goal(line.actions, unmet)
            self._add(run, Claim("goal", u.span, u.text(text), holds, msg, line.id, state=_atoms(line.state),
                                 after=line.actions[-1].text(),
                                 rules=("goal.met",) + (("goal.once",) if once is not None else ()), modality=modality))
        elif asserted and line.known and line.actions and ur.matches("goal.done") \
                and (words := {t.norm for t in u.tokens}) <= _DONE_WORDS and (words & _WHOLE_TASK or (
                    (prev := run.before) is not None and prev.unit.paragraph == u.paragraph and "F" in prev.shape
                    and set(prev.shape) <= _STATE_TOLD_LETTERS and prev.unit.end not in ("?", ":"))) \
                or asserted and line.known and line.actions and (done := _FACTS_SO_DONE.match(s)) is not None \
                and {t.norm for t in u.tokens[ur.starts[done.start("tail")]:]} <= _DONE_WORDS \
                and any(t.norm in ("we", "we're") for t in u.tokens[ur.starts[done.start("tail")]:]):
            # "Now a craves b. Done.", "The task is complete.", "Red is on orange, so we're done."
            holds, msg = self.judge.goal(line.actions, unmet_goals(self.task.problem, line.state))
            self._add(run, Claim("goal", u.span, u.text(text), holds, msg, line.id, state=_atoms(line.state),
                                 after=line.actions[-1].text(), rules=("goal.done",), modality=modality))
        elif asserted and line.known and line.actions and not re.search("[IHGQRnN]", s) \
                and (pointed := self._goal_pointed(run, ur)) is not None:
            unmet = unmet_goals(self.task.problem, line.state)
            goal = {lit.atom for lit in self.task.problem.goal if lit.positive}
            if unmet and pointed and all(f.atom in goal and f.atom in line.state for f in pointed):
                return  # "After step 3, b craves c, which is the goal": the part of the goal just reached
            holds, msg = self.judge.goal(line.actions, unmet)
            self._add(run, Claim("goal", u.span, u.text(text), holds, msg, line.id, state=_atoms(line.state),
                                 after=line.actions[-1].text(), rules=("goal.that",), modality=modality))

    @staticmethod
    def _goal_pointed(run: _Run, ur: UnitReading) -> list[FactMention] | None:
        """Row goal.that: the facts "that is the goal" points to (those before it in the unit, else
        those of the unit before, which tells a state), or None when the unit is no such claim."""
        m = BY_ID["goal.that"].regex.search(ur.shape)
        if m is None:
            return None
        toks = ur.unit.tokens
        o = ur.starts[ur.shape.rindex("O")]
        words = [t.norm for t in toks[ur.starts[m.start()]:o] if t.norm != ","]
        while words and words[0] in _GOAL_THAT_OPENERS:
            words.pop(0)
        if len(words) < 1 or words[0] not in _GOAL_POINTERS:
            return None
        rest = words[1:] if words[0].endswith("'s") else words[2:] if len(words) > 1 and words[1] in _GOAL_IS else None
        if rest is None or any(w not in _GOAL_MODIFIERS for w in rest):
            return None  # "which is part of the goal", "that is what the goal needs"
        if m.start() > 0:
            return [f for k, f in ur.facts if k < m.start() and f.atom is not None]
        prev = run.before
        if prev is None or prev.unit.paragraph != ur.unit.paragraph or re.search("[OIHGQR]", prev.shape) \
                or prev.unit.end in ("?", ":") or not re.search("[FA]", prev.shape):
            return None  # "We need b to crave c. That's the goal.": the goal restated, not reached
        return [f for _, f in prev.facts if f.atom is not None]

    @staticmethod
    def _need_check(run: _Run, ur: UnitReading, n: int, f: FactMention, focus: _Focus | None,
                    line: LineOfReasoning) -> bool:
        """"Step 4: Overcome a from c needs Province c and Pain a. No Province c.": right after the
        needs of the step in focus are listed (or checked one by one), a plain sentence that says one
        of them holds or not checks it, in the state before the step (row state.need_check)."""
        if focus is None or focus.pre is None or focus.line != line.id or focus.paragraph != ur.unit.paragraph:
            return False
        needs = {lit.atom for lit in focus.action.pre if lit.positive}
        if f.atom not in needs:
            return False
        if ur.matches("app.because_needs"):  # "Possible because red is clear, hand is empty."
            return focus.unit == n - 1 or run.need_run == (focus.unit, n - 1)
        if not ur.matches("state.need_check"):  # not "Planet c is still there": after the step
            return False
        if run.need_run == (focus.unit, n - 1):
            return True
        # "Step 1: Pick up red. Red is on table, clear. Hand is empty. So allowed.": right after the step
        # taken, a sentence that lists two or more facts, plainly, each a need of it, checks them unlisted; one
        # fact ("Blue is on red.") may as well be said of the state after the step (row state.need_check)
        return focus.performed and focus.unit == n - 1 and len(ur.facts) >= 2 and _PLAIN_FACTS.match(ur.shape) is not None \
            and all(g.atom in needs for _, g in ur.facts)

    @staticmethod
    def _heading_base(line: LineOfReasoning, action: GroundAction) -> frozenset[Atom] | None:
        """The state "After Feast b from a:" speaks from: before the line's last step when that is the
        action; before it where the line took it once earlier ("After step 1 (Feast b from a):" once
        the walk has gone on); the line's state when the action is its next step; else not placed."""
        if not line.known:
            return None
        if line.actions and line.actions[-1] == action:
            return line.states[-2]
        at = [i for i, a in enumerate(line.actions) if a == action]
        if len(at) == 1:
            return line.states[at[0]] if line.known_at(at[0]) else None
        if not at and not unmet_preconditions(action, line.state):
            return line.state
        return None

    def _state_before(self, line: LineOfReasoning, action: GroundAction) -> frozenset[Atom] | None:
        if not line.known:
            return None
        if line.actions and line.actions[-1] == action:
            return line.states[-2]
        return line.state

    def _applicability(self, run: _Run, ur: UnitReading, n: int, modality: str, line: LineOfReasoning, text: str,
                       focus: _Focus | None) -> None:
        u = ur.unit
        s = ur.shape
        rid = None
        target: _Focus | None = None
        positive = True
        cant = next((m for m in ur.rows("app.cant") if _about_action(s, m.start(), ur)), None)
        if cant is not None and modality != "hypothetical":
            rid, positive = "app.cant", False
            grounded = [m for _, m in ur.actions if m.ground is not None]
            ref = re.search(r"J#", s)
            kth = ur.number_at(ref.end() - 1) if ref else None
            when = _AFTER_STEP.search(s)
            if when is not None and grounded:  # "after step 1, Attack a (can't)": a time, not the step rejected
                at = run.item_base + kth if kth is not None and run.item_base is not None else -1
                known = 0 <= at <= len(line.actions) and line.known_at(at)
                target = _Focus(grounded[0].ground, line.states[at] if known else None, line.id, n, False, False,  # type: ignore[arg-type]
                                u.span)
            elif (rejected := _rejected_step(ur, s)) is not None and run.item_base is not None \
                    and 0 < run.item_base + rejected <= len(line.actions) and line.known_at(run.item_base + rejected - 1):
                at = run.item_base + rejected - 1  # "so step 1 can't be done": the list's step 1, in the state before it
                target = _Focus(line.actions[at], line.states[at], line.id, n, False, False, u.span)
            elif grounded:
                g = grounded[0].ground
                target = focus if focus is not None and focus.action == g else _Focus(
                    g, line.state if line.known else None, line.id, n, False, False, u.span)
            elif focus is not None and n - focus.unit <= 3 and ur.unit.paragraph == focus.paragraph \
                    and "L" not in s[:cant.start()]:  # ("That plan would fail.": a verdict on the plan, not the step)
                target = focus  # "Action 3: Feast c from a. Needs ... Wait, Province is a now. So can't do."
        elif modality == "asserted" and not _proposal(run.heading):
            can_rows = ur.rows("app.can")
            works_rows = [] if can_rows or "W" not in s or len(ur.actions) != 1 else ur.rows("app.works")
            for m in can_rows or works_rows:
                grp = "act" if m.group("act") else "act2"
                act: ActionMention = ur.items[m.start(grp)]  # type: ignore[assignment]
                if "I" in s[:m.start(grp)] or "n" in s[max(0, m.start() - 2):m.end() + 1] or "Q" in s \
                        or "M" in s[:m.start()] or re.search(r"c[^.]*[RNK]", s[m.end():]) or _asked(ur):
                    continue  # "To get Pain a, we can Attack a", "we can Feast a from c ..., but we need Harmony"
                if any(u.tokens[h.i].norm == "only" for h in ur.cues.by_cls.get("req", ())):
                    continue  # "Red can be picked up only if it is clear": the rule, not a claim about now
                if _by_means(ur, m.start(), m.start(grp)):
                    continue  # "a craves c: this can be done with Overcome a from c": how, not whether it can be done now
                performed_here = focus is not None and focus.unit == n and focus.action == act.ground
                said_now = "W" in s or "R" in s or "U" in s or _in_this_state(u)
                if not (performed_here or said_now):
                    break  # "you can stack red on orange": doable in principle or after steps left out; unjudged
                if _about_initial(s):  # "But in the initial state, we could Feast c from a, since ..."
                    target = _Focus(act.ground, self.init, line.id, n, False, False, u.span)  # type: ignore[arg-type]
                elif focus is not None and focus.action == act.ground:
                    target = focus
                elif run.recalled == (u.paragraph, line.id, len(line.actions)) and not performed_here:
                    # "Wait, after unstacking Blue from Red, ... Then Red is on the table. So we can pick up Red": the
                    # paragraph went back to a past state of the line; which one "we can" speaks of is not said, so it
                    # is judged only where both give one verdict (row state.both_readings)
                    past = run.recalled_past(line)
                    if past is None or any(m.ground != act.ground for _, m in ur.actions) \
                            or bool(unmet_preconditions(act.ground, past)) != bool(unmet_preconditions(act.ground, line.state)):  # type: ignore[arg-type]
                        break
                    target = _Focus(act.ground, line.state, line.id, n, False, False, u.span)  # type: ignore[arg-type]
                else:
                    target = _Focus(act.ground, line.state if line.known else None, line.id, n, False, False,  # type: ignore[arg-type]
                                    u.span)
                rid = "app.can" if can_rows else "app.works"
                break
            if rid is None and "J" in s and "I" not in s and (allowed := _STEP_ALLOWED.search(s)) is not None \
                    and not re.search("[nN]", s[allowed.start():allowed.end() + 1]):
                kth = ur.number_at(allowed.start() + 1)  # "So step 2 is allowed.": the list's step 2, before it
                at = run.item_base + kth - 1 if kth is not None and run.item_base is not None else -1
                if 0 <= at < len(line.actions) and line.known_at(at) and line.item_of[at] in (None, kth):
                    target = _Focus(line.actions[at], line.states[at], line.id, n, False, False, u.span)
                    rid = "app.step_allowed"
            if rid is None:
                met = ur.rows("app.needs_met")
                if met:
                    act = ur.items[met[0].start(next(g for g in ("act", "act2", "act3") if met[0].group(g)))]  # type: ignore[assignment]
                    target = focus if focus is not None and focus.action == act.ground else _Focus(
                        act.ground, self._pre(run, line, act.ground, u), line.id, n, False, False, u.span)  # type: ignore[arg-type]
                    rid = "app.needs_met"
            checked = focus is not None and (not focus.proposed or BY_ID["app.yes_after_needs"].regex.search(s) and (
                focus.needs_listed or focus.shape.startswith(("A:F", "A):F"))))
            said_yes = "app.yes_after_needs" if ur.matches("app.yes_after_needs") else \
                "app.because_needs" if ur.matches("app.because_needs") else None
            if rid is None and focus is not None and checked and said_yes is not None \
                    and ("R" in s or focus.unit == n or focus.needs_listed or n - focus.unit <= 1
                         or run.need_run == (focus.unit, n - 1)):  # "So allowed." after the needs checked
                target, rid = focus, said_yes
            if rid is None:
                if ur.matches("app.some_needs") and re.search(r"Y[~_]*[.!]?$", s) and line.known \
                        and not any(ch in s for ch in "IQn"):
                    act = next(m for _, m in ur.actions if m.ground is None)
                    holds, msg = self.judge.some_applicable(act.name, line.state)
                    self._add(run, Claim("applicability", u.span, u.text(text), holds, msg, line.id,
                                         state=_atoms(line.state), rules=("app.some_needs", "app.all_present"),
                                         modality=modality))
                    return
                bare = next((m for _, m in ur.actions if m.ground is None and all(a is None for a in m.args)), None)
                if bare is not None and ur.matches("app.some_can") and modality == "asserted" \
                        and not any(t.norm in _ASKING for t in u.tokens[:bare.i]) \
                        and not any(t.norm in ("that", "this", "it", "so") for t in u.tokens[bare.j:]) \
                        and not (focus is not None and focus.action.name == bare.name):
                    # "So Attack could be done here."; not "Overcome can do that." (what it can make, after "How can
                    # we create craves?"); "4. Stack Red on Orange. ... So stacking is allowed." speaks
                    # of the step in focus. Judged where the line stands, or in the initial state when the
                    # paragraph opened on it and nothing was done since ("The initial state has Province b,
                    # Planet a, Harmony. So possible first steps: ... So Attack could be done here.")
                    where: frozenset[Atom] | None = None
                    if line.known and u.paragraph - run.moved.get(line.id, u.paragraph) <= ANCHOR_PARAGRAPHS:
                        where = line.state
                    elif run.initial_paragraph is not None and run.initial_paragraph[0] == u.paragraph and not any(
                            e.kind in ("perform", "fork", "step_back") for e in run.book.events[run.initial_paragraph[1]:]):
                        where = self.init
                    if where is not None:
                        holds, msg = self.judge.some_applicable(bare.name, where)
                        self._add(run, Claim("applicability", u.span, u.text(text), holds, msg, line.id,
                                             state=_atoms(where), rules=("app.some_can",), modality=modality))
                        return
        if "R" in s and focus is not None and focus.unit == n:
            focus.needs_listed = True
        if rid is not None and target is not None and not positive and target.performed and line.actions \
                and line.actions[-1] == target.action and target.line == line.id:
            run.book.undo(line, u.span[0], rid)  # "Feast c from a ... can't do": an action found impossible is not taken
        if rid is None or target is None or target.pre is None:
            return
        if modality in ("hypothetical",) or (modality == "proposed" and positive):
            return
        if target.judged and positive:
            return
        target.judged = True
        holds, msg = self.judge.applicable(target.action, target.pre, positive)
        if rid == "app.needs_met" and holds is False and target.pre is not None:
            listed = {f.atom for _, f in ur.facts if f.atom is not None}
            unmet = {lit.atom for lit in unmet_preconditions(target.action, target.pre)}
            if listed and not unmet & listed:
                return  # "Picking up red needs red to be clear, which we have.": the need it names holds; one it
                # does not name fails, of which it says nothing
        self._add(run, Claim("applicability", u.span, u.text(text), holds, msg, target.line, negative=not positive,
                             state=_atoms(target.pre), after=None, rules=(rid,), modality=modality,
                             action=target.action.text()))

    def _line_verdict(self, run: _Run, verdict: tuple[int, int, bool, str], line: LineOfReasoning, text: str) -> None:
        """"Yes, that works." after a walk through a plan that no candidate holds: the plan is the
        line's actions from the initial state, said to reach the goal; judged only when the line
        is sure to hold the whole plan (two actions or more, all read, none lost)."""
        start, end, says_pass, words = verdict
        if "goal" in words.lower() or not says_pass or not line.known or len(line.actions) < 2:
            return
        if start - line.last > 400 or text.count("\n\n", line.last, start) > 1 or run.loose_end >= line.last:
            return  # far from the walk, or a step of it named but not read ("so pick up orange and stack it on
            # red. So that's correct.")
        holds, msg = self.judge.plan(line)
        if holds is False and line.broken is not None and any(
                c.kind == "applicability" and c.negative and c.holds is True and c.line == line.id
                and c.action == line.actions[line.broken].text() for c in run.claims):
            return  # the text said that step cannot be done ("Attack a needs Province a, which is not there.
            # So can't."): the plan it now says works is not the line that kept it
        rules: tuple[str, ...] = ("verdict.line",)
        if holds is False and line.broken is not None and not line.from_item[line.broken]:
            bridge = J.omitted_steps(self.task, line.states[line.broken], line.actions[line.broken])
            if bridge:  # a walk told in prose leaves obvious steps unsaid ("Then stack blue on red")
                holds = None
                msg = (f"the walk may leave steps unsaid: {', '.join(a.text() for a in bridge)} before "
                       f"{line.actions[line.broken].text()} would make it doable ({msg})")
                rules += ("verdict.outline",)
        self._add(run, Claim("plan_verdict", (start, end), words, holds, msg, line.id, state=_atoms(line.state),
                             after=line.actions[-1].text(), rules=rules, modality="asserted"))

    def _inline_plan(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str) -> None:
        """"From here, Attack c, Overcome c from a, Attack b, Overcome b from c wouldn't work": a plan
        written out in the sentence and a verdict on it (row verdict.inline)."""
        rule = "verdict.inline"
        if (again := _it_named(self.words, ur)) is not None and BY_ID[rule].regex.search(again.shape):
            ur = again  # "picking up red and stacking it on orange would work"
        u = ur.unit
        m = BY_ID[rule].regex.search(ur.shape)
        if m is not None:
            v_hit = ur.items[m.end("gap")]
            v_end = v_hit.j if isinstance(v_hit, Hit) else ur.starts[m.end("gap")] + 1
            said = u.tokens[ur.starts[m.end("seq") - 1]:v_end]  # from the last action to the verdict
        elif (m := BY_ID["verdict.inline_first"].regex.search(ur.shape)) is not None:
            rule = "verdict.inline_first"
            said = u.tokens[:ur.starts[m.start("seq")]]  # the verdict, before its plan
        elif (m := BY_ID["verdict.adopted"].regex.search(ur.shape)) is not None \
                and any(t.norm in ("is", ":") for t in u.tokens[ur.starts[m.start("gap")]:ur.starts[m.start("seq")]]):
            rule = "verdict.adopted"
            said = u.tokens[:ur.starts[m.start("seq")]]  # "So the final plan is"
        else:
            return
        after_step: frozenset[Atom] | None = None
        if "T" in ur.shape[:m.start()]:
            # "after step 2, X and Y would do it": the plan goes on from step 2 of the list in force
            step = re.search(r"TJ#", ur.shape[:m.start()])
            kth = ur.number_at(step.end() - 1) if step is not None else None
            at = run.item_base + kth if kth is not None and run.item_base is not None else -1
            if not (0 < at <= len(line.actions) and line.known_at(at) and line.item_of[at - 1] in (None, kth)):
                return
            after_step = line.states[at]
        if re.search(r"[Aa][,&~]*$", ur.shape[:m.start("seq")]):
            return
        acts = [a for k in range(m.start("seq"), m.end("seq")) if ur.shape[k] in "Aa"
                and isinstance(a := ur.items[k], ActionMention)]
        negative = any(_NEG_WORD.match(t.norm) for t in said)
        here = "W" in ur.shape[:m.start("seq")] or (rule == "verdict.inline" and "W" in m.group("gap")) \
            or _FROM_HERE.search(text[u.span[0]:u.span[1]]) is not None  # "now, A and B would work", "A and B right now"
        line_ok = line.known and line.broken is None and bool(line.actions)
        rules: tuple[str, ...] = (rule,)
        if after_step is not None:
            start = after_step
        elif here:
            if not (line_ok or (line.known and line.broken is None and self._doable(acts[0], line.state))):
                return  # here is the start, when nothing is done yet
            start = line.state if line.actions else self.init
        elif self._doable(acts[0], self.init):
            start = self.init
            if line_ok and self._doable(acts[0], line.state):
                ours, theirs = (self._plan_said(ur, acts, s0, "", negative) for s0 in (self.init, line.state))
                if ours is None or theirs is None or ours[0] != theirs[0]:
                    return  # from the start or from where the line is: not said, and it matters
            rules += ("verdict.from_initial",)
        elif line_ok and self._doable(acts[0], line.state):
            start = line.state
        else:
            return  # fits neither the initial state nor the line: a plan meant from elsewhere
        where = "from the initial state" if start is self.init else (
            f"after step {kth} of the list" if after_step is not None  # type: ignore[possibly-undefined]
            else f"from where the line is (after {line.actions[-1].text()})")
        said = self._plan_said(ur, acts, start, where, negative)
        if said is None:
            return
        holds, msg = said
        self._add(run, Claim("plan_verdict", u.span, u.text(text), holds, msg, line.id, negative=negative,
                             state=_atoms(start), rules=rules, modality="asserted"))

    def _plan_result(self, run: _Run, ur: UnitReading, m: re.Match[str], line: LineOfReasoning,
                     here: frozenset[Atom] | None, text: str) -> None:
        """"Attack a, then Succumb a gives Province a.", "Doing Feast b from a then Succumb b achieves b
        craves c": the facts a plan written out in the sentence is said to give, judged in the state
        it reaches (row verdict.result), from the line's state or the initial one (where its first
        step can be done; when both, only if they agree). A step that cannot be done makes it false."""
        u = ur.unit
        acts = [a for k in range(m.start("seq"), m.end("seq")) if ur.shape[k] in "Aa"
                and isinstance(a := ur.items[k], ActionMention)]
        facts = [ur.items[k] for k in range(m.start("facts"), m.end("facts")) if ur.shape[k] == "F"]
        if not facts or any(f.atom is None or f.absent_word for f in facts):  # type: ignore[union-attr]
            return
        starts = []
        if here is not None and here != self.init and line.broken is None and self._doable(acts[0], here):
            starts.append((here, "from where the line is"))
        if self._doable(acts[0], self.init):
            starts.append((self.init, "from the initial state"))
        verdicts = [self._result_of(acts, facts, s0, where) for s0, where in starts]  # type: ignore[arg-type]
        if not verdicts or any(v is None for v in verdicts) or len({v[0] for v in verdicts}) != 1:  # type: ignore[index]
            return
        holds, msg = verdicts[-1]  # type: ignore[misc]
        self._add(run, Claim("plan_verdict", u.span, u.text(text), holds, msg, line.id,
                             state=_atoms(starts[-1][0]), rules=("verdict.result",), modality="asserted"))

    def _result_of(self, acts: list[ActionMention], facts: list[FactMention], start: frozenset[Atom],
                   where: str) -> tuple[bool, str] | None:
        replayed = self._replay(acts, start)
        if replayed is None:
            return None
        done, failed, state = replayed
        if failed is not None:
            k, ground, unmet = failed
            plan = ", ".join(g.text() for g in [*done, ground])
            return False, (f"says the plan ({plan}) {where} gives {', '.join(self.judge.named(f.atom) for f in facts)}, "
                           f"but step {k + 1}, {ground.text()}, cannot be done: {J.literals(unmet)} "
                           f"{'does' if len(unmet) == 1 else 'do'} not hold")
        plan = ", ".join(g.text() for g in done)
        missing = [f for f in facts if f.atom not in state]
        if missing:
            return False, (f"says the plan ({plan}) {where} gives {', '.join(self.judge.named(f.atom) for f in missing)}, "
                           "but it does not hold after it")
        return True, f"the plan ({plan}) {where} gives {', '.join(self.judge.named(f.atom) for f in facts)}: right"

    def _replay(self, acts: list[ActionMention], start: frozenset[Atom]) \
            -> tuple[list[GroundAction], tuple[int, GroundAction, list] | None, frozenset[Atom]] | None:
        """A plan the sentence writes out, replayed from `start`: the actions done, the first that
        could not be done (its index, itself, its unmet needs) or None, and the state reached; None
        when an action's binding is not known (several fit)."""
        state, done = start, []
        for k, mention in enumerate(acts):
            ground = self._one_grounding(mention, state)
            if ground is None:
                return None
            unmet = unmet_preconditions(ground, state)
            if unmet:
                return done, (k, ground, unmet), state
            done.append(ground)
            state = apply(ground, state)
        return done, None, state

    def _plan_said(self, ur: UnitReading, acts: list[ActionMention], start: frozenset[Atom], where: str,
                   negative: bool) -> tuple[bool, str] | None:
        """The plan the sentence writes out, replayed from `start` and judged (judge.plan_outcome);
        None when it is not known (an action several bindings fit, or a part of a plan said to work,
        of which what it says of the goal is not known)."""
        replayed = self._replay(acts, start)
        if replayed is None:
            return None
        done, failed, state = replayed
        shown = done if failed is None else [*done, failed[1]]
        plan = ", ".join(g.text() for g in shown) + (", ..." if len(acts) > len(shown) else "")
        return self.judge.plan_outcome(plan, failed, state, where, negative,
                                       judge_goal="L" in ur.shape or "O" in ur.shape or _whole_plan_said(ur, acts))

    def _one_grounding(self, mention: ActionMention, state: frozenset[Atom]) -> GroundAction | None:
        """The action a mention names: itself when all its objects are named; else the one binding
        of the named objects that can be done in `state`, or, when none can, any binding (it
        cannot be done whatever was meant); None when several fit or the task is too big to try."""
        if mention.ground is not None:
            return mention.ground
        if not any(mention.args) or more_ground_actions_than(self.task, _GROUNDING_LIMIT):
            return None
        fits = [g for g in ground_all(self.task) if g.name == mention.name and len(g.args) == len(mention.args)
                and all(a is None or a == b for a, b in zip(mention.args, g.args))]
        doable = [g for g in fits if not unmet_preconditions(g, state)]
        if len(doable) == 1:
            return doable[0]
        return fits[0] if fits and not doable else None

    def _doable(self, mention: ActionMention, state: frozenset[Atom]) -> bool:
        ground = self._one_grounding(mention, state)
        return ground is not None and not unmet_preconditions(ground, state)

    def _kept_effects(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, act: GroundAction,
                      m: re.Match[str], rule: str, modality: str, judged_facts: set[int]) -> None:
        """The facts of match m said kept by `act`: "leaves Harmony" (it does not remove them),
        "doesn't change Planet c" (kept.same: it neither adds nor removes them), against the schema."""
        s = ur.shape
        same = _kept_same(ur, m.start(), len(s))
        lo, hi = m.span("facts") if m.group("facts") else m.span("facts2")
        if not m.group("facts") and not _persists(ur, lo):
            return  # "Feast a from b: but a craves b is still there": a need checked, not what the step leaves
        for k in range(lo, hi):
            if s[k] == "F" and k not in judged_facts:
                self._kept_effect(run, ur, line, text, act, k, same, rule, modality, judged_facts)

    def _kept_effect(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, act: GroundAction, k: int,
                     same: bool, rule: str, modality: str, judged_facts: set[int]) -> None:
        f: FactMention = ur.items[k]  # type: ignore[assignment]
        if f.atom is None:
            return
        if f.absent_word:  # "leaves the hand occupied", "leaves red covered": the fact is false after the step,
            # made so by it or kept so (row effect.leaves_absent)
            if not same and _leaves_word(ur, k):
                self._left_absent(run, ur, line, text, act, k, rule, modality, judged_facts)
            return
        judged_facts.add(k)
        name = self.judge.named(f.atom)
        if same:
            made = self.judge.effect(act, f.atom, "add")[0]
            done = made or self.judge.effect(act, f.atom, "del")[0]
            msg = (f"says {act.text()} leaves {name} as it was, but it {'adds' if made else 'removes'} it" if done
                   else f"{act.text()} neither adds nor removes {name}: right")
        else:
            done, _ = self.judge.effect(act, f.atom, "del")
            msg = f"says {act.text()} keeps {name}, but it removes it" if done else f"{act.text()} does not remove {name}: right"
        self._add(run, Claim("effect", ur.unit.span, ur.unit.text(text), not done, msg, line.id, atom=f.atom,
                             negative=True, after=act.text(), rules=(rule,), modality=modality))

    def _left_absent(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, act: GroundAction, k: int,
                     rule: str, modality: str, judged_facts: set[int]) -> None:
        """"Stacking red on orange leaves red covered": the fact does not hold after the step. The
        schema decides where the step adds or removes it; otherwise the state before the step does,
        where the line places it (as under "After Feast b from a:")."""
        f: FactMention = ur.items[k]  # type: ignore[assignment]
        assert f.atom is not None
        name = self.judge.named(f.atom)
        if f.atom in act.add:
            holds, msg, state = False, f"says {name} does not hold after {act.text()}, but the step adds it", None
        elif f.atom in act.delete:
            holds, msg, state = True, f"{name} does not hold after {act.text()}, which removes it: right", None
        else:
            base = self._heading_base(line, act)
            if base is None:
                return
            state = apply(act, base)
            holds, msg = self.judge.state(state, f.atom, False, f"after {act.text()}")
        judged_facts.add(k)
        self._add(run, Claim("state", ur.unit.span, ur.unit.text(text), holds, msg, line.id, atom=f.atom, negative=True,
                             after=act.text(), rules=(rule, "effect.leaves_absent"), modality=modality,
                             state=_atoms(state) if state is not None else None))

    def _left_as_was(self, run: _Run, ur: UnitReading, k: int, f: FactMention, line: LineOfReasoning, text: str,
                     cue: str, modality: str, judged_facts: set[int]) -> None:
        """"Pain b is unchanged" (kept.same): the step just taken, the line's last, leaves the fact as it
        was; "Harmony is not removed" (kept.not_removed): it does not take a fact that held. Judged on
        the states before and after that step."""
        if not (line.known and line.actions) or f.atom is None or f.absent_word:
            return  # (a fact said absent, "no Pain b is unchanged", is not a reading anyone means)
        act, pre = line.actions[-1], line.states[-2]
        before, after = f.atom in pre, f.atom in line.state
        judged_facts.add(k)
        name = self.judge.named(f.atom)
        if cue == "kept.same":
            holds = before == after
            msg = (f"{act.text()} leaves {name} as it was: right" if holds else
                   f"says {name} is left as it was, but {act.text()} {'adds' if after else 'removes'} it")
        else:
            holds = not (before and not after)
            msg = (f"{act.text()} does not remove {name}: right" if holds else f"says {name} is not removed, but {act.text()} removes it")
        self._add(run, Claim("state", ur.unit.span, ur.unit.text(text), holds, msg, line.id, atom=f.atom,
                             state=_atoms(line.state), after=act.text(), rules=("state.holds", cue), modality=modality))

    def _effects_of(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, judged_facts: set[int],
                    modality: str) -> None:
        """"The effects of Attack a are Pain a and no Harmony.": each fact after the action is added,
        each said absent removed (row effect.of)."""
        s, u = ur.shape, ur.unit
        m = BY_ID["effect.of"].regex.match(s)
        if m is None or ur.items[m.start("act") - 1].cue != "add.effects_of":  # type: ignore[union-attr]
            return
        act: ActionMention = ur.items[m.start("act")]  # type: ignore[assignment]
        if act.ground is None:
            return
        end = next((j for j in range(m.end(), len(s)) if s[j] in "DXA.;"), len(s))
        for k, f in ur.facts:
            if not m.end() <= k < end or k in judged_facts or f.atom is None:
                continue
            judged_facts.add(k)
            what = "del" if _negated(s, k) != f.absent_word else "add"
            holds, msg = self._effect_verdict(run, line, act.ground, f, what)
            self._add(run, Claim("effect", u.span, u.text(text), holds, msg, line.id, atom=f.atom,
                                 negative=what == "del", after=act.ground.text(), rules=("effect.of",),
                                 modality=modality))

    def _passive_effects(self, run: _Run, ur: UnitReading, line: LineOfReasoning, text: str, judged_facts: set[int],
                         modality: str) -> None:
        """"Province a, Planet a are removed by Attack a": what the action after "by" does to the
        facts the passive cue governs."""
        s, u = ur.shape, ur.unit
        for m in ur.rows("effect.passive"):
            act: ActionMention = ur.items[m.start("act")]  # type: ignore[assignment]
            by: Hit | None = ur.items[m.start("by")] if m.group("by") else None  # type: ignore[assignment]
            cue: Hit = ur.items[m.start("cue")]  # type: ignore[assignment]
            if act.ground is None or (u.tokens[by.i].norm != "by" if by is not None else cue.cue != "add.comes_from"):
                continue
            for c, what, ks in _cue_groups(s, -1, "F"):
                if c != m.start("cue") or not ks or ks[0] > c:
                    continue
                for k in ks:
                    f: FactMention = ur.items[k]  # type: ignore[assignment]
                    if k in judged_facts or f.atom is None or f.absent_word:
                        continue
                    judged_facts.add(k)
                    holds, msg = self._effect_verdict(run, line, act.ground, f, what)
                    self._add(run, Claim("effect", u.span, u.text(text), holds, msg, line.id, atom=f.atom,
                                         negative=what == "del", after=act.ground.text(), rules=("effect.passive",),
                                         modality=modality))

    def _effect_denied(self, run: _Run, u: Unit, text: str, line: LineOfReasoning, act: GroundAction,
                       f: FactMention, what: str, rule: str, modality: str) -> None:
        """The claim that `act` does not add (or remove) fact `f`: "doesn't remove Planet b", "removes
        Planet b, not Planet c"."""
        if f.atom is None:
            return
        done, _ = self.judge.effect(act, f.atom, what)
        verb = "adds" if what == "add" else "removes"
        msg = (f"says {act.text()} does not {verb[:-1]} {self.judge.named(f.atom)}, but it {verb} it"
               if done else f"{act.text()} does not {verb[:-1]} {self.judge.named(f.atom)}: right")
        self._add(run, Claim("effect", u.span, u.text(text), not done, msg, line.id, atom=f.atom, negative=True,
                             after=act.text(), rules=(rule,), modality=modality))

    def _add(self, run: _Run, claim: Claim) -> None:
        line = run.lines[claim.line]
        claim.broken_before = line.broken is not None
        if claim.holds is not None and claim.kind in LINE_KINDS and line.uncertain_from is not None \
                and "verdict.from_initial" not in claim.rules:  # judged from the initial state: the line's
            # readings do not change it (and where the line's state was also possible, it agreed)
            self._second_reading(run, line, claim)
        run.claims.append(claim)

    def _second_reading(self, run: _Run, line: LineOfReasoning, claim: Claim) -> None:
        """A claim judged in a state the line reached by an event with two readings (lines.py):
        judged again under the other reading; when the two disagree, or the other is not known, it
        is left unjudged ("line uncertain"): a false flag costs as much as a miss."""
        if claim.kind == "plan_verdict" or claim.state is None:
            uncertain, other = True, None
        else:
            uncertain, other = run.book.readings(line, frozenset(_parse_atoms(claim.state)))
        if not uncertain:
            return
        again: bool | None = None
        if other is not None:
            if claim.kind == "state" and claim.atom is not None:
                again = (claim.atom in other) != claim.negative
            elif claim.kind == "goal":
                again = bool(unmet_goals(self.task.problem, other)) == claim.negative
            elif claim.kind == "applicability" and claim.action:
                name, *args = claim.action.strip("()").split()
                again = (not unmet_preconditions(self.task.ground(name, tuple(args)), other)) != claim.negative
        if again is None or again != claim.holds:
            claim.holds, claim.message = None, f"line uncertain: {line.uncertain_why}"
            claim.rules = claim.rules + ("line.uncertain",)


_OTHER = {"add": "del", "del": "add"}
_EFFECT_WORDS = frozenset({"effects", "effect"})  # a label that names effects, never the state after a step
_EFFECT_LABELS = _EFFECT_WORDS | {"result", "results", "outcome"}  # "Effects: Pain b, remove ..."
LINE_KINDS = ("state", "applicability", "goal", "plan_verdict")  # judged in a line's state; effects and rules are not


_NOT_A_PLAIN_LIST = frozenset("NnXKxUDRBMQIHGgc|")


def _another_step_k(run: _Run, at_k: LineOfReasoning, k: int, ur: UnitReading) -> bool:
    """"After step 3 (state: Pain, a craves c, c craves a):" with two lists in reach: the facts the
    unit restates contradict the state after the chosen line's step k, and agree with the state
    after step k of another line. Which list the model means is then not sure, so the recap is not
    placed (review of 2026-12-04); with no other line that agrees, the restatement is judged."""
    if "S" not in ur.shape or any(ch in ur.shape for ch in _NOT_A_PLAIN_LIST):
        return False  # only a plain state list is compared: a denial, removal or reason read wrong would mislead
    said = [f.atom for _, f in ur.facts if f.atom is not None]
    if not said:
        return False

    def agrees(state: frozenset[Atom]) -> bool:
        return all(atom in state for atom in said)

    if agrees(at_k.state):
        return False
    return any(other.id != at_k.id and other.known_at(k) and len(other.actions) >= k and agrees(other.states[k])
               for other in run.lines)


_MEANS_WORDS = frozenset(("with", "using", "via", "by", "through"))


def _by_means(ur: UnitReading, cue: int, act: int) -> bool:
    """"can be done with <action>", "can be achieved by <action>": the action is named as the way
    to a fact, not said to be doable in the line's state (review of 2026-12-04)."""
    if not (0 <= cue < act < len(ur.starts)):
        return False
    return any(t.norm in _MEANS_WORDS for t in ur.unit.tokens[ur.starts[cue]:ur.starts[act]])


def _negated_clause(s: str, lo: int, hi: int) -> bool:
    """A negation in the clause around letters lo..hi ("the goal is not met"), not in another
    clause of the unit ("That finishes the goal, so the last two steps aren't needed")."""
    a = s.rfind(",", 0, lo) + 1
    b = s.find(",", hi)
    clause = s[a:b if b >= 0 else len(s)]
    return "n" in clause or "N" in clause


def _in_this_state(u: Unit) -> bool:
    """"Red can be picked up in this state": the state the line is in, as "now" says it."""
    words = [t.norm for t in u.tokens]
    return any(words[k] in ("this", "that", "current") and words[k + 1] == "state" for k in range(len(words) - 1))


def _about_initial(s: str) -> bool:
    """Does the unit speak of the initial state? Not when "initially" names where one fact came
    from inside a parenthesis after the claim's "now": "All three are present now (Province(c)
    from Feast step, Planet(c) initial, Harmony from Overcome step)" (review of 2026-12-04)."""
    z = s.find("Z")
    if z < 0:
        return False
    opened = s.rfind("(", 0, z)
    if opened >= 0 and s.find(")", opened, z) < 0 and 0 <= s.find("W") < opened:
        return False
    # "Province(a) is present (from step 3), Planet(a) is still there (from initial)": a time named
    # only inside parentheses after facts says where each came from, and the facts hold now
    sources_only = all(_in_parenthesis(s, k) for k, ch in enumerate(s) if ch == "Z")
    return not (sources_only and re.search(r"[Ff]", s[:opened]) is not None)


def _in_parenthesis(s: str, k: int) -> bool:
    opened = s.rfind("(", 0, k)
    return opened >= 0 and s.find(")", opened, k) < 0


_CLAUSE_STOP = frozenset({".", ";", "!", "?", ":"})


def _then_chain(words: TaskWords, ur: UnitReading, head_at: int, first: GroundAction) -> list[GroundAction | None]:
    """The actions joined to the unit's step by "then" ("Attack b, then Overcome b from c, then
    ..."), in order (row event.then): each clause after a "then" that opens with an action, "it"
    read as the first object of the action before ("pick up red, then stack it on orange", "unstack
    blue from red, then put it down"); None for one that is not read whole (the line is lost there)."""
    toks = ur.unit.tokens
    head = ur.items[head_at]
    if not isinstance(head, ActionMention):
        return []
    out: list[GroundAction | None] = []
    k, prev = head.j, first
    while True:
        j = k
        while j < len(toks) and toks[j].norm in (",", "and"):
            j += 1
        if j >= len(toks) or toks[j].norm != "then":
            return out
        start = end = j + 1
        while end < len(toks) and toks[end].norm not in _CLAUSE_STOP and not (
                toks[end].norm in (",", "and") and end + 1 < len(toks) and toks[end + 1].norm in ("then", "and")):
            end += 1
        it = next((" ".join(key) for key, obj in words.objects.items() if prev.args and obj == prev.args[0]), None)
        clause = " ".join(it if t.norm == "it" and it else t.norm for t in toks[start:end])
        named = words.actions(tokens_of(clause, 0, len(clause)))
        if not named:
            return out  # "Attack a, then Pain a holds": no step
        ground = named[0].ground if named[0].i == 0 else None
        out.append(ground)
        if ground is None:
            return out
        k, prev = end, ground


_AIM_WORDS = frozenset({"getting", "get", "to", "first", "creating", "create", "making", "make", "having"})


def _list_step(run: _Run, line: LineOfReasoning, kth: int | None, u: Unit) -> int:
    """Where the list's step k stands among the line's actions ("which was removed in step 5",
    "step 2 requires ..."); -1 when not sure: no such item (an item may hold none: "2. Now, Pain
    a."), a step named otherwise, or a list written more than two paragraphs back."""
    at = next((j for j in range(len(line.actions) - 1, -1, -1) if line.item_of[j] == kth), -1) \
        if kth is not None else -1
    if not 0 <= at < len(line.actions) or run.step_named.get(kth, line.actions[at]) != line.actions[at] \
            or u.paragraph - run.moved.get(line.id, -9) > 2:  # type: ignore[arg-type]
        return -1
    return at


def _listing(run: _Run, ur: UnitReading, n: int, modality: str, made: list[Claim]) -> tuple[GroundAction, int] | None:
    """The action a run of lists is about after unit n: a unit that names one action in full and
    tells nothing of a state or an effect opens the run; a unit whose needs and effect claims are
    all of that action, or a bare label ("This will:", "Effects:"), goes on with it; anything
    else ends it (row effect.listed)."""
    s = ur.shape
    if modality == "questioned":
        return None
    named = _one_action_named(ur, "TDXRZQIN")
    if named is not None:
        return named, n
    last = run.listed
    if last is None or last[1] != n - 1 or (ur.actions and not all(m.ground == last[0] for _, m in ur.actions)):
        return None
    if re.fullmatch(r"[~_]{0,3}:", s):
        return last[0], n
    about = last[0].text()
    told = [c for c in made if c.kind in ("effect", "rule")]
    if told and all((c.after or c.action) == about for c in told):
        return last[0], n
    return None


def _named_just_before(before: UnitReading | None, ur: UnitReading) -> GroundAction | None:
    """The one action the unit before names in full, in the same paragraph, when it tells no state
    or effect ("To get a craves b: Overcome a from b." before "Requires Province b and Pain a.")."""
    if before is None or before.unit.paragraph != ur.unit.paragraph:
        return None
    return _one_action_named(before, "TDXRZ")


def _one_action_named(ur: UnitReading, tells: str) -> GroundAction | None:
    """The one action a unit names, in full, when it has none of the letters `tells` (an after,
    add, delete, need or initially cue: it tells a state or an effect rather than name the step)."""
    if len(ur.actions) != 1 or re.search(f"[{tells}]", ur.shape):
        return None
    return ur.actions[0][1].ground


_LABEL_DETERMINERS = frozenset({"the", "its", "their"})
_LABEL_BE = frozenset({"are", "is", "were", "was", "would", "will", "should", "be"})
_LABEL_OPENING = re.compile(r"^_{1,4}:?(?=[~]*[FfDX])")


def _as_label(ur: UnitReading) -> UnitReading:
    """"The effects are Pain a and Province b.", "The effect is: Harmony, ...", "The effects: ...":
    a label in words, read as the label it says ("Effects: ..."), so that every reader of
    labelled effects (row effect.label) reads it alike. The unit keeps its tokens and cues; only
    the letters of the determiner and the verb "be" go. Not "The result is ...": that may tell the
    state after the step, not what the step adds."""
    s = ur.shape
    m = _LABEL_OPENING.match(s)
    if m is None:
        return ur
    colon = s[m.end() - 1] == ":"
    words = [ur.unit.tokens[ur.starts[k]].norm for k in range(m.end() - colon)]
    lead = 1 if words and words[0] in _LABEL_DETERMINERS else 0
    be = words[lead + 1:]
    if len(words) <= lead or words[lead] not in _EFFECT_WORDS or len(be) > 2 or not _LABEL_BE.issuperset(be) \
            or (not colon and not be) or (colon and not be and not lead):
        return ur
    drop = m.end() - 2  # the letters before the label's "_:" that go
    label = [lead, m.end() - 1 if colon else lead + 1]
    keep = range(m.end(), len(s))
    return replace(ur, shape="_:" + s[m.end():], items=[ur.items[label[0]], None, *(ur.items[k] for k in keep)],
                   starts=[ur.starts[label[0]], ur.starts[label[1]], *(ur.starts[k] for k in keep)],
                   actions=[(k - drop, a) for k, a in ur.actions], facts=[(k - drop, f) for k, f in ur.facts])


_POINTING = frozenset({"that", "this", "it", "that's", "it's", "these", "those"})
_TIME_WORDS = frozenset({"after", "once", "following"})
_TIME_ALONE = frozenset({"afterwards", "afterward"})


def _the_step_named(ur: UnitReading, line: LineOfReasoning, focus: _Focus | None, paragraph: int) -> UnitReading | None:
    """"Attack a. The Attack removes Planet b too.": an action named by "the", "that" or "this" and no
    object, right after the line took a step of that name in the same paragraph, is that step (row
    event.the_step); None otherwise."""
    k, m = ur.actions[0]
    last = line.actions[-1] if line.actions else None
    if last is None or m.name != last.name or any(a is not None for a in m.args) or focus is None \
            or not focus.performed or focus.action != last or focus.line != line.id or focus.paragraph != paragraph:
        return None
    i = ur.starts[k]
    if i == 0 or ur.unit.tokens[i - 1].norm not in ("the", "that", "this") or re.search("[DXkR]", ur.shape[:k]):
        return None  # ("Planet b goes away with the Attack": read as the focus step's effect already)
    whole = replace(m, args=tuple(last.args), ground=last)
    items = list(ur.items)
    items[k] = whole
    return replace(ur, shape=ur.shape[:k] + "A" + ur.shape[k + 1:], items=items, actions=[(k, whole)])


def _pointing_masked(ur: UnitReading) -> tuple[UnitReading, tuple[str, ...]] | None:
    """The unit with the words that only point at the step just taken read as filler: a time
    ("..., after that.", "After this, ...", "once that's done", "after this step") and a subject
    ("This step adds Pain b."). For the rows of the step in focus (effect.focus, and the state
    after it), these words say nothing the focus does not; elsewhere "after" or "step" may name
    another step, so the unit keeps them. With the ids of the rows that masked; None when it has
    no such words."""
    s = ur.shape
    if "T" not in s and "J" not in s:
        return None
    toks = ur.unit.tokens
    masked = list(s)

    def words(a: int, b: int) -> list[str]:  # the tokens of letters a..b-1
        end = ur.starts[b] if b < len(ur.starts) else len(toks)
        return [t.norm for t in toks[ur.starts[a]:end]]

    rules: list[str] = []
    m = BY_ID["focus.pointing_time"].regex.search(s)
    if m is not None:
        a, b = m.span("o") if m.group("o") else m.span("c")
        said = words(a, b)
        if said and (said[0] in _TIME_ALONE and b - a == 1 or said[0] in _TIME_WORDS and _POINTING.intersection(said[1:])):
            masked[a:b] = "~" * (b - a)
            rules.append("focus.pointing_time")
    m = BY_ID["focus.pointing_subject"].regex.match(s)
    if m is not None and words(m.end() - 2, m.end() - 1)[:1] in (["this"], ["that"]):
        masked[m.end() - 1] = "~"
        rules.append("focus.pointing_subject")
    if not rules:
        return None
    return replace(ur, shape="".join(masked), items=[None if c != masked[k] else ur.items[k] for k, c in enumerate(s)]), \
        tuple(rules)


_RESULT_BIGRAMS = frozenset({("no", "longer"), ("ends", "up"), ("end", "up"), ("ended", "up"), ("winds", "up"),
                             ("wound", "up")})


def _says_result(u: Unit) -> bool:
    """"Red is no longer clear.", "Orange ends up clear.": words that say the fact is what the
    step left (a change, a result), as "now" and "anymore" do, so a unit right after a step speaks
    of the state after it, not of the two states around it."""
    toks = u.tokens
    return any((toks[k].norm, toks[k + 1].norm) in _RESULT_BIGRAMS for k in range(len(toks) - 1))


# Verdict phrases that say the goal is reached ("would do it", "gets there", "solves it"), not only
# that the actions can be done ("works", "is valid"); and words that set a plan beside another one
# ("would also work", "works just as well", "would get there too", "instead"): the actions are a
# whole plan, so one that leaves the goal unmet is said to work falsely.
_GOAL_VERDICT_PHRASES = frozenset({
    "solve", "solves", "solve it", "solves it", "would solve it", "solves the problem", "solve the problem",
    "would do it", "should do it", "will do it", "does it", "does the trick", "do the trick", "should do the trick",
    "would do the trick", "does the job", "do the job", "would do the job", "would get there", "gets there",
    "get there", "gets us there", "get us there", "would get us there"})
_ALTERNATIVE_WORDS = frozenset({"also", "too", "instead", "either"})


def _whole_plan_said(ur: UnitReading, acts: list[ActionMention]) -> bool:
    """Do the words after the plan's last action speak of a whole plan: a verdict phrase of the
    goal, or a word setting it beside another plan (the rows verdict.inline and works.verdict)?"""
    if not acts:
        return False
    words = [t.norm for t in ur.unit.tokens[acts[-1].j:]]
    for h in ur.items:
        if isinstance(h, Hit) and h.cls == "works" and h.i >= acts[-1].j \
                and " ".join(t.norm for t in ur.unit.tokens[h.i:h.j]) in _GOAL_VERDICT_PHRASES:
            return True
    return bool(_ALTERNATIVE_WORDS.intersection(words)) or any(
        a == "as" and b == "well" for a, b in zip(words, words[1:]))


def _without_asides(ur: UnitReading) -> UnitReading:
    """"Province a, however, stays.", "Harmony, on the other hand, comes back.": an aside set off
    by commas right after a fact or an action (task_words.ASIDES, which the fact phrases already
    read past) is no letter of the shape, so the rows read the sentence as it reads without it."""
    s = ur.shape
    toks = ur.unit.tokens
    if s.count(",") < 2 or ASIDE_FIRSTS.isdisjoint(t.norm for t in toks):
        return ur
    drop: list[int] = []
    p = s.find(",")
    while 0 <= p:
        q = s.find(",", p + 1)
        if q < 0:
            break
        said = tuple(t.norm for t in toks[ur.starts[p] + 1:ur.starts[q]] if t.norm not in SKIP)
        if p and s[p - 1] in "FA" and said in ASIDES:
            drop.extend(range(p, q + 1))
            p = s.find(",", q + 1)
        else:
            p = q
    if not drop:
        return ur
    gone = set(drop)
    keep = [k for k in range(len(s)) if k not in gone]
    new_at = {k: n for n, k in enumerate(keep)}
    return replace(ur, shape="".join(s[k] for k in keep), items=[ur.items[k] for k in keep],
                   starts=[ur.starts[k] for k in keep],
                   actions=[(new_at[k], a) for k, a in ur.actions if k in new_at],
                   facts=[(new_at[k], f) for k, f in ur.facts if k in new_at])


def _effect_list(ur: UnitReading) -> bool:
    """A unit that is an effect list of its own (row effect.told's shape, no heading colon, an
    effect verb and not an aim such as "Create Pain a."): it may go on telling a step."""
    return _TOLD.match(ur.shape) is not None and ur.unit.end != ":" and _effect_list_verb(ur)


def _because_rule(s: str) -> int:
    """Where a reason that states a rule begins, after a named step ("Succumb c would also work,
    since Succumb adds Pain"): the cause cue, when every action named with its objects comes
    before it and an action named without them follows; -1 otherwise."""
    u = s.find("U")
    if u < 0 or "A" in s[u:] or "a" not in s[u:] or "A" not in s[:u]:
        return -1
    return u


_MADE_CUES = ("add.verb", "del.verb")  # the cues read_unit gives a verb of making ("clears red")
_LEAVES = frozenset({"leaves", "leave", "leaving", "left"})


def _leaves_word(ur: UnitReading, k: int) -> bool:
    """The kept cue before fact k is "leaves" (not "keeps", "stays"): what follows is how the step
    leaves it ("leaves red covered"), not a fact it keeps."""
    c = next((j for j in range(k - 1, -1, -1) if ur.shape[j] == "k"), None)
    hit = ur.items[c] if c is not None else None
    return isinstance(hit, Hit) and ur.unit.tokens[hit.i].norm in _LEAVES


def _need_said_plainly(ur: UnitReading, r: int, k: int) -> bool:
    """Is fact k the first thing the need cue at letter r names, with no aim between and no means
    in the unit ("Succumb a needs Harmony", not "requires getting Pain a first")? Then a need of a
    predicate the action never needs is a false rule claim, not a far aim."""
    if "M" in ur.shape or "O" in ur.shape or any(ch not in "_~" for ch in ur.shape[r + 1:k]):
        return False
    toks = ur.unit.tokens
    return not any(toks[ur.starts[j]].norm in _AIM_WORDS for j in range(r + 1, k + 1))


def _then_it(words: TaskWords, ur: UnitReading, after: int, first: GroundAction) -> GroundAction | None:
    """"pick up orange and stack it on red", "unstack blue from red and put it down": the second
    action with "it" read as the first's object, in the words the first action used for it (the
    clause after "and", to its end, is read again with them)."""
    if ur.shape[after:after + 1] != "&" or not first.args or after + 1 >= len(ur.starts):
        return None
    toks = ur.unit.tokens
    m = ur.items[after + 1] if ur.shape[after + 1] == "a" else None
    start = m.i if isinstance(m, ActionMention) else ur.starts[after + 1]
    end = next((q for q in range(start, len(toks)) if toks[q].norm in _CLAUSE_STOP
                or (q > start and toks[q].norm in (",", "and", "then"))), len(toks))
    if not any(t.norm == "it" for t in toks[start:end]):
        return None  # "put it down" names no action until "it" is read: the clause is read again
    head = ur.items[after - 1]
    if not isinstance(head, ActionMention):
        return None
    key = _object_words(words, toks, head, first.args[0])
    if key is None:
        return None
    obj_words = " ".join(key)
    clause = " ".join(obj_words if t.norm == "it" else t.norm for t in toks[start:end])
    again = words.actions(tokens_of(clause, 0, len(clause)))
    if not again or again[0].i != 0 or (isinstance(m, ActionMention) and again[0].name != m.name):
        return None
    return again[0].ground


def _object_words(words: TaskWords, toks: list[Token], head: ActionMention, obj: str) -> tuple[str, ...] | None:
    """The words `head` named its object `obj` by ("pick up the red block": ("red",)), so that an
    "it" after it can be read in the same words; None when the mention names it otherwise."""
    named = " ".join(t.norm for t in toks[head.i:head.j])
    return next((key for key, o in words.objects.items() if o == obj and " ".join(key) in named), None)


def _it_named(words: TaskWords, ur: UnitReading) -> UnitReading | None:
    """The unit read again with each "it" after an action named whole as that action's first
    object, in the words it was named by ("pick up red and stack it on orange" reads "stack red
    on orange"); None when no "it" follows one. The later action is then named whole where its
    verb goes around the object too ("putting it down")."""
    toks = ur.unit.tokens
    whole = sorted((m.j, m) for _, m in ur.actions if m.ground is not None and m.ground.args)
    if not whole or not any(t.norm == "it" for t in toks[whole[0][0]:]):
        return None
    out: list[Token] = []
    for q, t in enumerate(toks):
        before = [m for j, m in whole if j <= q]
        if t.norm != "it" or not before:
            out.append(t)
            continue
        m = before[-1]
        key = _object_words(words, toks, m, m.ground.args[0])  # type: ignore[union-attr]
        if key is None:
            out.append(t)
            continue
        out.extend(Token(t.start, t.end, w, "word") for w in key)
    return read_unit(replace(ur.unit, tokens=out), words)


def _line_with_step(lines: Sequence[LineOfReasoning], action: GroundAction, k: int,
                    init: frozenset[Atom]) -> LineOfReasoning | None:
    """The latest line whose step k is `action`, doable after its first k-1 steps: the walk a
    "(step k)" refers to. A line whose state was lost counts when those steps, replayed from the
    initial state, are each doable (the numbering then matches the steps read)."""
    for line in reversed(lines):
        if not (len(line.actions) >= k >= 1 and line.actions[k - 1] == action):
            continue
        if line.known_at(k - 1):
            if not unmet_preconditions(action, line.states[k - 1]):
                return line
            continue
        state = init
        for done in line.actions[:k - 1]:
            if unmet_preconditions(done, state):
                break
            state = apply(done, state)
        else:
            if not unmet_preconditions(action, state):
                return line
    return None


def _parse_atoms(atoms: list[str]) -> list[Atom]:
    """`_atoms` back: "(on a b)" -> ("on", "a", "b")."""
    return [tuple(a[1:-1].split()) for a in atoms]  # type: ignore[misc]


def _self_corrected(claims: list[Claim]) -> None:
    """A sentence that says a fact both holds and does not ("Red on table, clear (except blue is
    on it ... so red isn't clear)") corrects itself: neither half is judged."""
    said: dict[Atom, set[bool]] = {}
    for c in claims:
        if c.kind == "state" and c.atom is not None:
            said.setdefault(c.atom, set()).add(c.negative)
    for c in claims:
        if c.kind == "state" and c.atom is not None and len(said[c.atom]) == 2 and c.holds is not None:
            c.holds, c.message = None, f"the sentence says {c.atom[0]} both holds and does not: it corrects itself"


_AIM_VERBS = frozenset({"create", "creates", "make", "makes", "generate", "generates", "produce", "produces", "get",
                        "establish", "establishes", "restore", "restores", "bring", "brings", "gain", "gains", "obtain", "obtains"})


def _effect_list_verb(ur: UnitReading) -> bool:
    """The unit's first add/remove cue is a verb of an effect list ("Adds", "- Remove", "Gives"),
    not one that names an aim ("Create Pain a.", "Get Province b back")."""
    k = re.search("[DX]", ur.shape)
    hit = ur.items[k.start()] if k else None
    return isinstance(hit, Hit) and ur.unit.tokens[hit.i].norm not in _AIM_VERBS


_CONDITION_OPENERS = frozenset({"when", "once"})


def _opens_with_condition(u: Unit) -> bool:
    """"When I unstack Blue from Orange, ...": a time clause opens the unit (not "if": "So if I
    Attack a, then Province a becomes false" supposes the step again, in a walk that goes on)."""
    return any(t.norm in _CONDITION_OPENERS for t in u.tokens[:3])


def _said_effect(s: str, k: int, f: FactMention, what: str, c: int) -> str | None:
    """What the cue at `c` says of a fact it governs: "makes Harmony false", "makes blue not clear"
    add the fact's absence, a removal; a removal of an absence is not read (None). A fact before
    its cue ("Planet b is removed") is said by the cue itself."""
    if not (f.absent_word or (k > c and _gone(s, k))):
        return what
    return "del" if what == "add" else None


def _first_cue(s: str) -> int:
    """Where the first addition or deletion cue of a shape is (its length when none): an action
    named alone after it ("..., undoing the Feast") names no other step."""
    m = re.search("[DX]", s)
    return len(s) if m is None else m.start()


def _tells(ur: UnitReading, action: GroundAction) -> bool:
    """Is the unit about `action` only: its needs, its effects, a yes, the facts it leaves, with no
    other action, no hedge, condition, question or rejection?"""
    if any(m.ground != action and not (k > _first_cue(ur.shape) and not any(m.args)) for k, m in ur.actions) \
            or re.search("[IHGQKBE]", ur.shape):
        return False  # an action named alone after the effect cue ("..., undoing the Feast") is no other step
    if len(ur.unit.tokens) <= 2 and re.fullmatch(r"[_~]:", ur.shape):
        return True  # a label over the lists that follow ("- Effects:" between "- Preconditions: ..." and "- Added: ...")
    return re.search("[RDXYF]", ur.shape) is not None


_POINTERS = frozenset({"that", "this"})


def _points_back(u: Unit) -> bool:
    """The unit opens by pointing at what was just said ("That alone satisfies the goal", "Strictly
    speaking, that already ..."): its first words, before any fact, hold "that" or "this"."""
    words = [t.norm for t in u.tokens[:4]]
    return any(w in _POINTERS for w in words) and not (len(words) > 1 and words[0] in _POINTERS and words[1] == "is")


_PERSIST = frozenset({"stays", "stay", "remains", "remain", "kept", "untouched", "unchanged", "unaffected", "intact",
                      "survives", "survive", "survived", "sticks", "stick", "persists", "persist", "preserved",
                      "carries", "carry", "put", "hangs",
                      # inside a kept cue these are its "not removed", "not affected", ...: the step did not take it
                      "removed", "deleted", "consumed", "touched", "affected", "changed", "change", "affect", "touch"})


def _kept_hit(ur: UnitReading, k: int) -> Hit | None:
    """The kept cue right after fact k ("Planet a stays", "Pain b is unchanged"), if any."""
    j = k + 1
    while j < len(ur.shape) and ur.shape[j] in "_~":  # "Harmony also stays"
        j += 1
    if j >= len(ur.shape) or ur.shape[j] != "k" or not isinstance(ur.items[j], Hit):
        return None
    return ur.items[j]  # type: ignore[return-value]


def _persists(ur: UnitReading, k: int) -> bool:
    """Is fact k said to last ("Planet a stays", "Province a is kept", "Harmony remains")? Said right
    after a step, it speaks of the state the step left; "still there" does not (R1 checks a need with
    it: "Harmony is still there, Province b yes")."""
    hit = _kept_hit(ur, k)
    return hit is not None and any(t.norm in _PERSIST for t in ur.unit.tokens[hit.i:hit.j])


def _kept_same(ur: UnitReading, lo: int, hi: int) -> bool:
    """Does a cue between letters lo and hi say the fact is left as it was ("unchanged", "doesn't
    affect"), not that it holds: false only when the step adds or removes it."""
    return any(isinstance(ur.items[j], Hit) and ur.items[j].cue == "kept.same"  # type: ignore[union-attr]
               for j in range(max(lo, 0), min(hi, len(ur.shape))) if ur.shape[j] == "k")


def _vague_time(ur: UnitReading, line: LineOfReasoning) -> int:
    """Where a time the line cannot place starts ("after various steps", "after the initial Attack
    and Succumb"), or -1; "After unstacking, I hold blue" right after an unstack is that step."""
    for m in _VAGUE_TIME.finditer(ur.shape):
        last = m.end() - 1
        if ur.shape[last] == "J" and line.known and line.actions:
            counted = {_COUNT_WORDS.get(t.norm, t.norm) for t in ur.unit.tokens[ur.starts[m.start()]:ur.starts[last]]}
            if str(len(line.actions)) in counted:
                continue  # "the goal is reached after just two steps": the line's steps, counted
        if ur.shape[last] == "a":
            named: ActionMention = ur.items[last]  # type: ignore[assignment]
            if line.actions and line.actions[-1].schema.name == named.name and "Z" not in m.group():
                continue
        return m.start()
    return -1


def _contrasted(s: str, ks: list[int], cue: int) -> list[int]:
    """The facts an active cue's list sets against its items ("removes Planet b, not Planet c")."""
    if not ks or ks[0] < cue:
        return []
    out = []
    j = ks[-1] + 1
    while s[j:j + 2] in (",N", ",n") and s[j + 2:j + 3] == "F":
        out.append(j + 2)
        j += 3
    return out


def _denied_cue(s: str, cue: int, ks: list[int]) -> bool:
    """Is an active cue itself denied ("doesn't remove", "does not add", "never gives", "won't
    add"): a negation right before the verb, its facts after it and none of them said absent."""
    return bool(ks) and ks[0] > cue and re.search(r"[nN][_~]?$", s[:cue]) is not None \
        and not any(s[k + 1:k + 2] in ("N", "n") for k in ks)


def _colon_lead(s: str, ks: list[int], cue: int) -> set[int]:
    """"Attack a: Pain a, Province a and Planet a are removed": a passive cue's list that opens
    right after the action's colon may hold, before its last comma, items of the colon's own
    list (what the action adds) rather than of the cue's. Those leading items have two readings."""
    if not ks or cue < ks[-1] or s[ks[0] - 1:ks[0]] != ":":
        return set()
    commas = [j for j in range(ks[0], ks[-1]) if s[j] == ","]
    return {k for k in ks if commas and k < commas[-1]}


def _nearest(ur: UnitReading, c: int, letter: str) -> ActionMention | None:
    """The action nearest before the cue, if it is of the kind wanted: "after Succumb b, ... (since
    Feast removed b craves a)" credits the removal to Feast, which names no objects: no claim."""
    best = None
    for k, m in ur.actions:
        if k < c:
            best = (k, m)
    return best[1] if best is not None and ur.shape[best[0]] == letter else None


_STEP_POINTERS = frozenset({"that", "this", "it", "which"})


def _said_had(ur: UnitReading, k: int, cls: str) -> bool:
    """Is letter k a cue of class `cls` that ends in "have" ("don't have", "still have"), so the
    fact after it is said (not) to be had?"""
    h = ur.items[k] if 0 <= k < len(ur.items) else None
    return isinstance(h, Hit) and h.cls == cls and ur.unit.tokens[h.j - 1].norm == "have"


_SUPPOSED_STEP_FACTS = re.compile(  # "If I Overcome b from c, then c craves b.": facts alone after the clause
    r"^[~,c]*I[~_]{0,3}(?P<act>A)[^,AFDXIHGQRM]*,[~_]{0,2}(?P<facts>F[_YN]{0,2}(?:[,&_]{1,3}F[_YN]{0,2})*)[.!]?$")
_SUPPOSED_STEP_THEN = re.compile(r"^[~,c]*I[~_]{0,3}A[^,DXIHGQ]*,[^IHGQ]*[DX]")  # "If I do A, (then) it adds ..."
_GOAL_NAMED = re.compile(r"O[~_:(]{0,2}F(?:[,&]{1,2}[~_]?F)*\)?[~_W]{0,3}P")  # "the goal a craves b is satisfied"
_PURPOSE_LEADS = frozenset({"to", "for", "before", "when", "while"})
_REASON_WORDS = frozenset({"which", "since", "because", "as", "but"})
_NOW_WORDS = frozenset({("now",), ("right", "now"), ("at", "this", "point"), ("at", "this", "stage"), ("currently",)})


def _now_said(ur: UnitReading, before: int | None = None) -> bool:
    """Does the unit say "now" ("now", "right now", "at this point", "currently"), before letter
    `before` when given? Then it speaks of the state the line is in."""
    return any(ur.shape[k] == "W" and isinstance(h := ur.items[k], Hit)
               and tuple(t.norm for t in ur.unit.tokens[h.i:h.j]) in _NOW_WORDS
               for k in range(len(ur.shape) if before is None else before))


def _says_now(ur: UnitReading, act_at: int, line: LineOfReasoning, text: str, u: Unit) -> bool:
    """"Attack b. Now Attack a is possible", "Then Attack c": "now" before the action, or "then" or
    "next" opening the unit, right after the line's last step (same paragraph or the next), speaks
    of the state the line is in. The model has not gone back to an earlier state it could do the
    action in: it takes the action there, forced. (Not asked of a step the line has taken, or one
    named by its number: a walk told again.)"""
    if not line.actions or text.count("\n\n", line.last, u.span[0]) > 1:
        return False
    lead = [t.norm for t in u.tokens[:ur.starts[act_at]] if t.norm not in ("so", "and", ",")] if act_at < len(ur.starts) else []
    if lead[:1] in (["then"], ["next"]):
        return True  # "Attack b. Then Attack c: ...", "Next, Attack c": the step after the last one
    return _now_said(ur, act_at)


def _points_to_step(u: Unit) -> bool:
    """"That gives Pain b ...", opening the paragraph after a step taken in prose: the step (row
    effect.focus). After a list's item it may be the whole list ("This results in b craves c")."""
    return bool(u.tokens) and u.tokens[0].norm in _STEP_POINTERS


def _cue_groups(s: str, start: int, fact_letters: str) -> list[tuple[int, str, list[int]]]:
    """For each add (D) or delete (X) cue after `start`: (cue position, "add"/"del", the fact
    positions it governs). A passive cue ("Pain a is added", "Province b, Planet b, Harmony
    removed") governs the list right before it; an active one ("adds Pain a", "remove b→c,
    Harmony") the list after it, up to the next cue or clause mark."""
    cues = [(k, "add" if ch == "D" else "del") for k, ch in enumerate(s) if k > start and ch in "DX"]
    taken: set[int] = set()
    out: list[tuple[int, str, list[int]]] = []
    for c, what in cues:
        j = c - 1
        gap = 0
        while j > start and s[j] in "_()gG" and gap < 4:  # "Pain c would be added"
            j -= 1
            gap += 1
        run: list[int] = []
        if j > start and s[j] in fact_letters and s[j] not in "DX":
            gap = 0
            while j > start and (s[j] in fact_letters or s[j] in ",&g" or (s[j] == "_" and gap < 1)):
                gap = gap + 1 if s[j] == "_" else 0
                if s[j] in fact_letters and j not in taken and s[j - 1:j] not in ("N", "n"):
                    run.append(j)
                j -= 1
        if run:
            taken.update(run)
            out.append((c, what, sorted(run)))
    for c, what in cues:
        if any(g[0] == c for g in out):
            continue
        k = c + 1
        if s[k:k + 1] == ",":
            continue  # "since red was removed, orange is clear": the clause ends at the cue
        if s[k:k + 1] == ":":
            k += 1  # "Removed: b craves a, Province b"
        run = []
        while k < len(s) and (s[k] in fact_letters or s[k] in ",&_~"):
            if s[k] in fact_letters and _KEPT_AFTER.match(s, k + 1):
                break  # "removes Harmony, so Province b stays": a clause of its own
            if s[k] in fact_letters and k not in taken and s[k - 1] not in "Nn":
                run.append(k)
            k += 1
        later_passive = {k for g in out for k in g[2]}
        run = [k for k in run if k not in later_passive]
        if run:
            taken.update(run)
            out.append((c, what, run))
    return sorted(out)


_TOLD = BY_ID["effect.told"].regex
_KEPT_AFTER = re.compile(r"[_~]{0,2}k(?![~_]{0,2}F)")  # "Province b stays", not "while keeping Planet a"
_FACT_IN_STEP = re.compile(r"F,?[~_]{0,3}(?P<cue>[DX])_?J#")  # "Province b, which was removed in step 5"
_AFTER_STEP = re.compile(r"T[~_]{0,1}J#")
_STATE_OF_STEP = re.compile(r"S[~_]?J#")  # "State after step 3:", "State at step 3:" (the lexicon reads "after step" as a step)
_STEP_OF_EFFECT = re.compile(r"[DX]_?J#|J#(?=n?[DX])|" + _AFTER_STEP.pattern)  # "Province c was removed in step 1", "gone after
# step 1": when a fact changed, not the step the sentence says cannot be done
_PLAIN_FACTS = re.compile(r"^[~]*F(?:[,&]{1,2}F)*[.!]?$")  # "Red is on table, clear.": facts and nothing else
_STEP_NAMED = re.compile(r"J#[~_(:]{0,2}A")  # "step 3 is Feast b from a", "step 3 (Attack a)", "step 6: Overcome c from a"
_ASKED = re.compile(r"[~,W]*C[~_]?A")  # "Now, can Overcome c from a: ..." (see _asked)
_SUBJECTS = frozenset({"we", "i", "you", "they", "it", "one"})
_REASONED = re.compile(r"[~,]*U[~_,]*[TW]")  # a sentence that opens with its reason and names the time it speaks
# of ("Since after Feast, ...", "Because now ..."): the model concludes, in a state it places itself
_CHAIN = re.compile(r",?&?(A)")
_RECAP = re.compile(r"^[~,GHc]*T[~_]{0,1}J#")
_STATE_HEADINGS = ("state", "after")
_LIST_HEADINGS = ("req", "add", "del", "initial")  # "Preconditions:" over "- a craves c (yes)", a paragraph each: bullets only
_GOAL_THAT_OPENERS = frozenset({"so", "yes", "and", "then", "ok", "okay", "now", "thus", "hence", "therefore"})
_GOAL_POINTERS = frozenset({"that", "this", "which", "it", "that's", "it's", "this's"})
_DONE_WORDS = frozenset({"done", "finished", "so", "and", "then", "we're", "we", "are", "that's", "it", ",", ".", "!",
                         "the", "task", "problem", "puzzle", "mission", "is", "now", "complete", "completed", "solved",
                         "accomplished"})
_WHOLE_TASK = frozenset({"task", "problem", "puzzle", "mission"})  # "The task is complete.": the whole task, not a step
_FACTS_SO_DONE = re.compile(r"^[~&c,]*F(?:[,&]+F)*(?P<tail>,?[~&]{1,2}_?P)[.!]?$")  # "Red is on orange, so we're done."
# "Done.", "So we're done.": not "All conditions met." (after the needs of a step, which it may mean)
_STATE_TOLD_LETTERS = frozenset("F~&c,_WSYNn.!()")  # a unit that only tells facts: "Now a craves b and b craves c."
_GOAL_IS = frozenset({"is", "matches", "match", "meets", "satisfies", "fulfills", "gives", "leaves", "yields",
                      "produces", "forms", "creates"})
_GOAL_MODIFIERS = frozenset({"exactly", "precisely", "just", "actually", "indeed", "the", "our", "whole", "entire",
                             "final", "desired", "required", "all", "us", "with"})
_FACTS_SO_GOAL = re.compile(r"^[~&c,]*F(?:[,&]+F)*W?,~[~_]{0,2}O")  # "Blue is on red, so the goal is reached." 
_STEP_TOLD = re.compile(BY_ID["event.step_told"].pattern)
_FACT_LINE = re.compile(r"^[~]*[Ff][^AaIQHGLOCKJ]*$")  # a line of facts alone, tagged or not ("Harmony: No.")
_STATE_AFTER_STEP = re.compile(r"^[~,GHc_]*S[~_]{0,1}J#")  # "The state after step 1:", "Let me recap the state after step 2"


def _state_after_step(ur: UnitReading) -> re.Match[str] | None:
    """"The state after step 1": the state cue that holds "after" ("state after") before a step's
    number opens a recap, as "After step 1," does."""
    m = _STATE_AFTER_STEP.match(ur.shape)
    if m is None:
        return None
    hit = ur.items[m.group().rfind("S")]
    if not isinstance(hit, Hit) or ur.unit.tokens[hit.j - 1].norm != "after":
        return None
    return m


_RECAP_HEADING = re.compile(r"^[~,GHc]*T[~_]{0,1}J#:$")  # "After step 6:", alone on its line
_SINGULAR = frozenset({"is", "was", "gets", "becomes"})
VARIABLES = ("x", "y", "z")  # letters a rule uses for "any object" when the task names no object so
RULE_ROWS = ("rule.req", "rule.add", "rule.del", "rule.passive")
_COUNT_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
                "nine": "9", "ten": "10", "single": "1", "both": "2"}
_VAGUE_TIME = re.compile(r"T[~_Z]{0,2}(?:L|J(?!#)|a)")  # "after various steps", "after attacking"


def _asked(ur: UnitReading) -> bool:
    """"Now, can Overcome c from a: Requires ...": "can" with no subject before the action asks
    whether it can be done ("Now, we can Feast b from c" says it can)."""
    m = _ASKED.match(ur.shape)
    if m is None:
        return False
    at = ur.starts[ur.shape.index("C", 0, m.end())]
    toks = ur.unit.tokens
    return not (toks[at].norm in _SUBJECTS or (at > 0 and toks[at - 1].norm in _SUBJECTS))  # "Now we can do
    # Overcome a from b": the cue's own words hold the subject


def _role_or_purpose(u: Unit, m: ActionMention) -> bool:
    """An action named after "to" or "being" ("to unstack orange, red must be clear", "the block
    being unstacked (red) needs to be clear"), or as a noun after an article ("So the stack is Blue
    -> Orange -> Red"): a purpose, a role in a rule or a thing, not a step taken."""
    toks = u.tokens
    return (m.i > 0 and toks[m.i - 1].norm in ("to", "being", "the", "a", "this", "that", "each")) \
        or (m.i + 1 < len(toks) and toks[m.i + 1].norm in ("is", "was", "are", "looks"))  # "the initial stack is Blue"


def _would_be_possible(ur: UnitReading, end: int) -> bool:
    """"Feast a from c would also be possible here": the action is what a conditional says could be
    done, an applicability claim about it, not a step taken (a walk says "Feast a from c: possible")."""
    m = re.match(r"[_~WG]{1,5}[CV]", ur.shape[end:])
    if m is None:
        return False
    toks = ur.unit.tokens
    first, last = ur.starts[end], ur.starts[end + m.end() - 1]
    return any(t.norm in ("would", "could") for t in toks[first:last])


def _rejected_step(ur: UnitReading, s: str) -> int | None:
    """The number of the step a "can't" unit rejects: the first "step k" it names that is not the
    time of a change ("But after step 3, Province a is removed, so step 4 can't be done": 4)."""
    times = {m.end() - 1 for m in _STEP_OF_EFFECT.finditer(s)}
    return next((ur.number_at(m.end() - 1) for m in re.finditer(r"J#", s) if m.end() - 1 not in times), None)


_STEP_ALLOWED = BY_ID["app.step_allowed"].regex  # "so step 3 is allowed": the needs of the list's step 3
_EFFECT_LEAD = re.compile(r"[~]*[DX]")  # a unit that opens with what is added or removed ("Adds Pain a, ...")
_RULE_HEADING = re.compile(r"[~_]*a[~_]*:$")  # "Attack object:" over "- Pre: ..." bullets: the rule, no step
_ASKING = frozenset({"how", "whether", "if", "see", "check", "when", "which", "what", "once", "unless"})
_NEEDS_LABEL = re.compile(r"[~_]{0,2}R:")  # "Pre: Province a, ...", "Requires: ...": a paragraph of needs
_STATE_HEADED = re.compile(r"S:")  # "State: Pain, no Province, ...": the unit is the state, listed


def _one_item_gone(s: str, k: int, ur: UnitReading | None = None) -> bool:
    """Under "State:", a removal word right after the list's last item says that item is gone,
    not the items before it ("State: Harmony, Province a and b, Pain b removed.", "State:
    Province a, Harmony, Province b is gone.": the last item's own singular verb; "..., Harmony
    are false" denies them all)."""
    if not _STATE_HEADED.match(s):
        return False
    j = k + 1
    while j < len(s) and s[j] in "Ff,&":
        j += 1
    last = j - 1
    if ur is not None and j + 1 < len(s) and s[j] == "_" and s[last] in "Ff" and s[j - 2:j - 1] != "&" \
            and ur.unit.tokens[ur.starts[j]].norm in _SINGULAR_COPULA:
        j += 1
    return j < len(s) and s[j] in "XN" and last != k and s[last] in "Ff"


_SINGULAR_COPULA = frozenset({"is", "was", "'s"})


def _singular_gone_after(s: str, k: int, ur: UnitReading) -> bool:
    """Item k of a list is not its last, and the removal word after the last item has a singular
    verb ("Province b, Harmony, and Pain b is removed"): whether the earlier items are removed too is
    not said (under "State:" such a verb is the last item's own, `_one_item_gone`)."""
    if _STATE_HEADED.match(s):
        return False
    j = k + 1
    while j < len(s) and s[j] in "Ff,&":
        j += 1
    last = j - 1
    return last != k and s[last] in "Ff" and j + 1 < len(s) and s[j] == "_" and s[j + 1] in "XN" \
        and ur.unit.tokens[ur.starts[j]].norm in _SINGULAR_COPULA


def _aim_cue_before(ur: UnitReading, k: int) -> bool:
    """The add cue governing fact k is a verb that names an aim ("create", "get", "make")."""
    j = ur.shape.rfind("D", 0, k)
    hit = ur.items[j] if j >= 0 else None
    return isinstance(hit, Hit) and ur.unit.tokens[hit.i].norm in _AIM_VERBS


def _item_start(s: str, k: int) -> bool:
    """A predicate named alone as a list item ("no Province", "- Pain"), not "red is not clear"."""
    j = k - 1
    if j >= 0 and s[j] in "Nn":
        j -= 1
    return j < 0 or s[j] in ",:&(;"


def _list_negated(s: str, k: int) -> bool:
    """"No Harmony, Province c, Planet c": a "no" opening the list denies every item."""
    j = k - 1
    while j >= 0 and s[j] in "Ff,&|" and k - j < 16:
        j -= 1
    return j >= 0 and s[j] in "Nn" and (j == 0 or s[j - 1] in ",:(~")


def _list_denied(s: str, k: int, ur: UnitReading | None = None) -> bool:
    """A fact in a list that a negative word after the list denies ("Province a, Planet a,
    Harmony are false")."""
    j = k + 1
    while j < len(s) and s[j] in "F,&_":
        j += 1
    if j + 1 < len(s) and s[j + 1] in "Ff" or s[j - 1:j] == ",":
        return False  # "Pain a, no Harmony", "Planet a and c, not b": the "no" opens the next item
    if _one_item_gone(s, k, ur):
        return False
    if ur is not None and j < len(s) and s[j] in "NX":
        last = max(i for i in range(k, j) if s[i] == "F")
        mine, theirs = getattr(ur.items[k], "i", None), getattr(ur.items[last], "i", None)
        if mine != theirs and sum(1 for _, f in ur.facts if f.i == mine) > 1:
            return False  # "initial planets are a and c, Planet b isn't there": the denial is Planet b's own
        if last != k and any(ur.unit.tokens[ur.starts[i]].norm in _SINGULAR for i in range(last + 1, j) if s[i] == "_"):
            return False  # "we have Pain b, and Harmony is gone": a singular verb denies its own fact
    return j < len(s) and s[j] in "NX" and s[k + 1:j].count("_") <= 2


_SINGULAR = frozenset({"is", "was", "has", "'s"})


def _arity(task: Task, predicate: str) -> int:
    return task.domain.predicates.get(predicate, 0)


def _atoms(state: frozenset[Atom] | None) -> list[str] | None:
    return None if state is None else sorted("(" + " ".join(a) + ")" for a in state)


_DOUBT_ONLY = re.compile(BY_ID["rule.doubted"].pattern)
_RECHECK = re.compile(r"\b(?:re-?check|double-check|re-?read|problem statement says|the problem says|the description says|"
                      r"the statement says|check the (?:rules|actions?|restrictions|preconditions|definitions?|description)|"
                      r"look at the (?:rules|actions?|description|definitions?))\b")
# "Not sure. Let me recheck" (thinking-claims.md), "Wait, the problem statement says:": a rule doubted
_OPENS_DENIED = re.compile(r"[~,]*n[~_]{0,2}F")  # "None of ...", "Neither ..."
_REACHES_GOAL = re.compile(r"[PD][~_]{0,2}O[.!]?$")  # "A, then B would get us to the goal." (row verdict.inline)
_PLAN_RESULT = re.compile(BY_ID["verdict.result"].pattern)  # "Attack a, then Succumb a gives Province a."
_POINTING_OPENING = re.compile(r"[~,]*T[~_]{0,2}[JP][~_]{0,2}[,:]")  # "Once done,", "After this step,"
_WOULD_BE_CUES = frozenset({"add.would_be", "del.would_be"})


def _modality(ur: UnitReading, heading: _Heading | None, u: Unit) -> str:
    s = ur.shape
    if u.end == "?" or s.startswith("Q") or "?" in s:
        return "questioned"
    if "I" in s or ("A" not in s and any(h.cue in _WOULD_BE_CUES for h in ur.cues.hits)):
        return "hypothetical"  # "Harmony would be removed": what a step would do, not the state now ("Attack a
        # would mean Harmony would be removed" names the step: its effect rows read it)
    if "H" in s or ("G" in s and not _would_be_doable_because(ur)):
        return "proposed"
    if _proposal(heading) and (u.item is not None or u.bullet or u.indent):
        return "proposed"
    return "asserted"


def _would_be_doable_because(ur: UnitReading) -> bool:
    """"Attack c would be possible too, since Province c and Harmony are there", "picking up orange
    would also be possible right now": "would be" before "possible" with the facts that make it so,
    or with "now", is the model's check of the state, not a guess. Without either ("So Feast c from
    a would be possible.") it stays a guess: said of a step to come, it may mean the steps before it."""
    s = ur.shape
    for k, ch in enumerate(s):
        if ch != "G":
            continue
        h = ur.items[k]
        words = [t.norm for t in ur.unit.tokens[h.i:h.j] if t.norm not in INNER_ADVERBS]  # type: ignore[attr-defined]
        if words != ["would", "be"] or s[k + 1:k + 2] != "C":
            return False
    return re.search(r"GC(?:[^.;:?!]*U[~_]{0,2}F|[~_]{0,2}W)", s) is not None


def _proposal(heading: _Heading | None) -> bool:
    return heading is not None and heading.kind == "proposal"


_DOING = frozenset({"be", "do", "perform", "apply", "execute", "take"})


def _about_action(s: str, k: int, ur: UnitReading | None = None) -> bool:
    """"So can't.", "can't do that", "Attack a can't be done", "Red can't be stacked on orange":
    a rejection of an action; not "I can't verify", "I can't find a valid sequence"."""
    rest = s[k + 1:k + 3]
    if rest[:1] == "W":  # "wouldn't be possible now, with Harmony gone": the time word names no other thing
        rest = s[k + 2:k + 4]
    if rest == "_A" and ur is not None and ur.unit.tokens[ur.starts[k + 1]].norm in _DOING:
        return True  # "Red can't be stacked", "We cannot do Succumb a now"
    return rest == "" or rest[0] in ".,;:!)AU" or (rest[0] == "_" and (len(rest) == 1 or rest[1] in ".,;:!"))
    # "Succumb a is not possible because Pain a is missing": the reason follows the rejection


# a yes or no cue opening with one of these is a verb, so the fact before it is a sentence's subject,
# not a tagged check: "Harmony is back.", "Pain a exists." (beside "Harmony yes.")
_STATEMENT_VERBS = frozenset({"is", "are", "exists", "exist", "holds", "hold"})


def _stated(ur: UnitReading, k: int) -> bool:
    """Is the yes cue right after fact k a verb ("Harmony is back.", "Pain a exists."), so the fact is
    a sentence's subject rather than a tagged check ("Harmony yes.")?"""
    hit = ur.items[k + 1] if k + 1 < len(ur.items) else None
    return isinstance(hit, Hit) and hit.cls == "yes" and ur.unit.tokens[hit.i].norm in _STATEMENT_VERBS


def _tag(s: str, k: int) -> str | None:
    """"Province b (yes)", "Province b: no", "Province b ✓", "Province b -> no"."""
    rest = s[k + 1:k + 5]
    for lead in ("(", ":", ">", ""):  # not a word between: "Province b was not present" is a plain denial
        if rest.startswith(lead) and rest[len(lead):len(lead) + 1] in ("Y", "N"):
            nxt = rest[len(lead) + 1:len(lead) + 2]
            if lead == "(" and nxt not in (")", ",", ""):
                return None
            if lead == "" and nxt not in (")", ",", "", ".", ";", "&"):
                return None
            if lead == "(" and rest[1] == "N" and _kept_reason(s, k):
                return None
            return rest[len(lead)]
    return None


def _negated(s: str, k: int) -> bool:
    """A list item denied: "no Province", "not Planet a", "Harmony is gone"."""
    before = s[max(0, k - 2):k]
    if before.endswith("N") or before.endswith("n") or before.endswith("n_") or before.endswith("N_"):
        return True
    if before.endswith("x"):  # "all blocks except blue are on the table"; "except Pain a gone" says it itself
        return not _gone(s, k) and _tag(s, k) is None
    return _gone(s, k)


def _gone(s: str, k: int) -> bool:
    """"Harmony is gone", "Province b was not present any more", "Planet c: no", "Harmony is now
    false"."""
    if re.match(r"\([nN]_", s[k + 1:k + 4]):  # "clear (no blocks on top)" explains the fact, it does not deny it
        return False
    m = re.match(r"[:(]?_{0,2}W?_?(?:X|N|nX|n)", s[k + 1:k + 6])  # also "Harmony is now false"
    if m is not None and m.group() == "(N" and _kept_reason(s, k):
        return False
    return m is not None and not (m.group().endswith("X") and s[k + 1 + m.end():k + 2 + m.end()] == "F")
    # "adding Planet c doesn't remove Planet a": the fact is what removes (or not), the object is what goes


def _kept_reason(s: str, k: int) -> bool:
    """"Planet c (no, because Feast doesn't affect Planet)": the reason after fact k's "no" keeps the
    fact, so the "no" answers whether it went, not whether it holds."""
    return re.match(r"\(N,[~_]*U[^)]*k", s[k + 1:]) is not None


def _denied(s: str, k: int) -> bool:
    return s[max(0, k - 1):k] in ("N", "n")


def _takes_back(here: UnitReading, nxt: UnitReading) -> bool:
    """Does a unit opening with a retraction cue take `here` back? "No wait", "that's wrong" do; the
    weak "But wait" only when it doubts (a question, a denial) or speaks of the same facts ("I'm still
    holding blue. But wait, the goal is just blue on red." moves on: the holding claim stands)."""
    cue = nxt.cues.first("retract")
    if cue is None or [t.norm for t in nxt.unit.tokens[cue.i:cue.j]] != ["but", "wait"]:
        return True
    said = {m.atom for _, m in here.facts if m.atom is not None} | {m.ground for _, m in here.actions if m.ground}
    again = {m.atom for _, m in nxt.facts if m.atom is not None} | {m.ground for _, m in nxt.actions if m.ground}
    if said and again and not said & again and not any(m.ground for _, m in here.actions) \
            and not any(m.ground for _, m in nxt.actions) and nxt.unit.end != "?":
        return False  # "It would also bring back Craves(c, a). But wait, in the initial state, ... Planet c is
        # not.": the denial is of other facts, a new consideration, not a doubt of these
    if nxt.unit.end == "?" or re.search("[NnKQB]", nxt.shape[nxt.shape.find("B") + 1:]):
        return True
    return bool(said & again) or not (said and again)


def _retracted_next(readings: list[UnitReading], n: int) -> bool:
    """A claim the same step takes back: the unit itself, or the next one of its paragraph, opens
    with a retraction ("No wait, a is still on b.")."""
    here = readings[n]
    if "B" in here.shape[1:]:
        return True
    if n + 1 < len(readings):
        nxt = readings[n + 1]
        if (nxt.unit.step == here.unit.step or nxt.unit.paragraph == here.unit.paragraph) \
                and nxt.shape[:3].lstrip("~,").startswith("B") and _takes_back(here, nxt):
            return True  # thinking-claims.md: a claim doubted in its own paragraph is taken back
        if n + 2 < len(readings) and nxt.unit.end == "?" and readings[n + 2].unit.paragraph == here.unit.paragraph \
                and readings[n + 2].shape[:3].lstrip("~,").startswith("B"):
            return True  # "Planet a is not present. Feast removed Planet a? Wait, no.": doubted, then taken back
        if nxt.unit.paragraph == here.unit.paragraph and nxt.shape.startswith("c") and "R" in nxt.shape \
                and "C" in here.shape:
            return True  # "Now, we can use Overcome c from b. But to do that, we need ...": checked next, not asserted
    return False


def _doubted_rules(readings: list[UnitReading], claims: list[Claim]) -> None:
    """thinking-claims.md: "A rule doubted within its own paragraph ('Not sure. Let me recheck') is
    retracted". A unit that only doubts ("But that's a bit unclear.", "Not sure.") takes back the
    rule claims of its paragraph before it (row rule.doubted)."""
    doubts = [ur for ur in readings if _DOUBT_ONLY.match(ur.shape) or (
        not re.search("[FfAaJL]", ur.shape) and _RECHECK.search(" ".join(t.norm for t in ur.unit.tokens)))]
    # ("Let me check the steps again." checks a plan, not the rules)
    if not doubts:
        return
    starts = [ur.unit.span[0] for ur in readings]
    for c in claims:
        if c.kind != "rule" or c.retracted:
            continue
        at = bisect.bisect_right(starts, c.span[0]) - 1
        if at < 0:
            continue
        para = readings[at].unit.paragraph
        if any(d.unit.paragraph == para and d.unit.span[0] >= c.span[1] for d in doubts):
            c.retracted = True


def _link(claims: list[Claim]) -> None:
    """Roots and consequences (thinking-claims.md): on a line, a false claim after the line's
    first false claim and after an inapplicable action it took follows that root; a false claim
    repeating an earlier one (same kind, atom and action, or the same rule) follows the first."""
    first_on_line: dict[int, Claim] = {}
    seen: dict[tuple, Claim] = {}
    for c in claims:
        if c.holds is not False or c.retracted:
            continue
        key = (c.kind, c.atom, c.after, c.negative, c.action) if c.kind != "rule" else ("rule", c.message)
        if key in seen:
            c.follows = seen[key].span
            continue
        seen[key] = c
        root = first_on_line.get(c.line)
        if root is not None and c.kind in ("state", "effect", "goal", "plan_verdict") and c.broken_before:
            c.follows = root.span
            continue
        first_on_line.setdefault(c.line, c)
