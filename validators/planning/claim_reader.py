"""Claims about states and actions inside R1-style thinking, judged on lines of reasoning.

Semantics: ../shared/docs/thinking-claims.md. A thinking trace proposes, tries and rejects; only
what it *asserts* can be false. The reader goes sentence by sentence (prose.py), keeps the line
of reasoning the sentences are about (the actions applied so far from the initial state) and
that line's STRIPS state, and judges each assertion it can resolve to ground atoms (facts.py):

* applicability: "Attack a: Province a (yes), Planet a (yes), Harmony (yes). So possible.", "we
  can do Overcome a from c", or a walk-through item that performs an action and says what it
  needs or gives ("1. Attack b: Province b, Planet c, Harmony. ...", "Step 2: Succumb c ->
  Harmony, Province c") -- judged with the action's real preconditions in the line's state
  before it; a tagged fact ("Province b (no, Province is c)") is judged there too; a rejection
  ("... Province is b. Can't.") of an action whose preconditions all hold is false, and "Province
  is b" given as its reason denies the Province the action needs;
* effect: "Overcome c from b adds ... removes Province b", "Feast b from c (generates Pain c)" --
  against the ground action's add and delete lists (VAL semantics: delete first, then add);
* state: "Now, state: Planet a, b, c", "Harmony is gone", "Province is gone", "no Province b",
  "Feast b from c -> Pain c, Province a and c" -- against the line's state after the action.

How the line is kept (each rule errs toward not judging):
* it starts at the initial state; a numbered item 1 / "Step 1" that performs an action, or an
  explicit restart ("start over", "from the initial state"), starts a new line there; item k > 1
  keeps the first k-1 actions of the list; "after step k" goes on from step k; a list whose
  item 1 names no action is a sketch, and its line is not known;
* an action is applied when a sentence performs it: it heads the sentence ("So Feast b from c.",
  "2. Overcome a from c:", "Then Succumb c", an item's "2. Now, to get Harmony back, Succumb a."),
  or is named as done ("after Attack a"); a question, a rejection, a condition ("if we", "would")
  or a hedge ("maybe", "suppose") does not apply it, and a rejection right after it ("Can't.")
  takes it back; the items of a guessed list ("Wait, maybe: 1. Attack c → Pain c.") are applied
  but not said to be doable unless checked ("needs ...", "yes");
* a sentence about the state after an action it names only in words we cannot read ("After
  putting red down, orange is clear." under the stack) is not judged;
* an action the state does not allow but an earlier state of the same line does is read as a
  step back to that state (the line forks there); an inapplicable action is otherwise applied
  all the same (its effects), as the annotators judge the states that follow it, but claims
  downstream of it restate the model's first error and are not judged again (DOWNSTREAM_STATES);
* an action verb we cannot read ("then put blue down on the table") makes the line unknown:
  nothing is judged against it until a restart (or "After initial Feast b from a", REANCHOR);
* a claim that some other state of the same line would make true is left unjudged (CHARITABLE):
  the model may be speaking of a step we did not see.

A false claim that the same step takes back ("Province a? Wait, no.") is a retraction, not an
error; a rejection that replay confirms (an inapplicable action called impossible) is a
self-correction: the model catching its own error.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.gates import lowered, lowered_last
from validators.planning import prose as P
from validators.planning.claims import Claim, ClaimReport, LineOfReasoning, link_consequences
from validators.planning.extract import Lexicon, _LineReader
from validators.planning.facts import ASIDE, FactIndex, FactMention, FactReader
from validators.planning.strips import Atom, GroundAction, Task, apply, unmet_goals, unmet_preconditions
from validators.planning.vocab import Vocabulary

RETRACT_WINDOW = 90
DOUBT_WINDOW = 250
ANCHORED_LIST = 600  # the same for a list under "State:" in the action's paragraph
ANCHORED = 160  # a state claim this close after the line's last action, in its paragraph, is about that action's result
NEW_APPROACH_REACH = 200  # "Another approach: ...\n\nInitial state: ..." starts over if the heading follows this close
TAG_AFTER = re.compile(r"^\s*\([^()]*\)")
_WHITESPACE = re.compile(r"\s*")
FRESH = 400
CHARITABLE = True
REANCHOR = True
# States after a line's first inapplicable action are judged by applying its effects anyway, but
# claims there restate the model's own earlier error: one annotator flags them, another does not
# (thinking_claims_dev notes of 9cdaf3... and 37efd3...). We follow the stricter reading and do
# not flag them again (dev: precision 0.91 / recall 0.54 against 0.88 / 0.58 when flagged).
DOWNSTREAM_STATES = True
_CUES = (("req", P.REQ), ("add", P.ADD), ("del", P.DEL), ("state", P.STATE))


@dataclass
class _Frame:
    action: GroundAction
    label: str
    pre: frozenset[Atom] | None
    performed: bool
    item: bool
    span: tuple[int, int]
    positive_talk: bool = False
    verdict_said: bool = False
    rejected: bool = False
    verdict_at: tuple[int, int] | None = None
    sentence_end: int | None = None
    hedged: bool = False
    reason_given: bool = False
    negative_judged: bool = False
    denials_judged: bool = False
    exclusives: list = field(default_factory=list)  # a requirement listing with a "no"/absent fact came before
    req_at: tuple[int, int] | None = None
    talk_at: tuple[int, int] | None = None
    initial: bool = False
    forked_from: LineOfReasoning | None = None  # the line before performing it made us step back
    cond: bool = False  # named under "if", "would", "suppose"
    guess: bool = False  # "maybe", "perhaps": unlike "if"/"would", it hedges what the action does too
    context: bool = False  # named as the cause of a state ("because Overcome a from c removes ..."), not proposed
    proposed: bool = False  # an item of a list under "Wait, maybe:": a candidate, not said to be doable
    now: bool = False  # said doable "now": in the line's current state, no step back read into it


def _atom(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"


def _literals(lits) -> list[str]:
    """Goal atoms or preconditions as a message names them ("(on a b)", "not (clear a)")."""
    return [("" if lit.positive else "not ") + _atom(lit.atom) for lit in lits]


def _blank(text: str, start: int, end: int) -> bool:
    """`not text[start:end].strip()` without copying the span (the frame it starts at may lie
    far back in a long trace)."""
    return start >= end or _WHITESPACE.fullmatch(text, start, end) is not None


def _participle(verb: str) -> str | None:
    """"stack" -> "stacked", "pick" -> "picked", "put" -> "put", "overcome" -> "overcome"."""
    if not verb.isalpha() or len(verb) < 3:
        return None
    if verb in ("put", "overcome"):
        return verb
    return verb + ("d" if verb.endswith("e") else "ed")


def _gerund(verb: str) -> str | None:
    """"stack" -> "stacking", "put" -> "putting", "succumb" -> "succumbing"; None if not a plain word."""
    if not verb.isalpha() or len(verb) < 3:
        return None
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    if len(verb) == 3 and verb[1] in "aeiou" and verb[0] not in "aeiou" and verb[2] not in "aeiouwxy":
        return verb + verb[2] + "ing"
    return verb + "ing"


def _last(pattern: re.Pattern[str], text: str, lo: int, hi: int) -> re.Match[str] | None:
    m = None
    for m in pattern.finditer(text, lo, hi):
        pass
    return m


def _last_index(actions: list[GroundAction], action: GroundAction) -> int | None:
    for i in range(len(actions) - 1, -1, -1):
        if actions[i] == action:
            return i
    return None


def _ends_with(text: str, end: int, char: str) -> bool:
    """`text[:end].rstrip().endswith(char)` without copying the text before `end` (a sentence
    deep in a long trace would copy the whole trace up to it)."""
    i = end
    while i > 0 and text[i - 1].isspace():
        i -= 1
    return i > 0 and text[i - 1] == char


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """A sentence's span without the blank space around it: the indentation before "   - Requires
    ..." belongs to the step before it, and a claim is placed in the step its span starts in."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _same_talk(text: str, action_end: int, pos: int) -> bool:
    """Is text at `pos` still about the action that ends at `action_end`: the same paragraph, or
    the next one when the action's paragraph ends with it ("Step 3: Feast a from c.\n\nRequires
    a→c (yes), Province a (no). Can't do." weighs step 3)? A paragraph further on may be about
    anything."""
    brk = text.find("\n\n", action_end, pos)
    if brk < 0:
        return True
    if text[action_end:brk].strip(" \t.:*"):
        return False
    nxt = brk + 2
    while nxt < pos and text[nxt] == "\n":
        nxt += 1
    return text.find("\n\n", nxt, pos) < 0


class ClaimReader:
    """Reads and judges the claims of a trace. Its patterns depend only on the task's lexicon, so
    one reader serves every trace on the same problem (`for_lexicon`), from any thread (the app
    audits in several): `read` keeps no state on the reader except the cache of action phrases
    already resolved, whose entries depend on the phrase alone."""

    @classmethod
    def for_lexicon(cls, task: Task, vocab: Vocabulary, lexicon: Lexicon) -> "ClaimReader":
        key = ("claim_reader", id(lexicon))
        reader = task.memo.get(key)
        if reader is None:
            reader = task.memo[key] = cls(task, vocab, lexicon)
        return reader

    def __init__(self, task: Task, vocab: Vocabulary, lexicon: Lexicon) -> None:
        self.task = task
        self.vocab = vocab
        self.lex = lexicon
        self.facts = FactReader.shared(lexicon)
        self.reader = _LineReader(lexicon, explicit=False)
        verbs = sorted({t.split()[0].lower() for t in vocab.actions.values() if t.split()}
                       | {name.split("-")[0].lower() for name in task.domain.actions}, key=len, reverse=True)
        obj_alt = "|".join(r"\s+".join(map(re.escape, m.split())) for m in sorted(lexicon.lookup, key=len, reverse=True)) or "(?!)"
        # Where an action's words end: "Feast b from c to generate Pain c", "Attack a (since ...)";
        # "to" ends them unless an object follows ("Succumb to b").
        self._stop = re.compile(
            r"[,;:()\n→]|->|=>|\.(?=\s|$)|\b(?:requires?|needs?|which|that|then|so|since|because|but|and"
            rf"|to(?!\s+(?:the\s+)?(?:object\s+)?(?:{obj_alt})(?![\w-]))"
            r"|gives?|adds?|removes?|would|will|should|is|are|was|first|again|now|here|there|instead|with|without"
            r"|using|yes|no|also|makes?|making|leaves?|leaving|keeps?|keeping|works)\b", re.I)
        self._verb_object = re.compile(r"^\s+(?:it|them|that|this|the\s+\w+\s+block|" + obj_alt + r")\b", re.I)
        self._read_cache: dict[str, GroundAction | None] = {}
        self._verbs = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, verbs)) + r")(?:s|ed|ing|ping)?(?![\w-])", re.I)
        # verbs a model moves things with in any domain, with an object after them ("we need to
        # move red to the table first", 6ccdb4...): a clause we cannot read
        self._moves = re.compile(r"(?<![\w-])(?:mov|plac|lift|transferr?)(?:e|es|ed|ing|s)?\s+(?:the\s+)?(?:block\s+)?(?:"
                                 + obj_alt + r")(?![\w-])", re.I)
        self.init = task.problem.init
        # "Unstacking orange from red leaves red clear", "Picking up red is possible": an action
        # named by its gerund, read as the action (the planted-claims test found them unread, and
        # the line lost at the unread verb)
        # "Blue can be picked up now", "Orange could be unstacked from red": an action said to be
        # possible in the passive, with its object first (planted-claims tests)
        heads = {t.split("{}")[0].strip().lower() for t in vocab.actions.values() if "{}" in t} | {
            name.replace("-", " ").lower() for name in task.domain.actions}
        self._passive_base: dict[str, str] = {}
        for head in heads:
            verb, _, particle = head.partition(" ")
            if _participle(verb) and re.fullmatch(r"[a-z]+(?: (?:up|down))?", head):
                self._passive_base[(_participle(verb) + (" " + particle if particle else "")).strip()] = head
        self._passive = re.compile(
            rf"(?<![\w-])(?P<o>{obj_alt})(?:\s+|{ASIDE})(?:can(?:not|'t)?|could(?:n't)?)\s+(?:now\s+|also\s+|then\s+|still\s+|not\s+)?be\s+"
            rf"(?P<v>{'|'.join(sorted(map(re.escape, self._passive_base), key=len, reverse=True))})(?![\w-])",
            re.I) if self._passive_base else None
        # "put red down", "pick orange up": a two-word action verb with its object between
        # (R1 writes it so; read as "put down red"; the line was lost at each)
        split = sorted({h for h in heads if re.fullmatch(r"[a-z]+ (?:up|down|off)", h)}, key=len, reverse=True)
        self._split = re.compile(
            rf"(?<![\w-])(?P<v>{'|'.join(re.escape(h.split()[0]) for h in split)})\s+(?:the\s+)?(?:block\s+)?(?P<o>{obj_alt})"
            rf"(?:\s+block)?\s+(?P<p>up|down|off)(?![\w-])", re.I) if split else None
        self._split_heads = set(split)
        # "Then put it down", "pick it up and stack it on blue": an action whose object is "it"
        self._it = re.compile(
            rf"(?<![\w-])(?P<v>{'|'.join(sorted({re.escape(h.split()[0]) for h in heads if h}, key=len, reverse=True))})"
            rf"\s+it(?:\s+(?P<p>up|down|off)\b)?(?![\w-])", re.I) if heads else None
        self._gerund_base = {_gerund(v): v for v in verbs if _gerund(v)}
        self._gerund = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(self._gerund_base, key=len, reverse=True)))
                                  + r")(?![\w-])", re.I) if self._gerund_base else None

    # -- lines ---------------------------------------------------------------------------
    def _new_line(self, lines: list[LineOfReasoning], line_at: list[tuple[int, int]], pos: int) -> LineOfReasoning:
        line = LineOfReasoning(len(lines), pos, [], [self.init], last=pos)
        lines.append(line)
        line_at.append((pos, line.id))
        return line

    def _nl(self, atom: Atom) -> str:
        return self.vocab.atom_nl(atom)

    def _named(self, atom: Atom) -> str:
        """The atom and its words ("(province a) (province object a)"), the words left out when
        they only repeat it ("(harmony)")."""
        words = self._nl(atom)
        return _atom(atom) if words.lower() == " ".join(atom).lower() else f"{_atom(atom)} ({words})"

    def _actions_in(self, text: str, lo: int, hi: int) -> list[tuple[int, int, GroundAction | None, str]]:
        """Action mentions in text[lo:hi]: (start, end, ground action or None, words)."""
        out = []
        for kw in self.lex.keyword_anywhere.finditer(text, lo, hi):
            if out and kw.start() < out[-1][1]:
                continue
            call = P.CALL_ARGS.match(text, kw.end(), hi)
            if call:
                # "Feast(c from b)", "Succumb(c)": the call style some models write actions in
                end = call.end()
                words = text[kw.start():kw.end()] + " " + call.group(1)
            else:
                end = self._words_end(text, kw.end(), hi)
                words = text[kw.start():end]
            out.append((kw.start(), end, self._grounded(words), words.strip()))
        return out

    def _words_end(self, text: str, pos: int, hi: int) -> int:
        """Where the words of an action named up to `pos` end (at `_stop`, else at `hi`)."""
        end_m = self._stop.search(text, pos, hi)
        return end_m.start() if end_m else hi

    def _grounded(self, words: str) -> GroundAction | None:
        """`_ground`, remembered: a trace names the same few actions again and again."""
        if words not in self._read_cache:
            self._read_cache[words] = self._ground(words)
        return self._read_cache[words]

    def _with_other_forms(self, text: str, lo: int, hi: int, out: list[tuple[int, int, GroundAction | None, str]],
                          line: LineOfReasoning) -> list[tuple[int, int, GroundAction | None, str]]:
        """`out` with the actions named in the passive ("Blue can be picked up", words marked by a
        leading "can be "), with their object between their two words ("put blue down"), or by a
        gerund added, each read as its base form. Left out, as before:
        one that names no action with all its objects ("Succumbing requires Pain"), and "after
        putting down orange" when the line did that already (a recall of the state then,
        e6ffce...: read as doing it again, the line stepped back to it)."""
        added = list(out)
        if self._passive is not None and text.find(" be ", lo, hi) >= 0:
            for p in self._passive.finditer(text, lo, hi):
                if any(a0 <= p.start("v") < a1 for a0, a1, _, _ in out):
                    continue
                end = self._words_end(text, p.end(), hi)
                words = f"{self._passive_base[' '.join(p.group('v').lower().split())]} {p.group('o')}{text[p.end():end]}"
                ground = self._grounded(words)
                if ground is not None:
                    added.append((p.start(), end, ground, "can be " + words))
        if self._split is not None and self._split.search(text, lo, hi):
            for m in self._split.finditer(text, lo, hi):
                head = f"{m.group('v').lower()} {m.group('p').lower()}"
                if head not in self._split_heads or any(a0 <= m.start() < a1 for a0, a1, _, _ in added):
                    continue
                end = self._words_end(text, m.end(), hi)
                ground = self._grounded(f"{head} {m.group('o')}{text[m.end():end]}")
                if ground is not None:
                    added.append((m.start(), end, ground, text[m.start():end].strip()))
        if self._it is not None and line.known and line.actions and line.actions[-1].args and " it" in text[lo:hi].lower():
            for m in self._it.finditer(text, lo, hi):
                if any(a0 <= m.start() < a1 for a0, a1, _, _ in added):
                    continue
                ground = self._it_action(text, m, hi, line)
                if ground is not None:
                    end = self._words_end(text, m.end(), hi)
                    added.append((m.start(), end, ground, text[m.start():end].strip()))
        if self._gerund is not None and self._gerund.search(text, lo, hi):
            for g in self._gerund.finditer(text, lo, hi):
                if any(a0 <= g.start() < a1 for a0, a1, _, _ in added):
                    continue
                end = self._words_end(text, g.end(), hi)
                ground = self._grounded(self._gerund_base[g.group().lower()] + text[g.end():end])
                if ground is None or (ground in line.actions and P.DONE_BEFORE.search(text[max(lo, g.start() - 60):g.start()])):
                    continue
                added.append((g.start(), end, ground, text[g.start():end].strip()))
        added.sort(key=lambda m: m[0])
        return added

    def _names_frame_briefly(self, text: str, body_at: int, s1: int, mentions: list, action: GroundAction) -> bool:
        """Does the sentence open with `action` named in fewer words ("Unstacking blue leaves red
        covered." after "1. Unstack blue from red.")? Its verb, and only objects of its own, at
        least one."""
        if mentions:
            a0, a1, ground, words = mentions[0]
            if ground is not None or not P.filler_only(text[body_at:a0]):
                return False
        else:
            at = body_at + len(text[body_at:s1]) - len(text[body_at:s1].lstrip())
            g = self._gerund.match(text, at, s1) if self._gerund is not None else None
            if g is None:
                return False
            words = text[g.start():self._words_end(text, g.end(), s1)]
        head = words.split(None, 1)[0].lower() if words.strip() else ""
        if len(head) < 4 or not action.name.lower().replace("-", "").startswith(head[:4]):
            return False
        named = {self.lex.object_of(m) for m in self.lex.mention_re.findall(words)} if self.lex.mention_re else set()
        return bool(named) and None not in named and named <= set(action.args)

    def _it_action(self, text: str, m: re.Match[str], hi: int, line: LineOfReasoning) -> GroundAction | None:
        """The action "put it down" names, "it" read as the object the line's last action moved
        (its first argument: "Unstack blue from red. Then put it down."), only when that action
        can be done in the line's state: a pronoun read wrong must not make a claim of its own,
        only keep the line from being lost."""
        obj = line.actions[-1].args[0]
        name = next((m2 for m2, o in self.lex.lookup.items() if o == obj), obj)
        verb = m.group("v").lower() + (" " + m.group("p").lower() if m.group("p") else "")
        end = self._words_end(text, m.end(), hi)
        ground = self._grounded(f"{verb} {name}{text[m.end():end]}")
        if ground is None or unmet_preconditions(ground, line.state):
            return None
        return ground

    def _names_object(self, sentence: str) -> bool:
        return self.lex.mention_re is not None and self.lex.mention_re.search(sentence) is not None

    def _ground(self, words: str) -> GroundAction | None:
        """The one action the words name with all its objects, or None."""
        steps = self.reader.read(0, len(words), words).steps
        named = len(self.lex.mention_re.findall(words)) if self.lex.mention_re else 0
        if len(steps) == 1 and steps[0].ok and not steps[0].note and named >= len(steps[0].args or ()):
            try:
                return self.task.ground(steps[0].action, steps[0].args)
            except (KeyError, ValueError):
                return None
        return None

    # -- reading --------------------------------------------------------------------------
    def read(self, text: str, verdicts: Sequence[tuple[int, int, bool, str]] = ()) -> ClaimReport:
        """`verdicts`: the trace's plan verdicts that no candidate plan answers (start, end, says
        it works, words), in order; each is judged on the line it is said of (`_plan_verdict`)."""
        facts_index = self.facts.index(text)
        next_verdict = 0
        lines: list[LineOfReasoning] = []
        line_at: list[tuple[int, int]] = []
        claims: list[Claim] = []
        line = self._new_line(lines, line_at, 0)
        frame: _Frame | None = None
        item_base: int | None = None  # line length when item 1 of the current list was read
        lead: tuple[str, int | None] | None = None  # what a "...:" heading makes of the bullets under it
        proposal = False  # under a hedged heading ("Wait, maybe:"): the bullets propose, they do not assert

        pending: tuple[str, int, bool, bool] | None = None  # an action named without its objects ("1. Attack: ..."): verb, end, item, objects named
        unnamed: tuple[str, int] | None = None  # the same, at the head of any sentence, until judged
        lost: tuple[LineOfReasoning, str, int] | None = None  # a line made unknown by an unnamed action
        previous = (0, 0)  # the sentence before: "In that case, ..." goes on with its hypothesis
        initial_at = -1  # where the paragraph began to recall the initial state ("Wait, initial conditions: ...")
        approach_at = -NEW_APPROACH_REACH - 1  # where the last "Another approach:" ended
        items_done: dict[int, GroundAction] = {}  # the action each item of the list performed
        after_step: int | None = None  # "After step k, we have ...": the next item may go on from step k
        last_item: tuple[int, list[GroundAction]] | None = None
        undone_item: int | None = None  # the number of the last item whose action the model found impossible  # the last item's number, and its line's actions after it
        for s0, s1 in P.sentences(text):
            prior, previous = previous, (s0, s1)
            sentence = text[s0:s1]
            gate_low = lowered_last(sentence)  # for the word gates asked of the sentence or a part of it
            if P.INITIAL_RECALL.admits(gate_low) and P.INITIAL_RECALL.match(text, s0, s1):
                initial_at = s0  # what follows in its paragraph, until an action is taken, is about the initial state
            carried = None
            if pending is not None:
                carried, pending = pending, None
            question = sentence.rstrip().endswith("?")
            item = P.ITEM.match(sentence)
            number = int(item.group("s") or item.group("n")) if item else None
            body_at = s0 + (item.end() if item else 0)
            mentions = self._with_other_forms(text, body_at, s1, self._actions_in(text, body_at, s1), line)
            # A purpose clause before the action ("2. Now, to get Harmony back, Succumb a.") makes it
            # a step only in a numbered item: in prose "To get Pain a, Attack a." names a means.
            tagged_step = (item is None and bool(mentions) and P.STEP_TAG.match(text, mentions[0][1], s1) is not None
                           and P.purpose_then_action(text[body_at:mentions[0][0]]))
            acts_at_head = bool(mentions) and (P.filler_only(text[body_at:mentions[0][0]]) or tagged_step or (
                item is not None and P.purpose_then_action(text[body_at:mentions[0][0]])))
            low = gate_low if gate_low is not None else sentence.lower()
            restart = not item and any(w in low for w in P.RESTART_WORDS) and (
                bool(P.RESTART.search(sentence))
                or (s0 - approach_at <= NEW_APPROACH_REACH and bool(P.INITIAL_HEADING.match(sentence))))
            if P.NEW_APPROACH.admits(gate_low) and P.NEW_APPROACH.match(sentence):
                approach_at = s1
            if (number == 1 and acts_at_head) or restart:
                line = self._new_line(lines, line_at, s0)
                item_base = 0 if number == 1 else None
            elif number == 1 and not mentions:
                # "1. Generate Pain a and Province c. 2. Overcome a from c": a sketch, not a line;
                # "1. The initial state: red on orange, ..." recalls where a line starts (6ccdb4...)
                line = self._new_line(lines, line_at, s0)
                line.known = bool(P.INITIAL.search(sentence))
                item_base = None
            elif (number is None and item_base is not None and line.known and "after" in low
                  and (m_after := P.AFTER_STEP_HEAD.match(sentence))
                  and 0 < int(m_after.group(1)) < len(line.actions) - item_base
                  and any(m[2] is not None and m[0] >= s0 + m_after.end() for m in mentions)):
                # "Alternatively, after step 2, Feast a from c": the walk goes on from step 2 of the
                # same list. "So after step 1, c→a is still there." only recalls that state (judged
                # there, _judge_sentence): the line keeps its later steps (37efd3e6 dev trace).
                line = self._fork(lines, line_at, line, item_base + int(m_after.group(1)), s0)
            elif (after_step is not None and number == after_step + 1 and acts_at_head
                  and (done_k := items_done.get(after_step)) is not None
                  and (at_k := _last_index(line.actions, done_k)) is not None and at_k + 1 < len(line.actions)):
                # "After step 3, we have b craves c, ... 4. Attack a.": item 4 goes on from step 3 of
                # the list, whatever was tried after it (e3382e...: the line kept the later steps,
                # and a right "Province c (no)" was flagged)
                line = self._fork(lines, line_at, line, at_k + 1, s0)
            elif number is not None and number > 1 and item_base is not None and acts_at_head:
                keep = item_base + number - 1
                ground0 = mentions[0][2]
                if (len(line.actions) > keep and line.known and ground0 is not None and line.broken is None
                        and last_item == (number - 1, line.actions[:keep])
                        and unmet_preconditions(ground0, line.states[keep]) and not unmet_preconditions(ground0, line.state)):
                    # "Step 2: Overcome a from c. ... So Attack c: ... Step 3: Overcome c from b.": an
                    # unnumbered step between the items, which step 3 needs (6d91ce...); stepping
                    # back to step 2 would judge step 3 without it. Only right after item k-1 of the
                    # same list: a later item 2 under "Alternatively, after step 1:" does step back
                    # (aad2a0...)
                    item_base += len(line.actions) - keep
                elif len(line.actions) > keep or (not line.known and line.known_at(keep)):
                    # the item steps back to step k-1 of its list, or past an action we could not
                    # read that came after it ("1. Unstack blue. So we can put it down. 2. Put down blue.")
                    line = self._fork(lines, line_at, line, keep, s0)
                elif len(line.actions) == keep - 1 and undone_item is not None and undone_item == number - 1:
                    # "3. Feast b from c: ... So can't. 4. Attack a": the list goes on without the
                    # step it found impossible (one of the commonest ways a Mystery line was lost)
                    item_base -= 1
                elif len(line.actions) < keep and (ground0 is not None or self._names_object(sentence)):
                    line.lose()  # "4. Succumb b" after we read only one step: steps we missed
                # (not "2. **Succumb**: Needs Pain.", an action named with no object in a list of
                # the rules: nothing was missed, d21a6b..., be9643...)
            if len(mentions) >= 2 and sum(1 for m in mentions if m[2] is not None) >= 2 and not all(
                    P.DONE_BEFORE.search(text[max(s0, m[0] - 60):m[0]]) for m in mentions if m[2] is not None):
                # A plan written in one sentence is a candidate (judged as a plan elsewhere),
                # not a step of the line; "after step 1 (X) and step 2 (Y)" names the line's steps.
                if frame is not None:
                    self._close(frame, claims, line, text)
                frame = None
                continue
            unparen = P.PAREN.sub(" ", sentence) if mentions and "(" in sentence else sentence
            cond = bool(mentions) and not tagged_step and bool(P.COND.search(P.RELATIVE_TAIL.sub("", unparen))) and not (
                len(mentions) == 1 and P.WOULD_OK.match(text, mentions[0][1], s1) is not None
                and (P.DOABLE_NOW.search(text, s0, s1) or P.REASON_AFTER.search(text, mentions[0][1], s1))
                and not P.IF_WORD.search(sentence))  # "To do that, Succumb a (step 2):" is no condition
            hedge: bool | None = None  # asked of the sentence once, when an action in it is weighed
            rejected = bool(mentions) and P.says_no(sentence)
            for k, (a0, a1, ground, words) in enumerate(mentions):
                at_head = k == 0 and acts_at_head
                if ground is None:
                    if not question:
                        line.unread_at = a0
                    bare = not re.sub(r"(?i)\b(?:action|object|the)\b", "", words.split(None, 1)[1] if len(words.split()) > 1 else "").strip(" .:*")
                    if at_head and not question and not cond and bare and item is not None:
                        # "1. Attack: Province b, ..." names the action before its object
                        pending = (words.split()[0].lower() if words else "", s1, item is not None,
                                   self._names_object(sentence))
                    if at_head and not question and not cond and bare and words and not (
                            frame is not None and frame.span[0] >= s0 - FRESH
                            and frame.action.name.lower().startswith(words.split()[0].lower()[:4])):
                        unnamed = (words.split()[0].lower(), s0)  # not a restatement of the action just named
                    if frame is not None and words and not frame.action.name.lower().startswith(words.split()[0].lower()[:4]):
                        self._close(frame, claims, line, text)  # the talk moved on to another action
                        frame = None
                    continue
                done_before = bool(P.DONE_BEFORE.search(text[max(s0, a0 - 60):a0]))
                if (done_before and frame is not None and ground != frame.action and not frame.performed
                        and text.find("\n\n", frame.span[1], a0) < 0):
                    # "Overcome a from b requires ... But after Feast b from a, ...": the talk stays on
                    # Overcome; Feast is the state it is now judged in.
                    if line.known and line.actions[-1:] != [ground]:
                        if line.broken is None and unmet_preconditions(ground, line.state):
                            line.broken = len(line.actions)
                        line.actions.append(ground)
                        line.states.append(apply(ground, line.state))
                        line.last = a1
                        line.listed = line.listed or item is not None
                    frame.pre = line.state if line.known else None
                    continue
                passive = words.startswith("can be ")  # marked so by _with_other_forms
                tail_ok = bool(P.PERFORM_TAIL.match(text[a1:s1])) and not P.SUBJECT_ASIDE.match(text, a1, s1)
                performed = not passive and not question and ((at_head and tail_ok and not cond and not rejected) or done_before)
                if (not performed and at_head and not question and not cond and not rejected and line.known
                        and P.EFFECT_TAIL.match(text, a1) and P.NOW_NEXT.match(text, s1)
                        and not unmet_preconditions(ground, line.state)):
                    performed = True  # "Succumb b adds Province b, Planet b, Harmony. Now, ...": a step taken
                if ((performed or done_before) and REANCHOR and (
                        ((not line.known or unmet_preconditions(ground, line.state)) and P.INITIAL_WORD.search(text[s0:a0]))
                        or P.FROM_INITIAL.search(text[s0:a0]) or P.STEP1_DONE.search(text[max(s0, a0 - 30):a0]))
                        and not unmet_preconditions(ground, self.init)):
                    # A line we lost track of, and an action that fits the initial state: the
                    # model starts from there (as "After initial Feast b from a" says outright).
                    line = self._new_line(lines, line_at, s0)
                if (lost is not None and lost[0] is line and not line.known and not question and a0 - lost[2] <= FRESH
                        and (performed or P.CAN_DO.search(text[max(s0, a0 - 40):a0]))
                        and ground.name.lower().startswith(lost[1][:4])):
                    line.known, line.known_upto = True, None  # "1. Attack: ... Yes. ... Let's say Attack a.": the action, named at last
                    lost = None
                if frame is not None:
                    self._close(frame, claims, line, text)
                    frame = None
                pre = line.state if line.known else None
                if not performed and P.INITIAL.search(sentence):
                    pre = self.init  # "In the initial state, we can Feast b from a"
                elif line.actions and line.actions[-1] == ground and (done_before or not performed):
                    performed = False
                    pre = line.states[-2] if line.known else None
                elif (not performed and item_base is not None and (named := _last(P.STEP_NAMED, text, s0, a0))
                      and 0 < (k_named := item_base + int(named.group(1))) <= len(line.actions)
                      and line.actions[k_named - 1] == ground):
                    # "But wait, step 5: can you pick up orange?" asks about step 5 of the list, in
                    # the state before it, not after the list's last step (f9a5bc... dev trace)
                    pre = line.states[k_named - 1] if line.known_at(k_named - 1) else None
                follows = (carried is not None and k == 0 and at_head
                           and ground.name.lower().startswith(carried[0][:4]) and not text[carried[1]:s0].strip())
                if follows:
                    performed = not question and not rejected
                if hedge is None:
                    hedge = bool(P.HEDGE.search(unparen)) or (
                        bool(P.CASE_HEAD.match(sentence)) and bool(P.HEDGE.search(text, *prior)))
                frame = _Frame(ground, words, pre, performed, (item is not None and k == 0) or bool(follows and carried[2]),
                               (a0, a1), hedged=cond or hedge, cond=cond,
                               context=done_before or bool(P.CAUSE_BEFORE.search(text[max(s0, a0 - 30):a0])),
                               guess=hedge, proposed=proposal)
                if follows:
                    frame.positive_talk = True
                    carried = None
                if not question and not frame.hedged and not rejected and not P.MEANS_LEAD.match(text, body_at, a0) and not (
                        passive and P.THEN_LEAD.match(text, body_at, a0)) and (
                        passive or P.CAN_DO.search(text[max(s0, a0 - 40):a0]) or P.ACTION_OK.match(text, a1, s1)
                        or P.WOULD_OK.match(text, a1, s1) or (
                            P.COULD_DO.search(text[max(s0, a0 - 40):a0])
                            and (P.DOABLE_NOW.search(text, s0, s1) or P.REASON_AFTER.search(text, a1, s1)))):
                    frame.verdict_said = True
                    frame.verdict_at = (s0, s1)
                frame.now = (frame.verdict_said and line.known and bool(P.DOABLE_NOW.search(text, s0, s1))
                             and a0 - line.last <= ANCHORED and text.find("\n\n", line.last, a0) < 0)
                if performed:
                    if line.known and unmet_preconditions(ground, line.state) and not frame.now:
                        # ("So I can stack blue on red now.": "now" says it is doable in the state
                        # the line is in, so no step back is read into it; planted-claims test)
                        before = line
                        line = self._charitable(lines, line_at, line, ground, s0)
                        frame.pre = line.state if line.known else None
                        frame.forked_from = before if line is not before else None
                    if line.broken is None and line.known and unmet_preconditions(ground, line.state):
                        line.broken = len(line.actions)
                    line.actions.append(ground)
                    line.states.append(apply(ground, line.state))
                    line.last = a1
                    line.listed = line.listed or item is not None
            if number is not None:
                last_item = (number, list(line.actions))
                undone_item = None  # set again below if this item's action is found impossible
                if number == 1:
                    items_done = {}
                if acts_at_head and line.actions and line.actions[-1] == mentions[0][2]:
                    items_done[number] = line.actions[-1]
                after_step = None
            elif (not mentions and s0 > 0 and text[s0 - 1] == "\n" and "after" in low
                  and (m_after := P.AFTER_STEP_HEAD.match(sentence))):
                after_step = int(m_after.group(1))  # a line that recalls the state after step k
            if unnamed is not None and (unnamed[1] == s0 or not any(m[2] is not None for m in mentions)):
                self._unnamed_doable(text, s0, s1, unnamed, line, claims, question)
            if unnamed is not None and unnamed[1] != s0:
                unnamed = None  # judged in its own sentence or the next, never later
            if carried is not None and (carried[3] or (self._names_object(sentence) and not any(
                    m[2] is not None and not m[2].name.lower().startswith(carried[0][:4]) for m in mentions))):
                line.lose()  # the unnamed action was never resolved: the line may have moved
                lost = (line, carried[0], s1)
            # else a rule, not a step ("1. **Attack**: Requires Province, Planet, Harmony."): no
            # object named, nothing done (d21a6b..., be9643...: the line was lost at the rules list)
            if frame is not None and frame.span[0] >= s0:
                frame.sentence_end = s1
            if line.known and not question and self._unread_action(text, body_at, s1, mentions):
                line.lose()
            if (lead is not None or proposal) and not (P.BULLET.match(sentence) or text[s0:s0 + 1] in " \t"):
                lead = None
                proposal = False
            if not question:
                if mentions and initial_at != s0:
                    initial_at = -1  # an action named: the talk has moved on from the initial state
                recalls_initial = (initial_at >= 0 and line.last <= initial_at and text.find("\n\n", initial_at, s0) < 0
                                   and not P.CHANGE_WORD.search(text, s0, s1))
                if self._judge_sentence(text, facts_index, s0, s1, body_at, frame, line, claims, mentions, lead,
                                        recalls_initial, sentence):
                    if frame.item and last_item is not None:
                        undone_item = last_item[0]
                    if frame.forked_from:
                        line = frame.forked_from  # the step back was only for an action the model then did not take
                        line_at.append((s0, line.id))
                        frame.forked_from = None
            if not question and line.known and "goal" in low:
                self._goal_claim(text, s0, s1, line, claims, item_base)
            while next_verdict < len(verdicts) and verdicts[next_verdict][0] < s1:
                if verdicts[next_verdict][0] >= s0 and not question:
                    self._plan_verdict(text, verdicts[next_verdict], line, claims, item_base, last_item)
                next_verdict += 1
            if claims and claims[-1].line_actions is None:  # a claim of this sentence to stamp
                self._stamp(claims, lines)
            heading = P.LEAD.search(sentence.rstrip()) if sentence.rstrip().endswith(":") else None
            if item is None and sentence.rstrip().endswith(":") and P.GUESS.search(sentence):
                proposal = True
            if heading and P.REQ.search(sentence) and P.EFFECT_WORD.search(sentence):
                heading = None  # "verify each step's preconditions and effects:": bullets of both kinds
            if heading:
                word = heading.group("kind").lower()
                step_k = P.AFTER_STEP.search(sentence)
                lead = ("req" if word.startswith(("pre", "req", "need")) else "add" if word.startswith(("effect", "add"))
                        else "del" if word.startswith(("remove", "delete")) else "state",
                        int(step_k.group(1)) if step_k else None)
        if frame is not None:
            self._close(frame, claims, line, text)
        self._stamp(claims, lines)
        self._mark_retractions(text, claims)
        link_consequences(claims)
        return ClaimReport(claims, lines, line_at)

    def _goal_claim(self, text: str, s0: int, s1: int, line: LineOfReasoning, claims: list[Claim],
                    item_base: int | None) -> None:
        """"Goal achieved." right after the line's last action (in its paragraph, or alone in the
        next one when the action ends its own): the goal is said to hold in the line's state (or,
        "doesn't reach the goal", not to); "after step 3, the goal is met" in the state after
        step 3 of the list. Not judged on a line that took an inapplicable step (its later states
        rest on the model's error), nor in a condition ("if we stack red, the goal is met") or a
        hedge."""
        m = P.GOAL_CLAIM.search(text, s0, s1)
        if (m is None or not line.actions or line.broken is not None or m.start() - line.last > ANCHORED
                or not _same_talk(text, line.last, m.start())
                or P.COND.search(text, s0, m.start()) or P.HEDGE.search(text, s0, s1) or P.GOAL_MEANS.match(text, m.end(), s1)):
            return
        negative = bool(m.group("neg1") or m.group("neg2") or m.group("neg3") or m.group("neg4"))
        actions, state = line.actions, line.state
        step_k = P.AFTER_STEP.search(text, s0, m.start())
        if step_k is not None:
            keep = (item_base or 0) + int(step_k.group(1))
            if item_base is None or not 0 < keep <= len(line.actions):
                return
            actions, state = line.actions[:keep], line.states[keep]
        unmet = unmet_goals(self.task.problem, state)
        holds = bool(unmet) if negative else not unmet
        where = f"after {', '.join(a.text() for a in actions)}"
        if holds:
            msg = f"the goal {'does not hold' if negative else 'holds'} {where}: right"
        elif negative:
            msg = f"says the goal does not hold {where}, but it does"
        else:
            missing = ", ".join(_literals(unmet))
            msg = f"says the goal holds {where}, but {missing} {'does' if len(unmet) == 1 else 'do'} not"
        claims.append(Claim("goal", m.span(), m.group(), holds, msg, line.id, negative=negative,
                            state=sorted(map(_atom, state)), after=actions[-1].text()))

    def _plan_verdict(self, text: str, verdict: tuple[int, int, bool, str], line: LineOfReasoning,
                      claims: list[Claim], item_base: int | None,
                      last_item: tuple[int, list[GroundAction]] | None) -> None:
        """"Yes, that works." right after a walk through a plan that no candidate holds (steps in
        prose, or items with prose between them, thinking.py): the plan is the line's actions from
        the initial state, said to reach the goal. Judged only when the line is sure to hold the
        whole plan: two actions or more, all read (no action named without its objects since the
        line began, "then stack on red"), as many as the list's last item number when it came
        from a list, and the verdict close after its last action, in its paragraph or the next.
        "This doesn't work" is not judged: said of part of a plan it often means the part does
        not do what was wanted (dev be9643..., annotated false where the steps work)."""
        start, end, says_pass, words = verdict
        if "goal" in words.lower():
            return  # "Now the first goal is met": a goal claim, judged as such (`_goal_claim`)
        if (not says_pass or not line.known or len(line.actions) < 2 or line.unread_at >= line.start
                or start - line.last > ANCHORED or text.count("\n\n", line.last, start) > 1
                or P.COND.search(text, line.last, start)):
            return  # (the verdict may open the paragraph after the last step's own check)
        if line.listed and (item_base is None or last_item is None or item_base + last_item[0] != len(line.actions)):
            return  # the list's numbering and the line disagree: a step we did not read, or one read twice
        plan = ", ".join(a.text() for a in line.actions)
        unmet = unmet_goals(self.task.problem, line.state)
        if line.broken is not None:
            bad = line.actions[line.broken]
            missing = _literals(unmet_preconditions(bad, line.states[line.broken]))
            msg = (f"says the plan ({plan}) works, but step {line.broken + 1}, {bad.text()}, cannot be done: "
                   f"{', '.join(missing)} {'does' if len(missing) == 1 else 'do'} not hold")
        elif unmet:
            missing = _literals(unmet)
            msg = f"says the plan ({plan}) works, but it ends without the goal: {', '.join(missing)}"
        else:
            msg = f"the plan ({plan}) reaches the goal: right"
        claims.append(Claim("plan_verdict", (start, end), words, line.broken is None and not unmet, msg, line.id,
                            state=sorted(map(_atom, line.state)), after=line.actions[-1].text()))

    def _unread_action(self, text: str, lo: int, hi: int, mentions: list) -> bool:
        """Does a clause do something with an action verb we could not read ("Then put blue
        down on the table")? Then the line may have moved without us: its state is no longer
        known, and nothing is judged against it until a restart."""
        for m in self._moves.finditer(text, lo, hi):
            if not any(a0 <= m.start() < a1 for a0, a1, g, _ in mentions) \
                    and not P.COND.search(text[max(lo, m.start() - 40):m.start()]) \
                    and not P.PLANNED.search(text, max(lo, m.start() - 30), m.start()):
                return True
        for m in self._verbs.finditer(text, lo, hi):
            if any(a0 <= m.start() < a1 for a0, a1, g, _ in mentions):
                continue  # read (or, unresolved, handled as an unnamed action by `read`)
            follow = text[m.end():min(hi, m.end() + 30)]
            if P.SCHEMA_TALK.match(follow):
                continue  # "Succumbing requires Pain": talk about the action, not a step
            if m.group().lower().endswith("ing") and P.TIME_BEFORE.search(text, max(lo, m.start() - 12), m.start()):
                continue  # "After stacking, hand is empty.", "When unstacking red, ...": the step talked about, recalled
            base = self._gerund_base.get(m.group().lower())
            if base is not None and self._grounded(base + text[m.end():self._words_end(text, m.end(), hi)]) is not None:
                continue  # "after stacking red on blue", left out of the mentions as a recall: read (the
                # line was lost at each such recall: a third of the unjudged claims of 0b504e..., da4c27...)
            if self._verb_object.match(follow) \
                    and not P.COND.search(text[max(lo, m.start() - 40):m.start()]):
                return True
            head = text[max(lo, m.start() - 40):m.start()]
            clause = P.CLAUSE_LEAD.sub("", P.CLAUSE_SPLIT.split(head)[-1])
            if P.filler_only(clause) and not P.COND.search(clause):
                return True
        return False

    @staticmethod
    def _stamp(claims: list[Claim], lines: list[LineOfReasoning]) -> None:
        for c in reversed(claims):
            if c.line_actions is not None:
                break
            c.line_actions = tuple(a.text() for a in lines[c.line].actions)

    def _charitable(self, lines: list[LineOfReasoning], line_at: list[tuple[int, int]], line: LineOfReasoning,
                    ground: GroundAction, pos: int) -> LineOfReasoning:
        """A performed action that the line's state does not allow but an earlier state of the
        same line does: the model went back to that state without saying so (re-reading the
        trace as a person would); the line forks there. Otherwise the line stays, and the
        action is judged where it stands."""
        for keep in range(len(line.actions) - 1, -1, -1):
            if not unmet_preconditions(ground, line.states[keep]):
                return self._fork(lines, line_at, line, keep, pos)
        return line

    def _fork(self, lines: list[LineOfReasoning], line_at: list[tuple[int, int]], line: LineOfReasoning,
              keep: int, pos: int) -> LineOfReasoning:
        known = line.known_at(keep)  # "2. Stack blue on red" after an unread "pick it up": the state before it is known
        new = LineOfReasoning(len(lines), pos, line.actions[:keep], line.states[:keep + 1], known,
                              broken=line.broken if line.broken is not None and line.broken < keep else None,
                              known_upto=None if known else line.known_upto)
        new.last = pos
        new.listed, new.unread_at = line.listed, line.unread_at
        lines.append(new)
        line_at.append((pos, new.id))
        return new

    def _judge_sentence(self, text: str, facts_index: FactIndex, s0: int, s1: int, body_at: int, frame: _Frame | None,
                        line: LineOfReasoning, claims: list[Claim], mentions: list,
                        lead: tuple[str, int | None] | None = None, recalls_initial: bool = False,
                        sentence: str | None = None) -> bool:
        """Judges the sentence's claims; True when it took back the frame's action (the model
        found it could not be done). `sentence`: text[s0:s1] if the caller has it (the word gates
        keep the lower case of the last string they were given)."""
        facts = self.facts.find(text, body_at, s1, facts_index)
        if not facts and frame is None:
            return False
        undone = False
        if sentence is None:
            sentence = text[s0:s1]
        fresh_frame = frame is not None and frame.span[0] >= s0 - FRESH
        question_frame = (frame is not None and frame.sentence_end is not None and frame.span[0] < s0
                          and _ends_with(text, frame.sentence_end, "?") and _blank(text, frame.sentence_end, s0))
        if frame is not None and fresh_frame and any(f.exclusive or (f.negated and f.atom[-1] != "*") for f in facts):
            frame.reason_given = True  # "Province is b." / "Province a is not present." before the "Can't."
        if (frame is not None and fresh_frame and frame.item and frame.req_at is not None and frame.pre is not None
                and frame.span[0] < s0 and facts and P.BARE_HEAD.fullmatch(text, body_at, facts[0].span[0])
                and not P.says_no(sentence)):
            # "2. Feast b from c (requires Province b, Harmony). Harmony is gone.": a need just listed,
            # found missing in a sentence of its own, in so many words of the state (not "removed",
            # an effect): the model finding the step impossible, as if it said "can't" (review 7,
            # aad2a0...: it was flagged as presented doable, and "Harmony is gone" read as an effect).
            # "But Province c is not present." is a rejection already (says_no, below).
            needs = {lit.atom for lit in frame.action.pre if lit.positive}
            first = facts[0]
            if (not frame.rejected and first.negated and first.atom in needs and first.atom not in frame.pre
                    and P.NEED_GONE.match(text, first.span[1], s1)):
                frame.rejected = True
                undone = frame.performed and bool(line.actions) and line.actions[-1] is frame.action
                if undone:
                    self._undo(frame, line)
                if not frame.negative_judged and not frame.context:
                    self._applicability(text, frame, claims, (frame.forked_from or line) if undone else line,
                                        negative=True, at=(s0, s1), doubted=False)
                    frame.negative_judged = True
                return undone
        if frame is not None and fresh_frame:
            for f in facts:
                if f.exclusive and not P.STATE.search(text[s0:f.span[0]]) and not P.AFTER_STEP.search(text[s0:f.span[0]]):
                    frame.exclusives.append(f)  # "Province is b" as it stands before the action
        if frame is not None and fresh_frame:
            if P.says_no(sentence) and not P.RETRACT_HEAD.match(sentence) and not P.NOT_HELPFUL.search(sentence) and not (
                    frame.span[0] >= s0 and P.MEANS_BEFORE.search(text, max(s0, frame.span[0] - 12), frame.span[0])):
                # (not "once you create a craves c via Overcome a from c, you can't get rid of c craves
                # a": the action named as the means, the "can't" about a fact; review 7, 371a25...)
                frame.rejected = True
                near = frame.span[0] >= s0 or _same_talk(text, frame.span[1], s0)
                judged_in = line
                if (frame.performed and near and P.CANT.search(sentence) and line.actions
                        and line.actions[-1] is frame.action):
                    self._undo(frame, line)
                    undone = True
                    judged_in = frame.forked_from or line
                # A rejection is an assertion even of an action only tried ("Step 3: try to Feast a
                # from c ... So can't do it"), unless the rejection itself is hedged or conditional.
                doubted = frame.cond or bool(P.HEDGE.search(P.PAREN.sub(" ", sentence))) or (frame.span[0] >= s0 and frame.hedged)
                if frame.pre is not None and not doubted and P.CANT.search(sentence):
                    self._implied_denials(text, frame, frame.exclusives, judged_in, claims)
                if near and not frame.negative_judged and not frame.context and P.CANT.search(sentence) and (
                        P.REQ.search(sentence) or any(f.negated or f.exclusive for f in facts) or frame.span[0] >= s0
                        or P.STEP_REF.search(sentence) or frame.reason_given):
                    self._applicability(text, frame, claims, judged_in, negative=True, at=(s0, s1), doubted=doubted)
                    frame.negative_judged = True
            elif (question_frame and P.BECAUSE_HEAD.match(sentence) and not frame.verdict_said
                  and self._reasons_given(frame, facts)):
                frame.verdict_said = True  # "So, Attack b? Because Province b is true, Planet c is there, ..."
                frame.verdict_at = (s0, s1)
            elif (not frame.verdict_said
                  and (frame.span[0] >= s0 or (frame.sentence_end is not None and not text[frame.sentence_end:s0].strip()
                                               and ((P.YES_HEAD.match(text[body_at:s1]) and not P.YES_ABOUT.match(text, body_at, s1))
                                                    or P.REQ.search(sentence) or P.STRONG_YES.search(sentence))))
                  and P.YES.search(sentence)):  # the costliest test last
                frame.positive_talk = True
                frame.verdict_said = True
                frame.verdict_at = (s0, s1)
                frame.initial = bool(P.INITIAL.search(sentence))
        if not facts:
            return undone
        initial: bool | None = recalls_initial or None  # "in the initial state": read when a state claim needs it
        if frame is not None and fresh_frame and frame.performed and line.actions[-1:] == [frame.action]:
            undone = self._undo_if_unmet(text, s0, s1, body_at, frame, facts, line) or undone
        in_sentence = [m for m in mentions if m[2] is not None]
        if self._after_earlier(text, body_at, s1, frame if fresh_frame else None, line, in_sentence):
            if P.STATE.search(text, body_at, s1):
                # "After the initial Attack and Succumb, we have Province a, ...": the model goes back
                # to a state we cannot pin down; what follows is not judged against the line we kept
                # (independent review, aad2...: a rejection judged on the abandoned walk-through)
                line.lose()
            return undone
        effect_lead: bool | None = None  # "Effects: ...", read when a fact needs it
        bare_ok: bool | None = None  # may a fact with no cue be a claim about the state now (_bare_state_sentence)
        listed_kind: str | None = None  # what a "Attack a: Province b, ..." listing gives, read when one is found
        tail_word_at = P.last_tail_word(text, s0, s1)
        for f in facts:
            own = frame is not None and frame.span[0] >= s0
            cue_from = frame.span[1] if own and frame.span[1] <= f.span[0] else body_at
            cue_text = text[cue_from:f.span[0]]
            tail_may = tail_word_at >= f.span[1]
            kind = self._cue(cue_text, text[f.span[1]:s1], f, fresh_frame, lead[0] if lead else None, tail_may)
            if kind == "listed" and own and frame.context and P.STATE.search(text, body_at, frame.span[0]):
                kind = "post"  # "in the current state after Feast b from c: ...": a recap of the state (review flag 2)
            elif kind == "listed":
                if listed_kind is None and frame is not None:
                    listed_kind = self._listing_kind(frame, facts) or ""
                kind = listed_kind or None
            elif kind == "del" and f.atom[-1] == "*" and (P.IS_GONE.match(text, f.span[1]) or not (
                    frame is not None and fresh_frame and any(a[0] == f.atom[0] for a in frame.action.delete))):
                kind = "state"  # "Province is gone": no Province at all now (unlike "Pain removed", an effect)
            elif kind == "post" and (P.YES.search(text, f.span[1], s1) or P.YES_HEAD.match(text[s1:s1 + 40])):
                kind = "req"  # "Attack a → Province a, Planet a, Harmony. Yes.": what it needs, checked
            if kind is None:
                if bare_ok is None:
                    bare_ok = self._bare_state_sentence(text, s0, s1, body_at, frame, line, mentions, sentence)
                if bare_ok and f is facts[0] and P.BARE_HEAD.fullmatch(text, body_at, f.span[0]) and P.IS_WORD.search(text, *f.span):
                    self._bare_state(text, f, line, claims)
                continue
            if kind != "state" and frame is not None and frame.context and frame.span[0] < s0 and not (
                    frame.sentence_end is not None and _ends_with(text, frame.sentence_end, ":")):
                # An action named as the cause or time of a state ("Because Feast b from c removes
                # Province(b), ...", "Both are true after Attack a.") is not the one whose needs and
                # effects the next sentences list ("Post: Adds Harmony, ..."): that is the action
                # under discussion, which we may not have read (independent review, 6d91..., 1d43...).
                # A heading ("After Feast a from b:") does introduce what follows.
                continue
            if not f.negated and not f.tagged and P.MIXED_NEG.search(text[body_at:f.span[0]]):
                continue
            if not f.tagged and text.count("(", body_at, f.span[0]) > text.count(")", body_at, f.span[0]):
                inside = text[text.rfind("(", body_at, f.span[0]) + 1:f.span[0]]
                own_cue = self._cue(inside, text[f.span[1]:s1], f, fresh_frame, None, tail_may)
                if own_cue not in ("add", "del", "req") or own_cue != kind:
                    continue  # an aside in parentheses, unless it says what the action does or needs
            if kind == "req":
                if frame is not None and fresh_frame:
                    if not f.negated and "?" not in sentence:  # "requires Province b, Planet (which one?)" asks
                        frame.positive_talk = True
                    else:
                        frame.reason_given = True
                    if frame.req_at is None and (f.tagged or f.atom in {l.atom for l in frame.action.pre}):
                        frame.req_at = (s0, s1)
                if not f.tagged or frame is None or frame.pre is None or not fresh_frame:
                    if f.tagged and frame is not None and fresh_frame:
                        self._unjudged(claims, "applicability", text, f.span, line, "its line of reasoning was lost")
                    continue
                if line.broken is not None and line.broken < len(line.actions) - (1 if frame.performed else 0):
                    continue  # downstream of the line's first inapplicable step (dev annotation policy)
                holds = self._fact_holds(f, frame.pre)
                reasoned = f.negated and any(
                    g.exclusive and g.atom[0] == f.atom[0] and g.atom in frame.pre and f.span[1] <= g.span[0] <= f.span[1] + 40
                    for g in facts)  # "Province a (no, Province is b)": the model's reading of this very state
                if not holds and not reasoned and self._true_elsewhere(line, f.atom, f.negated):
                    self._unjudged(claims, "applicability", text, f.span, line, "another state of its line makes it true")
                    continue
                claims.append(self._fact_claim("applicability", text, f, holds, frame.pre, line,
                                               f"before {frame.action.text()}"))
            elif kind in ("add", "del"):
                if frame is None or not fresh_frame or f.atom[-1] == "*" or frame.guess:
                    continue  # "Feast a from c would generate Pain c" still claims what Feast does
                if P.IN_IF_CLAUSE.search(text, max(body_at, f.span[0] - 80), f.span[0]) or P.IF_EFFECT.match(text, body_at, s1):
                    continue
                between = text[frame.span[1]:f.span[0]]
                passive = f.verb in ("add", "del") and ("\n\n" not in between or not text[frame.span[1]:s0].strip(" \t\n:"))
                if effect_lead is None:
                    effect_lead = (P.EFFECT_LEAD.admits(lowered_last(sentence)) and bool(P.EFFECT_LEAD.match(text[body_at:s1]))) or (
                        # "1. Unstack blue from red. Unstacking blue leaves red covered.": the action
                        # just named, in fewer words, leads the sentence
                        not in_sentence and self._names_frame_briefly(text, body_at, s1, mentions, frame.action))
                if not (any(m[1] <= f.span[0] for m in in_sentence) or effect_lead or lead or passive):
                    continue
                if not in_sentence and P.STEP_REF.search(sentence):
                    continue
                if frame.item and frame.performed and not frame.hedged and not f.negated:
                    frame.positive_talk = True  # a walk-through item saying what the action does
                    frame.talk_at = frame.talk_at or (s0, s1)
                act = frame.action
                post = apply(act, frame.pre) if frame.pre is not None else None
                nearest = [m[2] for m in in_sentence if m[1] <= f.span[0]]
                if nearest and nearest[-1] != act:
                    # "after Overcome a from c, Harmony is added back": the effect is the named action's
                    act, post = nearest[-1], None
                agent = P.BY_AGENT.match(text, f.span[1], s1)
                if agent and not act.name.lower().replace("-", "").startswith(agent.group(1).lower()[:4]):
                    continue  # "Harmony is removed by Feast, but after Succumb b, ...": Feast's effect (review, e338...)
                kept = (kind == "add" and not f.negated and f.verb is None and P.KEEP_VERB.search(cue_text)
                        and P.LEFT_ALONE.match(text, f.span[1], s1))
                if kept or (kind == "del" and f.negated and f.verb is None and not f.tagged):
                    # "Attack a removes Planet a, not Planet b": Planet b is said to stay (independent
                    # review, 1d43...: it was read as a claim that Attack a removes Planet b); so is
                    # Harmony in "Attack c leaves Harmony untouched" (sixth planted set, P24/P36:
                    # read as "adds Harmony")
                    holds = f.atom not in act.delete
                    said = f"leaves {self._named(f.atom)} untouched" if kept else f"does not remove {self._named(f.atom)}"
                    claims.append(Claim("effect", f.span, text[f.span[0]:f.span[1]], holds, (
                        f"{act.text()} does not remove {_atom(f.atom)}" if holds else
                        f"says {act.text()} {said}, but it removes "
                        f"{', '.join(map(_atom, sorted(act.delete)))}"), line.id, atom=f.atom, after=act.text()))
                elif kind == "add" and not f.negated:
                    # a fact that holds after the action is no false effect in a list of what follows
                    # it ("Feast b from c -> Pain b, Province c"), but one said to be added is
                    # ("After Succumb a, Province a, Planet c, Harmony are added back", aad2a0...)
                    said_added = f.verb == "add" or ((tail := P.TAIL.match(text[f.span[1]:s1])) is not None
                                                     and tail.group("word") in ("added", "created")) or bool(P.ADD_VERB.search(cue_text))
                    holds = f.atom in act.add or (post is not None and f.atom in post and not said_added)
                    claims.append(Claim("effect", f.span, text[f.span[0]:f.span[1]], holds, (
                        f"{act.text()} adds {_atom(f.atom)}" if holds else
                        f"{act.text()} does not add {self._named(f.atom)}; it adds "
                        f"{', '.join(map(_atom, sorted(act.add))) or 'nothing'}"), line.id, atom=f.atom, after=act.text()))
                else:
                    if (kind == "del" and f.verb is None and f.atom in act.add and f.atom not in act.delete
                            and not P.DEL.search(cue_text)):
                        # "Pain a, Province a and Planet a are removed": the list's first item is what
                        # it adds; "Succumb c removes Harmony" says it outright (planted-claims test),
                        # and so does "Unstacking blue leaves red covered" (a result said not to hold)
                        continue
                    holds = f.atom in act.delete or (post is not None and f.atom not in post and f.atom[0] not in {a[0] for a in act.delete})
                    claims.append(Claim("effect", f.span, text[f.span[0]:f.span[1]], holds, (
                        f"{act.text()} removes {_atom(f.atom)}" if holds else
                        f"{act.text()} does not remove {self._named(f.atom)}; it removes "
                        f"{', '.join(map(_atom, sorted(act.delete))) or 'nothing'}"), line.id, negative=True,
                        atom=f.atom, after=act.text()))
            elif kind == "post":
                if frame is not None and fresh_frame and not frame.hedged and self._wrong_result(frame, f):
                    # "Feast a from c → Pain c, Province c": Feast a from c gives Pain a, not Pain c
                    act = frame.action
                    claims.append(Claim("effect", f.span, text[f.span[0]:f.span[1]], False, (
                        f"{act.text()} does not give {self._named(f.atom)}; it adds "
                        f"{', '.join(map(_atom, sorted(act.add))) or 'nothing'}"), line.id, atom=f.atom, after=act.text()))
                    continue
                if frame is None or not (frame.performed or frame.context) or not line.known or line.actions[-1:] != [frame.action]:
                    continue
                if frame.item and not frame.hedged and not f.negated:
                    frame.positive_talk = True
                    frame.talk_at = frame.talk_at or (s0, s1)
                if DOWNSTREAM_STATES is False and line.broken is not None:
                    continue
                where = f"after {', '.join(a.text() for a in line.actions)}"
                holds = self._fact_holds(f, line.state)
                claims.append(self._fact_claim("state", text, f, holds, line.state, line, where))
                claims[-1].after = line.actions[-1].text()
            elif kind == "state":
                if P.COND.search(text[body_at:f.span[0]]) or P.GOAL_BEFORE.search(text, max(body_at, f.span[0] - 40), f.span[0]):
                    continue  # "if we have Province c": a condition; "to get b craves a": a goal; neither is a claim
                step_k = P.AFTER_STEP.search(text[s0:f.span[0]]) or P.AFTER_STEP.search(text, f.span[1], s1)
                k = int(step_k.group(1)) if step_k else (lead[1] if lead else None)
                pos = step_k.end() if step_k else 0
                while step_k and (more := P.AND_STEP.match(step_k.string, pos)):
                    k, pos = int(more.group(1)), more.end()  # "after step 1 (Feast b from a) and step 2 (...)"

                if initial is None:
                    initial = bool(P.INITIAL.search(sentence))
                if initial:
                    state, where = self.init, "in the initial state"
                elif k is not None:
                    if not line.known or len(line.states) <= k:
                        if not line.known:
                            self._unjudged(claims, "state", text, f.span, line, "its line of reasoning was lost")
                        continue
                    state, where = line.states[k], f"after step {k} ({', '.join(a.text() for a in line.actions[:k])})"
                elif (line.known and line.actions and f.span[0] - line.last <= FRESH
                      and not (frame and frame.span[0] >= s0)):
                    state = line.state
                    where = (f"after {', '.join(a.text() for a in line.actions)}" if line.actions
                             else "in the initial state")
                else:
                    if not line.known:
                        self._unjudged(claims, "state", text, f.span, line, "its line of reasoning was lost")
                    continue
                if DOWNSTREAM_STATES is False and not initial and k is None and line.broken is not None:
                    continue
                if f.atom[-1] == "*" and not initial and line.broken is not None and (k is None or line.broken < k):
                    continue  # "Province is gone" after an inapplicable step: it rests on a state the model already got wrong
                if DOWNSTREAM_STATES is False and k is not None and not initial and line.broken is not None and line.broken < k:
                    continue
                if k is None and P.IN_STEP.search(text, f.span[1], s1):
                    continue  # "c→a was removed in step 4": a step of some plan, not this line
                holds = self._fact_holds(f, state)
                others = sorted(a for a in state if a[0] == f.atom[0] and a != f.atom) if f.exclusive else []
                if f.exclusive and others:
                    # "Province is b" while Province a also holds: judged through the rejection it
                    # supports (a wrong "can't"), not on its own (thinking-claims dev notes).
                    continue
                if not holds and not initial and self._true_elsewhere(line, f.atom, f.negated) and not (
                        state is line.state and self._anchored(text, line, s0, f.span[0], s1)):
                    self._unjudged(claims, "state", text, f.span, line, "another state of its line makes it true")
                    continue
                claims.append(self._fact_claim("state", text, f, holds, state, line, where))
                if state is line.state and line.actions:
                    claims[-1].after = line.actions[-1].text()
        return undone

    @staticmethod
    def _bare_state_sentence(text: str, s0: int, s1: int, body_at: int, frame: _Frame | None, line: LineOfReasoning,
                             mentions: list, sentence: str) -> bool:
        """Is the sentence a plain statement of the state right after the line's last action, in
        its walk-through ("1. Unstack blue from red. Blue is on the table.")? It names no action,
        asks nothing, supposes nothing and speaks of no goal, and follows the action closely in
        its paragraph. Such a fact may still be the next step's precondition, true before the
        action: `_bare_state` judges it false only when it holds neither before nor after."""
        return (frame is not None and frame.performed and not frame.hedged and frame.span[0] < s0 and not mentions
                and line.known and line.broken is None and len(line.actions) >= 1 and line.actions[-1] == frame.action
                and s0 - line.last <= ANCHORED and text.find("\n\n", line.last, s0) < 0
                and not sentence.rstrip().endswith("?") and not P.BARE_NOT.search(sentence))

    def _bare_state(self, text: str, f: FactMention, line: LineOfReasoning, claims: list[Claim]) -> None:
        after, before = line.state, line.states[-2]
        where = f"after {', '.join(a.text() for a in line.actions)}"
        if self._fact_holds(f, after):
            claims.append(self._fact_claim("state", text, f, True, after, line, where))
        elif not self._fact_holds(f, before):
            claims.append(self._fact_claim("state", text, f, False, after, line, where))
            claims[-1].message += f"; nor did it before {line.actions[-1].text()}"
        else:
            return  # it held before the action: it may be said of then, as its precondition (not counted as a claim)
        claims[-1].after = line.actions[-1].text()

    @staticmethod
    def _after_earlier(text: str, body_at: int, s1: int, frame: _Frame | None, line: LineOfReasoning,
                       in_sentence: list) -> bool:
        """"Stack blue on orange: need orange to be clear. After putting red down, orange is
        clear.": the second sentence speaks of the state after an earlier action (one we may
        not have read), neither of what the stack does nor of the state it leaves. Its facts are
        not judged. A clause naming the action under discussion ("After stacking, ...", "After
        performing, ...") and a sentence naming an action we read ("after Feast b from c") are
        judged as before."""
        if in_sentence:
            return False
        m = P.AFTER_CLAUSE.match(text, body_at, s1)
        if m is None:
            return False
        what = m.group("what")
        if P.THIS_ONE.fullmatch(what):
            return False
        if P.EARLIER_STEPS.search(what):
            return True  # "After the initial Attack and Succumb, ...": the first steps, not the last one
        current = frame.label if frame is not None else line.actions[-1].name if line.actions else ""
        verb = current.split()[0].split("-")[0].lower()[:4] if current.split() else ""
        return not (verb and re.search(rf"\b{re.escape(verb)}", what, re.I))

    def _unnamed_doable(self, text: str, s0: int, s1: int, unnamed: tuple[str, int], line: LineOfReasoning,
                        claims: list[Claim], question: bool) -> bool:
        """"1. Attack: requires Province b, Planet a, Harmony. Yes." says that Attack can be done on
        some object. That is judged soundly without knowing which: it is false exactly when no
        grounding of the action is applicable in the line's state. Returns True once judged."""
        sentence = text[s0:s1]
        verb, _ = unnamed
        said = P.YES.search(sentence) or P.STRONG_YES.search(sentence) or P.WE_HAVE.match(sentence) or re.match(
            rf"\W*(?:so,?\s+)?(?:perform|do|apply)\s+(?:the\s+)?{re.escape(verb)}\b", sentence, re.I)
        if (not said or question or P.COND.search(sentence) or P.HEDGE.search(P.PAREN.sub(" ", sentence))
                or P.HYPOTHESIS.search(text, max(0, unnamed[1] - 200), s1)):
            return False  # "Let me test this with the initial state. So Attack is possible": a hypothesis
        if P.INITIAL.search(text, unnamed[1], s1):
            state = self.init
        elif line.known:
            state = line.state
        else:
            return True
        schemas = [a for a in self.task.domain.actions if a.lower().replace("-", "").startswith(verb[:4])]
        if len(schemas) != 1:
            return True
        schema = self.task.domain.actions[schemas[0]]
        objects = sorted(self.task.objects)
        misses = []
        for args in itertools.product(objects, repeat=len(schema.params)):
            ground = self.task.ground(schema.name, args)
            unmet = unmet_preconditions(ground, state)
            if not unmet:
                return True
            misses.append((len(unmet), ground, unmet))
        misses.sort(key=lambda m: m[0])
        detail = "; ".join(f"{g.text()} lacks {', '.join(_atom(l.atom) for l in unmet)}" for _, g, unmet in misses[:3])
        claims.append(Claim("applicability", _trimmed(text, s0, s1), sentence.strip(), False,
                            f"presents {schema.name} as doable, but no object satisfies its preconditions here ({detail})",
                            line.id, state=sorted(map(_atom, state))))
        return True

    @staticmethod
    def _reasons_given(frame: _Frame, facts: list[FactMention]) -> bool:
        """Do the facts read as the action's needs, all said to hold (at least two of them)?"""
        preds = {l.atom[0] for l in frame.action.pre if l.positive}
        return len(facts) >= 2 and all(not f.negated and f.atom[0] in preds for f in facts)

    @staticmethod
    def _wrong_result(frame: _Frame, f: FactMention) -> bool:
        """Is a fact listed as what an action leads to an effect it does not have? Only when the
        action adds that predicate for other arguments and the fact did not already hold before
        it (or, where the state is unknown, names only the action's own objects): a fact that
        merely persists is not an effect claim."""
        atom = f.atom
        act = frame.action
        if f.negated or atom[-1] == "*" or atom in act.add or not any(a[0] == atom[0] for a in act.add):
            return False
        if frame.pre is not None:
            return atom not in frame.pre
        return set(atom[1:]) <= set(act.args)

    @staticmethod
    def _undo(frame: _Frame, line: LineOfReasoning) -> None:
        line.actions.pop()
        line.states.pop()
        if line.broken is not None and line.broken >= len(line.actions):
            line.broken = None
        frame.performed = False
        if frame.forked_from is not None:
            # We stepped back only to make room for this action; the model weighed it where it
            # stood, and its rejection is judged there.
            frame.pre = frame.forked_from.state if frame.forked_from.known else None

    def _undo_if_unmet(self, text: str, s0: int, s1: int, body_at: int, frame: _Frame, facts: list[FactMention],
                       line: LineOfReasoning) -> bool:
        """"Overcome b from a: Requires Province a (yes) and Pain b. Pain b doesn't exist.": the
        model names a need it finds missing, so it does not perform the action (no "can't" needed)."""
        if not (frame.req_at is not None or P.REQ.search(text, body_at, s1)):
            return False
        if frame.span[0] < s0 and not _same_talk(text, frame.span[1], s0):
            return False
        needs = {l.atom for l in frame.action.pre if l.positive}
        for f in facts:
            if (f.negated and f.atom in needs and f.span[0] > frame.span[1]
                    and (f.tagged or P.ABSENT_AFTER.match(text, f.span[1]))
                    and not any(p.search(text, body_at, f.span[0]) for p in (P.STATE, P.ADD, P.DEL))):
                self._undo(frame, line)
                return True
        return False

    @staticmethod
    def _listing_kind(frame: _Frame, facts: list[FactMention]) -> str | None:
        """"Succumb b: Province b, Planet b, Harmony." lists effects; "Attack a: Province b,
        Planet a, Harmony." lists preconditions: whichever the atoms match more of (in atoms or
        predicates), else it is not read."""
        atoms = [f.atom for f in facts if f.span[0] >= frame.span[1]]
        if not atoms:
            return None
        pre = {l.atom for l in frame.action.pre if l.positive}
        pre_preds = {a[0] for a in pre}
        add_preds = {a[0] for a in frame.action.add}
        score_pre = sum((a in pre) * 2 + (a[0] in pre_preds) for a in atoms)
        score_add = sum((a in frame.action.add) * 2 + (a[0] in add_preds) for a in atoms)
        if score_pre > score_add:
            return "req"
        if score_add > score_pre:
            return "add"
        return None

    def _cue(self, before: str, after: str, f: FactMention, fresh_frame: bool, lead: str | None,
             tail_may: bool = True) -> str | None:
        """What kind of assertion a fact mention is part of: a passive verb right after a list
        ("Province b and Planet c are removed"), else the nearest cue before it in its sentence
        (parenthetical remarks set aside); a bare yes/no-tagged fact next to an action is one of
        its preconditions. `tail_may`: False when `after` holds none of TAIL's closing words."""
        if f.verb == "state":
            return "state"  # its own verb: "so only c→a remains", "Planet c was removed earlier"
        tail = P.TAIL.match(after) if tail_may else None  # anchored: one try, cheaper than its word gate; the gate kept as a condition
        if tail is not None and not P.TAIL_WORDS.search(after):
            tail = None
        if tail and not f.tagged:
            word = tail.group("word")
            if word in ("removed", "deleted", "gone", "false"):
                return "del"
            return "state" if word == "present" or (word == "true" and not tail.group("become")) else "add"
        if f.verb in ("add", "del") and fresh_frame:
            # "Now Planet b is gone.": a fact of the state now, not what the last action did (the
            # effect reading judges only effects said with the action; planted-claims test)
            return "state" if f.verb == "del" and P.NOW_LEAD.match(before) else f.verb
        if "(" in before:
            before = P.PAREN.sub(" ", before)
        if f.tagged and not P.LETTER.search(before.strip(" :,-")):
            return lead or ("req" if fresh_frame else "state")
        if (P.ARROW_LIST.match(before) and not f.tagged and f.verb is None
                and not any(p.search(before) for p in (P.REQ, P.ADD, P.DEL, P.STATE))):
            return "post"  # "Feast b from c → Pain c, Province a and c": the state it leads to
        if (P.COLON_LIST.match(before) and not f.tagged and f.verb is None
                and not any(p.search(before) for p in (P.REQ, P.ADD, P.DEL, P.STATE))):
            return "listed"  # "Attack a: Province b, Planet a, Harmony.": what it uses, or what it gives
        best: tuple[int, str] | None = None
        goal_at = -1
        low = lowered(before)
        for kind, pattern in _CUES:
            if not pattern.admits(low):
                continue
            for m in pattern.pattern_.finditer(before):
                if kind == "add" and P.GOAL_TO.search(before, 0, m.start()) \
                        and not P.PURPOSE_TO.fullmatch(before, 0, m.start()):
                    if P.GOAL_LEAD.search(before, 0, m.start()):
                        goal_at = max(goal_at, m.start())
                    continue  # "we need to create Pain a" is a goal; "Feast b from c to generate Pain c" is not
                if best is None or m.start() >= best[0]:
                    best = (m.start(), kind)
        if best is not None and best[1] == "state" and goal_at > best[0]:
            return None  # "Now, to create c craves a, ...": what is wanted, not what holds
        if best is None and lead is not None:
            return lead
        if best is None and (f.exclusive or f.verb == "state"):
            return "state"
        if best is None and f.tagged:
            return "req" if fresh_frame else "state"
        return best[1] if best else None

    @staticmethod
    def _fact_holds(f: FactMention, state: frozenset[Atom]) -> bool:
        if f.atom[-1] == "*":
            return any(a[0] == f.atom[0] for a in state) != f.negated
        return (f.atom in state) != f.negated

    def _fact_claim(self, kind: str, text: str, f: FactMention, holds: bool, state: frozenset[Atom],
                    line: LineOfReasoning, where: str) -> Claim:
        if f.atom[-1] == "*":
            some = sorted(a for a in state if a[0] == f.atom[0])
            msg = (f"no {f.atom[0]} {where}: right" if holds else
                   f"says no {f.atom[0]} holds {where}, but {', '.join(map(_atom, some))} "
                   f"{'holds' if len(some) == 1 else 'hold'}" + (self._why(some[0], line, state) if some else ""))
            return Claim(kind, f.span, text[f.span[0]:f.span[1]], holds, msg, line.id, negative=True,
                         state=sorted(map(_atom, state)))
        said = "does not hold" if f.negated else "holds"
        truth = "holds" if f.atom in state else "does not hold"
        msg = (f"{_atom(f.atom)} {said} {where}: right" if holds else
               f"says {self._named(f.atom)} {said} {where}, but it {truth}"
               + self._why(f.atom, line, state))
        return Claim(kind, f.span, text[f.span[0]:f.span[1]], holds, msg, line.id, negative=f.negated,
                     state=sorted(map(_atom, state)), atom=f.atom)

    def _why(self, atom: Atom, line: LineOfReasoning, state: frozenset[Atom] | None = None) -> str:
        """Which action of the line last changed the atom before the state the claim is judged in
        (the action that made the claim false): for a claim judged before an action, the
        action itself is not a cause."""
        upto = len(line.actions)
        if state is not None:
            upto = next((k for k in range(len(line.states) - 1, -1, -1) if line.states[k] is state), upto)
        for act, before in zip(reversed(line.actions[:upto]), reversed(line.states[:upto])):
            if atom in act.delete and atom in before:
                return f" ({act.text()} removed it)"
            if atom in act.add and atom not in before:
                return f" ({act.text()} added it)"
        if upto:
            return " (no action of the line changed it)"
        return ""

    def _implied_denials(self, text: str, frame: _Frame, facts: list[FactMention], line: LineOfReasoning,
                         claims: list[Claim]) -> None:
        """"Feast a from c requires Province a ... Province is b." denies Province a: the model
        reads Province as held by one object. Judged only as the reason of a rejection: when a
        reason it gives is right (another need really fails), the rejection stands and nothing
        is flagged (dev notes: "cites both 'Province is b' and the correct 'Planet is b'")."""
        if line.broken is not None and line.broken < len(line.actions) - (1 if frame.performed else 0):
            return
        needs = [l.atom for l in frame.action.pre if l.positive]
        implied = []
        for f in facts:
            if not f.exclusive or f.negated:
                continue
            for atom in needs:
                if atom[0] == f.atom[0] and atom != f.atom and len(atom) == 2:
                    implied.append((f, atom))
        if not implied or frame.denials_judged:
            return
        frame.denials_judged = True
        if any(a not in frame.pre for _, a in implied):
            return
        f, atom = implied[0]
        claims.append(Claim("applicability", f.span, text[f.span[0]:f.span[1]], False,
                            f"\"{text[f.span[0]:f.span[1]]}\" denies {self._named(atom)}, which "
                            f"{frame.action.text()} needs, but it holds here" + self._why(atom, line, frame.pre),
                            line.id, negative=True, state=sorted(map(_atom, frame.pre))))

    @staticmethod
    def _anchored(text: str, line: LineOfReasoning, s0: int, pos: int, s1: int | None = None) -> bool:
        """Is a state claim at `pos` said of the state the line's last action left: close after it,
        in its paragraph, and led by "now" or "after that" ("2. Stack blue on red. Now red is
        clear.")? Then another state of the line making it true is no excuse. CHARITABLE stays for
        the rest: a claim further off may follow a step we did not read, and one next to the
        action without such a word is often its precondition ("3. Pick up orange. Since orange is
        clear ...", dev trace daa491...). Blocksworld review: planted false states right after
        an action all passed unjudged."""
        if pos - line.last <= ANCHORED and text.find("\n\n", line.last, pos) < 0 and (
                P.POST_CUE.search(text, s0, pos) or (s1 is not None and P.STILL.search(text, s0, s1))):
            return True  # ("Orange is not clear yet.", "Blue is still under orange.": the state as it is now)
        # "... Now holding Red. State: Blue on Orange, Orange on table, ...": a state heading in the
        # action's paragraph (planted-claims test: such lists were all left unjudged). In the next
        # paragraph it is not enough: on real traces the line had often moved by steps we did not read.
        return (pos - line.last <= ANCHORED_LIST and text.find("\n\n", line.last, pos) < 0
                and P.STATE_HEADING.search(text, s0, pos) is not None)

    def _true_elsewhere(self, line: LineOfReasoning, atom: Atom, negated: bool) -> bool:
        """Would the claim hold in another state of the same line? Then the model is most
        likely speaking of that state (a step back we did not see), and it is not judged."""
        if not CHARITABLE:
            return False
        if atom[-1] == "*":
            return any(any(a[0] == atom[0] for a in st) != negated for st in line.states[-3:-1])
        if negated:
            # "X (no)" where X holds: the model's own misreading far more often than a step
            # back we did not see; judged unless X was absent in the line's last two states.
            return any(atom not in st for st in line.states[-3:-1])
        return any(atom in st for st in line.states)

    @staticmethod
    def _unjudged(claims: list[Claim], kind: str, text: str, span: tuple[int, int], line: LineOfReasoning,
                  why: str) -> None:
        """An assertion we could not judge: kept (holds None, never shown as an error) so that a
        trace with one is not called valid (thinking-claims.md: valid only when every claim was
        judged)."""
        claims.append(Claim(kind, span, text[span[0]:span[1]], None, f"not judged: {why}", line.id))

    def _applicability(self, text: str, frame: _Frame, claims: list[Claim], line: LineOfReasoning,
                       negative: bool, at: tuple[int, int], doubted: bool = True) -> None:
        ref = P.STEP_NUM.search(text, at[0], at[1]) if negative else None
        if ref and line.known:
            k = int(ref.group(1))
            if 1 <= k <= len(line.actions):
                frame = _Frame(line.actions[k - 1], f"step {k}", line.states[k - 1], False, False, at)
            elif not frame.item:
                # "so step 6 can't be done" about a step the line does not hold is not about the
                # action the sentence names ("after step 5, Attack a removes Province a", 371a25...);
                # an item's own "Step 9: Attack b -> Can't" or "But step 4 is impossible." is
                self._unjudged(claims, "applicability", text, _trimmed(text, *at), line, f"step {k} is not on its line")
                return
        if frame.pre is None:
            self._unjudged(claims, "applicability", text, _trimmed(text, *at), line, "its line of reasoning was lost")
            return
        unmet = unmet_preconditions(frame.action, frame.pre)
        applicable = not unmet
        holds = applicable != negative
        if not holds and not negative and CHARITABLE and not frame.now and any(
                not unmet_preconditions(frame.action, st) for st in line.states):
            self._unjudged(claims, "applicability", text, _trimmed(text, *at), line, "another state of its line allows it")
            return
        index = line.actions.index(frame.action) if frame.performed and frame.action in line.actions else len(line.actions)
        if not holds and not negative and line.broken is not None and line.broken < index:
            return  # follows an action the line applied although it was not applicable (already judged there)
        act = frame.action.text()
        if holds:
            msg = (f"{act} is indeed not applicable: {', '.join(self._nl(l.atom) for l in unmet)} "
                   f"{'does' if len(unmet) == 1 else 'do'} not hold" if negative else f"{act} is applicable")
        elif negative:
            if doubted or not line.known or at[0] - frame.span[1] > FRESH:
                return
            if line.broken is not None and line.broken < index:
                return  # the rejection follows from the line's earlier inapplicable step (judged there)
            msg = (f"rejects {act}, but all its preconditions hold here: "
                   + ", ".join(f"{_atom(l.atom)}" for l in frame.action.pre if l.positive))
        else:
            msg = (f"presents {act} as doable, but its precondition{'s' if len(unmet) > 1 else ''} "
                   f"{', '.join(self._named(l.atom) for l in unmet)} "
                   f"{'do' if len(unmet) > 1 else 'does'} not hold" + self._why(unmet[0].atom, line, frame.pre))
        claims.append(Claim("applicability", _trimmed(text, *at), text[at[0]:at[1]].strip(), holds, msg, line.id, negative=negative,
                            state=sorted(map(_atom, frame.pre))))

    def _close(self, frame: _Frame, claims: list[Claim], line: LineOfReasoning, text: str) -> None:
        """A performed action described as doable (preconditions listed, effects stated, "yes")
        without any rejection is an applicability claim."""
        if frame.rejected:
            return
        said_at = text[frame.verdict_at[0]:frame.verdict_at[1]] if frame.verdict_at else ""
        if P.STEP_REF.search(said_at) or P.STEP_REF.search(text[frame.span[1]:frame.span[1] + 14]):
            return  # "(step 4)": a step of some plan, not necessarily of the line we keep
        if frame.hedged and not frame.performed and (frame.verdict_at is None or frame.verdict_at[0] > frame.span[1]):
            return  # "maybe Attack a. Yes: ..." agrees with an idea; it asserts nothing about a state
        if frame.proposed and not frame.verdict_said and frame.req_at is None:
            return  # "Wait, maybe: 1. Attack c → Pain c. 2. ...": a proposal, unless checked ("needs ...", "yes")
        if frame.verdict_said or (frame.item and frame.performed and frame.positive_talk):
            if frame.initial:
                frame.pre = self.init
            self._applicability(text, frame, claims, line, negative=False,
                                at=frame.verdict_at or frame.req_at or frame.talk_at or frame.span)

    def _mark_retractions(self, text: str, claims: list[Claim]) -> None:
        for c in claims:
            if c.holds is False:
                window = TAG_AFTER.sub("", text[c.span[1]:c.span[1] + RETRACT_WINDOW], count=1)  # its own "(no, ...)" tag
                cut = re.search(r"\n\s*\n", window)
                if cut:
                    window = window[:cut.start()]
                m = P.RETRACT.search(window[:60])
                if m and m.group() == "?" and self._next_question(window, m.start()):
                    m = P.RETRACT.search(window[:60], 0, m.start())
                if m or self._doubted_then_retracted(text, c.span[1]):
                    c.retracted = True

    @staticmethod
    def _doubted_then_retracted(text: str, end: int) -> bool:
        """"Province(c): No, because ... which removed Province(c)? Wait, no.": the model questions
        its own claim and takes it back, in the same paragraph, right after (independent review,
        6e3f...). The question must come first: a bare "Wait, no" further on may be about anything."""
        window = text[end:end + DOUBT_WINDOW]
        cut = window.find("\n\n")
        if cut >= 0:
            window = window[:cut]
        mark = window.find("?")
        return mark >= 0 and P.STRONG_RETRACT.match(window, mark + 1) is not None

    @staticmethod
    def _next_question(window: str, mark: int) -> bool:
        """Is the "?" at `mark` the end of a later sentence that asks what to do next ("But Pain c
        is missing. How to get Pain c?"), not a doubt about the claim?"""
        end = max(window.rfind(". ", 0, mark), window.rfind("! ", 0, mark), window.rfind("\n", 0, mark))
        return end >= 0 and P.NEXT_QUESTION.match(window, end + 1) is not None
