"""The task's own words, found in a unit's tokens: actions and facts of one planning task.

Nothing here is written for a domain. The words come from the task:
* objects: their PlanBench words ("red block", "object a"), short words ("red") and PDDL names;
* actions: each action's PlanBench template ("feast {} from {}", "unstack the {} from on top of
  the {}") and its PDDL name ("pick-up", "pick up"), read as the action's words with its objects
  after them in order, with only connecting words between ("unstack blue from red", "Unstack
  blue from on top of red", "Succumb to b"); call style ("feast(b, c)") and PDDL ("(feast b c)");
  verb forms ("attacking a", "stacked") and two-word verbs around their object ("put red down");
* facts: each predicate's templates (PlanBench's, `vocab/phrasings.json`'s, and from the PDDL
  name: "clear {}", "{} is clear", "on({}, {})", "(on a b)") with "the", "block", "object",
  "top", "of", "is" and "are" optional; a unary prefix predicate takes a list ("Planet a, b and
  c", "Provinces a and c"); the domain's one binary fluent may be written "X→Y" (R1 writes
  "a→c" for "a craves c").

A mention without all its objects ("Attack", "Overcome the object from another") is kept, with
None for what is missing: rule talk and outlines name actions so.

The claim reader asks this of every sentence of long R1 traces, so the matching is indexed: a
unit's words, with the object starting at each, are worked out once for `actions` and `facts`
together (`_View`), and at a word only the templates that its next words leave possible are tried
(`_candidates`, remembered per context). Which mention wins is decided exactly as a plain scan of
every template in order would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection, Iterable, Sequence

from validators.planning.strips import Atom, GroundAction, Task
from validators.planning.vocab import Vocabulary
from validators.reading.text import Token, tokens_of

SKIP = frozenset({"the", "block", "blocks", "object", "objects", "top", "of", "is", "are", "was", "were", "be",
                  "'s", "currently", "still", "also", "already", "now", "itself", "stays", "stay", "remains", "remain",
                  "becomes", "become", "became", "another"})
CONNECT = frozenset({"from", "on", "onto", "to", "at", "in", "into", "with", "off", "and", ","})
_SLOT = "\x00"
_ARTICLES = frozenset({"a", "an"})  # object names that are also articles ("a Planet": not Planet a)
_TYPED = "\x01"  # marks a bare name read after a type word: no token of a text can hold it
_TYPE_WORDS = frozenset({"block", "blocks", "object", "objects"})
_WORD_LETTERS = frozenset({"a", "i"})  # one-letter names that are also English words
_NOT = frozenset({"not", "isn't", "aren't", "no"})
_LIST = frozenset({",", "and", "&"})
_BETWEEN_OBJECTS = frozenset({"directly", "straight", "back", "right", "immediately", "then", "safely", "carefully"})
_GENERIC = frozenset({"a", "an", "any", "each", "one", "some"})  # before a skipped type word: "a block"
_MODALS = frozenset({"can", "could", "cannot", "can't", "couldn't", "would", "wouldn't", "will", "won't", "should",
                     "shouldn't", "must", "may", "might"})
_PASSIVE_ADVERBS = frozenset({"not", "then", "directly", "immediately", "just", "safely", "first", "easily", "only",
                              "right", "away", "straight", "legally", "finally", "next"})
_NO_OBJECT = "\x01"    # no object starts here (no token is a control character)
_PLACE_VERBS = ("put", "place")
_AFTER_VERB = CONNECT | {"up", "down", "off"}  # "lifts blue off": the verb's object goes on somewhere
_PLACE_WORDS = frozenset({"on", "onto", "in", "into", "atop"})  # "top", "of" are SKIP words: "on top of" reads "on"
_INTO = {"on": "onto", "in": "into"}  # "put red onto blue" where the template says "on"
_MEMO_LIMIT = 50_000   # remembered word contexts per task: a bound on memory, not reached on R1 traces


@dataclass(frozen=True, slots=True)
class ActionMention:
    i: int                       # token range in the unit
    j: int
    name: str
    args: tuple[str | None, ...]
    ground: GroundAction | None  # all objects named
    form: str = "base"           # "base", "ing", "ed": "after attacking a" names a done action
    shared: "ActionMention | None" = None  # the same verb read as another action whose further objects are
    # not said ("lifting blue": pick-up, or unstack from a block not named); the reader picks by the line


@dataclass(frozen=True, slots=True)
class FactMention:
    i: int
    j: int
    atom: Atom | None            # None: the predicate named without its objects ("Pain", "Province")
    predicate: str
    absent_word: bool = False    # a word for its absence ("red is covered": not clear)


_fact_mention = FactMention
_action_mention = ActionMention


def _forms(verb: str) -> dict[str, str]:
    out = {verb: "base", verb + "s": "base"}
    if verb.isalpha() and len(verb) >= 3 and verb[-1] == "y" and verb[-2] not in "aeiou":
        return {verb: "base", verb[:-1] + "ies": "base", verb + "ing": "ing", verb[:-1] + "ied": "ed"}  # "empties"
    if verb.isalpha() and verb.endswith(("s", "sh", "ch", "x", "z")):
        out[verb + "es"] = "base"  # "pushes", "fixes"
    if verb.isalpha() and len(verb) >= 3:
        stem = verb[:-1] if verb.endswith("e") else verb
        if len(verb) == 3 and verb[1] in "aeiou" and verb[0] not in "aeiou" and verb[2] not in "aeiouwxy":
            stem = verb + verb[2]
        out.setdefault(stem + "ing", "ing")
        out.setdefault(verb + "d" if verb.endswith("e") else stem + "ed", "ed")
    return out


_PLACE_FORMS = frozenset(f for verb in _PLACE_VERBS for f in _forms(verb))


@dataclass
class _Phrase:
    words: tuple[str, ...]   # head words (a slot marks an object position inside a fact template)
    name: str
    order: tuple[int, ...]   # argument index of each slot
    particle: str | None = None
    reorder: tuple[int, ...] | None = None  # `order`, when it names each argument once and moves one

    @property
    def key(self) -> tuple[tuple[str, ...], str, tuple[int, ...]]:
        """Two phrases with the same key match the same words the same way."""
        return self.words, self.name, self.order


@dataclass(slots=True)
class _View:
    """A unit's tokens as the matchers read them, built once per unit for both `actions` and
    `facts`: the words without SKIP words, the token index of each, the object (with the
    position after it) that starts at each word, and where objects start. `obj` has two spare
    None entries at the end, so a position just past the last word needs no bound check."""

    at: Sequence[int]
    words: list[str]
    obj: list[tuple[str, int] | None]
    objects_at: list[int]
    tokens: Sequence[Token] = ()


_Fact = tuple[int, "Atom | None", str, bool]   # (end, atom, predicate, absent word)
_Candidate = tuple[_Phrase, bool]              # a fact template, and whether it is an absence phrasing
_Head = tuple[list[str], str, str, "str | None", int]  # rest of the head, action, form, particle, arity


@dataclass
class TaskWords:
    task: Task
    vocab: Vocabulary
    objects: dict[tuple[str, ...], str] = field(default_factory=dict)
    action_heads: dict[str, list[tuple[tuple[str, ...], str, str, str | None]]] = field(default_factory=dict)
    fact_templates: dict[str, list[_Phrase]] = field(default_factory=dict)
    slot_first: list[_Phrase] = field(default_factory=list)
    absent: list[_Phrase] = field(default_factory=list)
    arrow_predicate: str | None = None
    predicate_words: dict[str, str] = field(default_factory=dict)
    predicate_plurals: dict[str, str] = field(default_factory=dict)
    # a one-object predicate's words without its object ("on the table", "in my hand"), from its
    # templates whose object comes first: rules and outlines name facts so ("needs it to be on
    # the table"); keyed by the first word
    predicate_phrases: dict[str, list[tuple[tuple[str, ...], str]]] = field(default_factory=dict)
    arity: dict[str, int] = field(default_factory=dict)
    # per action whose head wants a particle ("put ... down"): the words of a one-object fact it
    # adds to its first object, as written after the object ("on the table" of "{} is on the
    # table"): "put orange on the table" names put-down as "put orange down" does
    results: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)
    # per action named by a verb of placing ("put red on blue"): the place words that must stand
    # between its two objects (`_add_place_verbs`)
    place_words: dict[str, frozenset[str]] = field(default_factory=dict)
    object_firsts: set[str] = field(default_factory=set)
    # bare one-letter names where prose may not use them alone ("a" is an article): accepted
    # after a type word ("block a"), read as the word that stands for the object
    typed_names: dict[str, str] = field(default_factory=dict)
    # verbs that say a step makes a fact true or false ("clears red", "covers orange", "frees up my
    # hand"; phrasings.json keys "make P", "make not P"): first word -> (other words, predicate, adds,
    # object slots), the verb in every form
    effect_verbs: dict[str, list[tuple[tuple[str, ...], str, bool, int]]] = field(default_factory=dict)
    # indexes over the fields above, built by `_index`: the matchers read these
    _lengths: tuple[int, ...] = field(default=(), repr=False, compare=False)
    _single: dict[str, str] | None = field(default=None, repr=False, compare=False)
    _heads: dict[str, list[_Head]] = field(default_factory=dict, repr=False, compare=False)
    named_with_object: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)  # (verb form, action):
    # other verbs, read only with all their objects and one of their words between objects ("move red onto blue")
    _fixed_first: dict[str, tuple[_Candidate, ...]] = field(default_factory=dict, repr=False, compare=False)
    _absent_first: dict[str, tuple[_Candidate, ...]] = field(default_factory=dict, repr=False, compare=False)
    _slot_group: tuple[_Candidate, ...] = field(default=(), repr=False, compare=False)
    _fact_starts: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    _article_objects: frozenset[str] = field(default=frozenset(), repr=False, compare=False)  # objects named "a"
    _unary_words: frozenset[str] = field(default=frozenset(), repr=False, compare=False)  # "planet", "provinces"
    _fact_openers: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    # remembered while reading: the templates worth trying for the words around a position
    _tried: dict[tuple[str, str | None, str | None], tuple[_Candidate, ...]] = field(
        default_factory=dict, repr=False, compare=False)
    _others: dict[str | None, tuple[_Phrase, ...]] = field(default_factory=dict, repr=False, compare=False)
    _opens: dict[str | None, bool] = field(default_factory=dict, repr=False, compare=False)
    _last: tuple[list[Token], list[Token], _View] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, task: Task, vocab: Vocabulary) -> "TaskWords":
        key = ("task_words", vocab.name)
        got = task.memo.get(key)
        if got is None:
            got = task.memo[key] = cls._build(task, vocab)
        return got

    @classmethod
    def _build(cls, task: Task, vocab: Vocabulary) -> "TaskWords":
        tw = cls(task, vocab)
        for obj in sorted(set(task.objects) | set(vocab.objects)):
            if obj not in task.objects:
                continue
            for word in (vocab.object_nl(obj), vocab.short_objects.get(obj, ""), obj):
                toks = tuple(t.norm for t in tokens_of(word, 0, len(word)) if t.norm not in SKIP)
                if toks and (vocab.bare_names or len(obj) > 1 or word != obj or vocab.object_nl(obj) == obj):
                    tw.objects.setdefault(toks, obj)
        if not vocab.bare_names:
            for obj in task.objects:
                if len(obj) == 1 and (obj,) not in tw.objects:
                    if obj in _WORD_LETTERS:
                        tw.typed_names[obj] = _TYPED + obj
                        tw.objects.setdefault((_TYPED + obj,), obj)
                    else:
                        tw.objects.setdefault((obj,), obj)
        tw.object_firsts = {key[0] for key in tw.objects}
        for name, schema in task.domain.actions.items():
            heads = {name, name.replace("-", " ").replace("_", " ")}
            template = vocab.actions.get(name)
            if template and "{}" in template:
                heads.add(template.split("{}")[0].strip())
            for head in heads:
                words = [t.norm for t in tokens_of(head, 0, len(head)) if t.norm not in SKIP]
                if not words:
                    continue
                particle = words[1] if len(words) == 2 and words[1] in ("up", "down", "off") else None
                for form, kind in _forms(words[0]).items():
                    entry = (tuple(words[1:]), name, kind, particle)
                    bucket = tw.action_heads.setdefault(form, [])
                    if entry not in bucket:
                        bucket.append(entry)
        tw._add_action_phrasings(vocab)
        fluents = task.domain.predicates if hasattr(task.domain, "predicates") else {}
        arities: dict[str, int] = {}
        for schema in task.domain.actions.values():
            for lit in schema.pre:
                arities[lit.atom[0]] = len(lit.atom) - 1
            for atom in (*schema.add, *schema.delete):
                arities[atom[0]] = len(atom) - 1
        for atom in task.problem.init:
            arities.setdefault(atom[0], len(atom) - 1)
        for lit in task.problem.goal:
            arities.setdefault(lit.atom[0], len(lit.atom) - 1)
        del fluents
        tw.arity = arities
        for pred, arity in arities.items():
            templates = [vocab.predicates.get(pred) or ""] + list(vocab.phrasings.get(pred, ()))
            plain = pred.replace("-", " ").replace("_", " ")
            templates += [plain + " {}" * arity] if arity else [plain]
            if arity == 1:
                templates.append("{} is " + plain)
            if arity == 2:
                templates.append("{} " + plain + " {}")
            for t in templates:
                if t and t.count("{") == arity:
                    words = tw._add_fact(t, pred)
                    rest = tuple(words[1:])
                    if arity == 1 and words[:1] == [_SLOT] and len(rest) >= 2 and _SLOT not in rest:
                        known = tw.predicate_phrases.setdefault(rest[0], [])
                        if (rest, pred) not in known:
                            known.append((rest, pred))
            for t in vocab.phrasings.get("not " + pred, ()):
                tw._add_fact(t, pred, absent=True)
            word = [w for w in plain.split() if w not in SKIP]
            if word and word[0] not in CONNECT and len(word[0]) > 3:  # not "on", "in", "at": common words
                tw.predicate_words[word[0]] = pred
                if arity == 1 and not word[0].endswith("s"):
                    tw.predicate_plurals[word[0] + "s"] = pred  # "Provinces: c, b.", "Planets a and c"
                if arity == 2 and word[0].endswith("s") and len(word[0]) > 4:
                    tw.predicate_words.setdefault(word[0][:-1], pred)  # a verb's plain form: "must crave"
        for name, schema in task.domain.actions.items():
            for atom in schema.add:
                if len(atom) == 2 and schema.params and atom[1] == schema.params[0]:
                    for rest, pred in (x for known in tw.predicate_phrases.values() for x in known):
                        if pred == atom[0] and rest[0] in CONNECT:  # a place: "on the table", not "has nothing on"
                            tw.results.setdefault(name, []).append(rest)
        tw._add_place_verbs(vocab)
        tw._add_effect_verbs(vocab)
        binary_fluents = [p for p, n in arities.items() if n == 2 and p not in task.domain.static_predicates]
        if len(binary_fluents) == 1:
            tw.arrow_predicate = binary_fluents[0]
        tw._index()
        return tw

    def _add_action_phrasings(self, vocab: Vocabulary) -> None:
        """Other verbs for an action (`vocab/phrasings.json`, key "do <action>": "lift {} off {}" for
        unstack, "set {} down" for put-down), tried after the action's own words, the one that names
        more objects first ("lift blue off red" before "lift red"). A verb written before a particle
        that may follow the first object ("set {} down") is read as the template's two-word head.
        Such a verb names its action only with all its objects ("take a look" names none)."""
        found: list[tuple[int, str, str, tuple[str, ...], str | None, frozenset[str]]] = []
        for name, schema in self.task.domain.actions.items():
            for template in vocab.phrasings.get("do " + name, ()):
                pieces = template.split("{}")
                if len(pieces) - 1 != len(schema.params) or not pieces[0].strip():
                    continue
                head = [t.norm for t in tokens_of(pieces[0], 0, len(pieces[0])) if t.norm not in SKIP]
                after = [t.norm for t in tokens_of(pieces[1], 0, len(pieces[1])) if t.norm not in SKIP]
                particle = None
                if len(head) == 1 and after[:1] and after[0] in ("up", "down", "off"):
                    particle = after[0]
                    head.append(particle)
                between = frozenset(w for piece in pieces[1:-1] for w in
                                    (t.norm for t in tokens_of(piece, 0, len(piece))) if w not in SKIP)
                found.append((len(schema.params), name, head[0], tuple(head[1:]), particle, between))
        own = {(form, e[1]) for form, bucket in self.action_heads.items() for e in bucket}
        for _arity, name, verb, rest, particle, between in sorted(found, key=lambda f: -f[0]):
            for form, kind in _forms(verb).items():
                entry = (rest, name, kind, particle)
                bucket = self.action_heads.setdefault(form, [])
                if (form, name) in own:
                    continue  # the action's own verb ("unstacking A from B" is rule talk without objects)
                bucket.append(entry)
                self.named_with_object[(form, name)] = self.named_with_object.get((form, name), frozenset()) | between

    def _add_effect_verbs(self, vocab: Vocabulary) -> None:
        """Verbs for making a fact true or false (keys "make P" and "make not P" of
        `vocab/phrasings.json`): "clear {}" for clear, "fill my hand" for not handempty. A template
        with a slot names its object after the verb's words; one with none names the fact whole."""
        for key, templates in vocab.phrasings.items():
            if not key.startswith("make "):
                continue
            pred, adds = key[5:], True
            if pred.startswith("not "):
                pred, adds = pred[4:], False
            if pred not in self.arity:
                continue
            for template in templates:
                slots = template.count("{}")
                if slots > 1 or (slots == 1 and not template.rstrip().endswith("{}")) or slots != self.arity[pred]:
                    continue
                head = template.replace("{}", " ")
                said = [t.norm for t in tokens_of(head, 0, len(head))]
                words = [w for w in said if w not in SKIP]
                if not words:
                    continue
                for form, kind in _forms(words[0]).items():
                    if kind == "base" and form == words[0] and len(said) > 1 and said[1] in SKIP and not slots:
                        continue  # "an empty hand", "a free hand": the verb's own form is also an adjective
                        # before the words the matcher skips; "fills the hand", "freed my hand" are verbs
                    entry = (tuple(words[1:]), pred, adds, slots)
                    bucket = self.effect_verbs.setdefault(form, [])
                    if entry not in bucket:
                        bucket.append(entry)

    def made_facts(self, tokens: list[Token]) -> list[tuple[int, int, int, FactMention, bool]]:
        """Facts a verb says are made true or false: (verb token, object token, end token, the fact,
        adds). "Unstacking blue clears red" names (clear red) made true; "fills the hand" names
        (handempty) made false. The verb must be followed by its words and its object at once."""
        out: list[tuple[int, int, int, FactMention, bool]] = []
        verbs = self.effect_verbs
        if not verbs or verbs.keys().isdisjoint(t.norm for t in tokens):
            return out
        v = self._view(tokens)
        words, at, obj = v.words, v.at, v.obj
        k = 0
        while k < len(words):
            got = None
            for rest, pred, adds, slots in verbs.get(words[k], ()):
                pos = k + 1
                if tuple(words[pos:pos + len(rest)]) != rest:
                    continue
                pos += len(rest)
                if slots == 0:
                    if pos == k + 1:
                        continue  # a bare verb with no words of its own names nothing
                    got = (pos, (pred,), pos - len(rest), adds)
                    break
                hit = obj[pos] if pos < len(words) else None
                if hit is None:
                    continue
                got = (hit[1], (pred, hit[0]), pos, adds)
                break
            if got is None:
                k += 1
                continue
            end, atom, obj_at, adds = got
            i_obj = at[obj_at] if obj_at < len(words) else at[end - 1]
            fact = _fact_mention(i_obj, at[end - 1] + 1, atom, pred)
            out.append((at[k], i_obj, at[end - 1] + 1, fact, adds))
            k = end
        return out

    def _add_place_verbs(self, vocab: Vocabulary) -> None:
        """"put red on blue", "placing blue onto red": a verb of placing names the action whose add
        effect relates its two objects in order by a fact written with a place word between them
        ("{} is on top of {}" of stack's (on ?ob ?underob)); the place word must stand between the
        objects ("put red and blue on the table" names no such action)."""
        for name, schema in self.task.domain.actions.items():
            if len(schema.params) != 2:
                continue
            for atom in schema.add:
                if tuple(atom[1:]) != tuple(schema.params):
                    continue
                pred = atom[0]
                plain = pred.replace("-", " ").replace("_", " ")
                places: set[str] = set()
                for t in [vocab.predicates.get(pred) or "", *vocab.phrasings.get(pred, ()), "{} " + plain + " {}"]:
                    if t.count("{}") != 2:
                        continue
                    mid = t.split("{}")[1]
                    between = [tk.norm for tk in tokens_of(mid, 0, len(mid)) if tk.norm not in SKIP]
                    if between and between[0] in _PLACE_WORDS:
                        places.add(between[0])
                if not places:
                    continue
                self.place_words[name] = frozenset(places | {_INTO[p] for p in places if p in _INTO})
                for verb in _PLACE_VERBS:
                    for form, kind in _forms(verb).items():
                        entry = ((), name, kind, None)
                        bucket = self.action_heads.setdefault(form, [])
                        if entry not in bucket:
                            bucket.append(entry)

    def _add_fact(self, template: str, pred: str, absent: bool = False) -> list[str]:
        order: list[int] = []
        words: list[str] = []
        k = 0
        for piece in template.replace("{}", "\x01").replace("{0}", "\x02").replace("{1}", "\x03").split():
            if piece[:1] in ("\x01", "\x02", "\x03") and piece[1:] == "'s":
                piece = piece[:1]  # "{}'s craving for {}": the object, read without its possessive (_view)
            if piece in ("\x01", "\x02", "\x03"):
                order.append(k if piece == "\x01" else int(piece == "\x03"))
                k += piece == "\x01"
                words.append(_SLOT)
                continue
            words += [t.norm for t in tokens_of(piece, 0, len(piece)) if t.norm not in SKIP]
        if not words:
            return words
        moved = len(set(order)) == len(order) and order != list(range(len(order)))  # "{1} is under {0}"
        phrase = _Phrase(tuple(words), pred, tuple(order), reorder=tuple(order) if moved else None)
        if absent:
            self.absent.append(phrase)
        elif words[0] == _SLOT:
            self.slot_first.append(phrase)
        else:
            self.fact_templates.setdefault(words[0], []).append(phrase)
        return words

    # -- indexes over the task's words -----------------------------------------------------
    def _index(self) -> None:
        """Index the templates for the matchers. The claim reader asks `actions` and `facts` of
        every sentence of long traces, so the work at a word must be a few dictionary look-ups:
        which templates can start there is decided once per context, not by trying them all.

        Candidates keep the order the matchers have always tried them in (the first of the
        longest matches wins); a template repeated with the same words, predicate and argument
        order is tried once, as a repeat could never win over its first copy."""
        self._lengths = tuple(n for n in (3, 2, 1) if any(len(key) == n for key in self.objects))
        # every object one word ("a", "red"): an object's first word names it
        self._single = {key[0]: obj for key, obj in self.objects.items()} if self._lengths == (1,) else None
        self._heads = {
            form: [(list(rest), name, kind, particle, self.task.domain.actions[name].arity)
                   for rest, name, kind, particle in entries]
            for form, entries in self.action_heads.items()}
        self._fixed_first = {w: _unique((p, False) for p in phrases) for w, phrases in self.fact_templates.items()}
        absent_first: dict[str, list[_Phrase]] = {}
        for p in self.absent:
            if p.words[0] != _SLOT:
                absent_first.setdefault(p.words[0], []).append(p)
        self._absent_first = {w: _unique((p, True) for p in phrases) for w, phrases in absent_first.items()}
        self._slot_group = _unique([*((p, True) for p in self.absent if p.words[0] == _SLOT),
                                    *((p, False) for p in self.slot_first)])
        self._fact_starts = frozenset(self._fixed_first) | frozenset(self._absent_first) | frozenset(self.predicate_words) \
            | frozenset(self.predicate_plurals) | frozenset(self.predicate_phrases)
        self._fact_openers = self._fact_starts | frozenset(self.object_firsts)
        self._article_objects = frozenset(key[0] for key in self.objects if len(key) == 1 and key[0] in _ARTICLES)
        self._unary_words = frozenset(w for w, p in (*self.predicate_words.items(), *self.predicate_plurals.items())
                                      if self.arity.get(p) == 1)
        self._tried = {}
        self._others = {}
        self._opens = {}

    def _candidates(self, w: str, nxt: str | None, after: str | None) -> tuple[_Candidate, ...]:
        """The fact templates worth trying at a word `w` followed by `nxt`, with `after` the word
        after the object starting there (`_NO_OBJECT`: none does; None: the unit ends), in the
        order they are tried: those opening with the word, those opening with an object, the
        absence phrasings opening with the word. Remembered per context."""
        key = (w, nxt, after)
        got = self._tried.get(key)
        if got is None:
            slots = () if after == _NO_OBJECT else (c for c in self._slot_group if self._may_follow(c[0], after, True))
            got = (*(c for c in self._fixed_first.get(w, ()) if self._may_follow(c[0], nxt, False)),
                   *slots,
                   *(c for c in self._absent_first.get(w, ()) if self._may_follow(c[0], nxt, False)))
            if len(self._tried) > _MEMO_LIMIT:
                self._tried.clear()
            self._tried[key] = got
        return got

    def _object_opens(self, after: str | None) -> bool:
        """Whether a fact can open with an object followed by `after` (an arrow, or a template
        that may go on with it): at most objects ("a plan", "red and blue") none can."""
        got = self._opens.get(after)
        if got is None:
            got = after == "->" or any(self._may_follow(c[0], after, True) for c in self._slot_group)
            if len(self._opens) > _MEMO_LIMIT:
                self._opens.clear()
            self._opens[after] = got
        return got

    def _other_facts(self, after: str | None) -> tuple[_Phrase, ...]:
        """The templates opening with an object that may go on with `after`, absence phrasings too
        ("orange on table, red covered": "red covered" is a fact of its own, not the list's)."""
        got = self._others.get(after)
        if got is None:
            got = tuple(p for p in (*self.slot_first, *(a for a in self.absent if a.words[0] == _SLOT))
                        if self._may_follow(p, after, True))
            if len(self._others) > _MEMO_LIMIT:
                self._others.clear()
            self._others[after] = got
        return got

    def _may_follow(self, phrase: _Phrase, nxt: str | None, after_object: bool) -> bool:
        """Whether a template can match with `nxt` as the word after its first element (None:
        the unit ends there): `_match`'s test of the second element, on that word alone. The
        word it needs, the same with a plural "s" ("Provinces"), after an object a negation
        before it ("red is not clear"), or for a slot an object's first word."""
        if len(phrase.words) < 2:
            return True
        if nxt is None:
            return False
        w = phrase.words[1]
        if w == _SLOT:
            return nxt in self.object_firsts
        return nxt == w or nxt in _NOT or (len(w) > 3 and nxt.rstrip("s") == w)

    # -- matching on a unit's tokens -------------------------------------------------------
    def _object_at(self, words: Sequence[str], k: int) -> tuple[str, int] | None:
        """The object whose words start at `k` (the longest, up to three words), and the
        position after them."""
        if k >= len(words) or words[k] not in self.object_firsts:
            return None
        for n in self._lengths:
            if k + n <= len(words):
                hit = self.objects.get(tuple(words[k:k + n]))
                if hit is not None:
                    return hit, k + n
        return None

    def _view(self, tokens: list[Token]) -> _View:
        """The unit's `_View`; the last one is kept, as `read_unit` asks `actions` then `facts`
        of the same token list (checked against a copy too, so a list changed in between is
        never served a stale view)."""
        last = self._last
        if last is not None and last[0] is tokens and last[1] == tokens:
            return last[2]
        words = [t.norm for t in tokens if t.norm not in SKIP]
        if any(w.endswith("'s") for w in words):
            words = [w[:-2] if w.endswith("'s") and w[:-2] in self.object_firsts else w for w in words]
            # "c's craving for b": the object before its possessive (the template "{}'s craving for {}")
        at: Sequence[int]
        if len(words) == len(tokens):  # most lines of a walk-through: "Pain b", "Harmony (yes)"
            at = range(len(words))
        else:
            at = [n for n, t in enumerate(tokens) if t.norm not in SKIP]
        if not _BEFORE_BE.isdisjoint(words) and "be" in (t.norm for t in tokens):
            heads = self._heads
            keep = [q for q, n in enumerate(at) if not _before_be(words, q, tokens, n, heads)]
            if len(keep) < len(words):  # "needs the hand to be empty", "red must be clear": "... is ..."
                words, at = [words[q] for q in keep], [at[q] for q in keep]
        if not _COPULA_WORDS.isdisjoint(words):
            firsts = self.object_firsts
            keep = [q for q in range(len(words)) if not _copula(words, q, firsts)]
            if len(keep) < len(words):  # "red gets covered", "red counts as clear": as "red is ..."
                words, at = [words[q] for q in keep], [at[q] for q in keep]
        if "," in words and ASIDE_FIRSTS.intersection(words):
            words, at = _without_asides(words, list(at))
        if self.typed_names and len(words) < len(tokens):
            typed = self.typed_names
            for k, n in enumerate(at):
                if words[k] in typed and n and tokens[n - 1].norm in _TYPE_WORDS:
                    words[k] = typed[words[k]]
        if self._article_objects and not self._article_objects.isdisjoint(words):
            nouns = self._unary_words
            keep = [q for q, w in enumerate(words) if not (
                w in self._article_objects and q + 1 < len(words) and words[q + 1] in nouns
                and at[q + 1] == at[q] + 1 and not (q and words[q - 1] in nouns))]  # "Attack a are Pain a" keeps it
            if len(keep) < len(words):  # "c is a Planet", "both a Province and a Planet": the article, not
                # object a, and read past ("c is a Planet" as "c is Planet"); "Province a Planet c" keeps it
                words, at = [words[q] for q in keep], [at[q] for q in keep]
        obj: list[tuple[str, int] | None] = [None] * (len(words) + 2)
        firsts = self.object_firsts
        places = [] if firsts.isdisjoint(words) else [k for k, w in enumerate(words) if w in firsts]
        single = self._single
        if single is not None:
            for k in places:
                obj[k] = (single[words[k]], k + 1)
        else:
            for k in places:
                obj[k] = self._object_at(words, k)
            places = [k for k in places if obj[k] is not None]  # "red" of "red block" alone
        view = _View(at, words, obj, places, tokens)
        self._last = (tokens, list(tokens), view)
        return view

    def actions(self, tokens: list[Token]) -> list[ActionMention]:
        """The actions named in a unit, left to right, each read from its head word on."""
        v = self._view(tokens)
        words, at, heads = v.words, v.at, self._heads
        out: list[ActionMention] = []
        if heads.keys().isdisjoint(words):  # most sentences name no action
            return out
        k = 0  # the first word not yet read: a mention's words are not read again
        for start in [n for n, w in enumerate(words) if w in heads]:
            if start < k:
                continue
            got = None
            partial = None  # another action's reading by the same paraphrase verb, with objects left unsaid
            bucket = heads[words[start]]
            most = max(h[4] for h in bucket)
            for head in bucket:
                if got is not None and None not in got[1] and len(got[1]) >= most:
                    break  # a whole reading that no other head can outdo
                read = self._read_action(v, start, head)
                if read is not None and None in read[1] and (words[start], read[2]) in self.named_with_object:
                    partial = partial or read
                if read is not None and (words[start], read[2]) in self.named_with_object and not self._said_so(v, start, read):
                    read = None  # "take a different approach", "unstacking just lifts blue off", "after moving red,
                    # orange": another verb names its action only as its words say it
                if read is not None and read[2] in self.place_words and words[start] in _PLACE_FORMS \
                        and not self._placed(v, start, read[0], read[2]):
                    read = None  # "put red and blue on the table", "putting a block down": no place between objects
                if got is not None and None not in got[1]:
                    if read is not None and None not in read[1] and len(read[1]) > len(got[1]):
                        got = read  # "pick up blue from red": unstack, not pick-up with words left over
                    continue
                got = read or got
            if got is None:
                continue
            end, named, name, form = got
            if form == "ed" or words[start] == "put":
                named = self._passive(v, start, named)
            args = tuple(named)
            ground = None
            if None not in args:
                try:
                    ground = self.task.ground(name, args)  # type: ignore[arg-type]
                except (KeyError, ValueError):
                    ground = None
            shared = None
            if partial is not None and partial[2] != name and (words[start], name) in self.named_with_object \
                    and tuple(partial[1][:len(args)]) == args:
                shared = _action_mention(at[start], at[end - 1] + 1, partial[2], tuple(partial[1]), None, form)
            out.append(_action_mention(at[start], at[end - 1] + 1, name, args, ground, form, shared))
            k = end
        return out

    def _said_so(self, v: _View, start: int, read: tuple[int, list[str | None], str, str]) -> bool:
        """Another verb of an action reads as it only with all its objects, no place word left
        over after them ("lifts blue off"), and, with two objects, one of its own words between
        them and no list ("move red onto blue", not "moving red, orange")."""
        end, named, name, _ = read
        if None in named or (end < len(v.words) and v.words[end] in _AFTER_VERB):
            return False
        needed = self.named_with_object[(v.words[start], name)]
        if len(named) < 2 or not needed:
            return True
        between = v.words[start + 1:end]
        return any(w in needed for w in between) and not any(w in _LIST for w in between)

    def _placed(self, v: _View, start: int, end: int, name: str) -> bool:
        """The words between a placing verb's two objects hold a place word and nothing that lists."""
        between = v.words[start + 1:end]
        return any(w in self.place_words[name] for w in between) and not any(w in _LIST for w in between)

    def _passive(self, v: _View, k: int, named: list[str | None]) -> list[str | None]:
        """The objects of an action said in the passive after a modal, "Orange could be picked up
        now", "Blue can be unstacked from red": the subject is its first object and the objects
        after the head are the rest. Only after a modal, so "red is stacked on blue" (a fact) and
        "blue was picked up" (a narrated step) are read as before."""
        words, obj = v.words, v.obj
        if not named or named[-1] is not None:
            return named
        p = k - 1
        while p >= 0 and words[p] in _PASSIVE_ADVERBS:
            p -= 1
        if p < 1 or words[p] not in _MODALS:
            return named
        p -= 1
        while p >= 0 and words[p] in _PASSIVE_ADVERBS:
            p -= 1
        subject = next((obj[q][0] for q in v.objects_at if q <= p and obj[q] is not None and obj[q][1] == p + 1), None)
        if subject is None:
            return named
        return [subject, *named[:len(named) - 1]]

    def _read_action(self, v: _View, k: int, head: _Head) -> tuple[int, list[str | None], str, str] | None:
        rest, name, form, particle, arity = head
        words, obj = v.words, v.obj
        n = len(words)
        pos = k + 1
        if not rest or words[pos:pos + len(rest)] == rest:
            pos += len(rest)
            particle = None
        elif not particle:
            return None
        args: list[str | None] = []
        if pos < n and words[pos] == "(":
            pos += 1
        read_to = pos  # after the last word that belongs to the mention
        while len(args) < arity and pos < n:
            hit = obj[pos]
            if hit is not None:
                args.append(hit[0])
                pos = hit[1]
                if particle and pos < n and words[pos] == particle:
                    pos += 1
                    particle = None
                read_to = pos
                continue
            w = words[pos]
            if particle and w in _GENERIC and pos + 1 < n and words[pos + 1] == particle:
                pos += 2  # "putting a block down": the action said of no object in particular
                particle = None
                break
            if w in _BETWEEN_OBJECTS and pos + 1 < n and (words[pos + 1] in CONNECT or (args and obj[pos + 1] is not None)):
                pos += 1  # "stack blue directly onto orange", "put red back on blue"
                continue
            if w in CONNECT and (args or w in ("to", "on", "onto", "from")):
                pos += 1  # "unstack blue from red"; before the first object too: "Succumb to b"
                continue
            break
        if args and len(args) < arity:
            pos = read_to  # "stacked onto orange now, without ...": the comma that no object follows is not the mention's
        if particle and not any(words[pos:pos + len(r)] == list(r) for r in self.results.get(name, ())):
            return None  # "put red down" needs its particle, or the fact it leaves: "put red on the table"
        if pos < n and words[pos] == ")":
            pos += 1
        if len(args) < arity:
            args += [None] * (arity - len(args))
        return pos, args, name, form

    def facts(self, tokens: list[Token]) -> list[FactMention]:
        """The facts named in a unit, left to right. A fact starts at an object or at a word that
        opens a template or names a predicate; an object that no template, list or arrow can go
        on from ("a plan", "red and") is passed over without trying any."""
        v = self._view(tokens)
        words, obj, at = v.words, v.obj, v.at
        starts = self._fact_starts
        out: list[FactMention] = []
        if starts.isdisjoint(words):
            places = v.objects_at
        else:
            openers = self._fact_openers
            places = [n for n, w in enumerate(words) if w in openers]
        n = len(words)
        opens, fact_at, append = self._opens, self._fact_at, out.append
        k = 0  # the first word not yet read
        for start in places:
            if start < k:
                continue
            if words[start] not in starts:  # an object, not a template's word: look at the next word
                here = obj[start]
                if here is None:  # "red" of "red block", alone
                    continue
                after = words[here[1]] if here[1] < n else None
                if after in _LIST and (shared := self._subjects_sharing(v, start)):
                    for i, j, atom, pred, absent in shared:
                        append(_fact_mention(at[i], at[j - 1] + 1, atom, pred, absent))
                    k = shared[-1][1]
                    continue
                can = opens.get(after)
                if not (self._object_opens(after) if can is None else can):
                    continue
            got = fact_at(v, start)
            if got:
                for end, atom, pred, absent in got:
                    append(_fact_mention(at[start], at[end - 1] + 1, atom, pred, absent))
                k = got[-1][0]  # the furthest end: a list's items come in order after its first fact
        return out

    def _subjects_sharing(self, v: _View, k: int) -> list[tuple[int, int, Atom, str, bool]]:
        """"Red and blue are clear", "red, orange and blue are on the table": objects listed before
        one unary fact whose template opens with its object share it. Each is returned as its own
        mention (word range, atom, predicate, absence); empty when the list ends in no such fact."""
        words, obj = v.words, v.obj
        n = len(words)
        subjects: list[tuple[int, int, str]] = []
        q = k
        while q < n and obj[q] is not None:
            name, end = obj[q]  # type: ignore[misc]
            subjects.append((q, end, name))
            if end < n and words[end] in _LIST and end + 1 < n and obj[end + 1] is not None:
                q = end + 1
                continue
            break
        if len(subjects) < 2:
            return []
        last = subjects[-1]
        got = self._fact_at(v, last[0])
        if len(got) != 1 or got[0][1] is None or len(got[0][1]) != 2 or got[0][1][1] != last[2]:
            return []
        end, atom, pred, absent = got[0]
        out = [(i, j, (pred, name), pred, absent) for i, j, name in subjects[:-1]]
        return out + [(last[0], end, atom, pred, absent)]  # type: ignore[list-item]

    def _fact_at(self, v: _View, k: int) -> list[_Fact]:
        """The fact starting at `k` (with the rest of its list), else an arrow ("c→a"), else a
        predicate named alone; empty if none."""
        words, obj = v.words, v.obj
        n = len(words)
        w = words[k]
        here = obj[k]
        nxt = words[k + 1] if k + 1 < n else None
        after = _NO_OBJECT if here is None else words[here[1]] if here[1] < n else None
        candidates = self._tried.get((w, nxt, after))
        if candidates is None:
            candidates = self._candidates(w, nxt, after)
        best = None  # the first of the longest matches
        match = self._match
        subject_first = False
        article = w in _ARTICLES and v.at[k] > 0 and v.tokens[v.at[k] - 1].norm in _BEFORE_ARTICLE
        for phrase, absent in candidates:
            if article and phrase.words[0] == _SLOT and len(phrase.order) == 1:
                continue  # "c is a planet": the article, not object a
            m = match(phrase, v, k)
            if m and (best is None or m[0] > best[0]):
                best = (m[0], m[1], phrase.name, absent != m[2])
                subject_first = phrase.words[0] == _SLOT
        if best is not None and best[1] is not None:
            end, atom = best[0], best[1]
            if len(atom) == 2 and end + 1 < n and words[end] in _LIST and (
                    obj[end + 1] is not None or (words[end] == "," and words[end + 1] in _NOT
                                                 and end + 2 < n and obj[end + 2] is not None)):
                # a list: "Planet a, b and c"
                run = self._list_after(v, end, atom[0])
                if run:
                    return [best, *run]
            shared = self._shared_subject(v, end, atom) if len(atom) >= 2 and subject_first else []
            return [best, *shared]
        if after == "->" and self.arrow_predicate is not None:
            b = obj[here[1] + 1]  # type: ignore[index]
            if b:
                return [(b[1], (self.arrow_predicate, here[0], b[0]), self.arrow_predicate, False)]  # type: ignore[index]
        if best is None and w in self.predicate_plurals:
            pred = self.predicate_plurals[w]  # "Provinces: c, b.", "Planets a and c": each object listed has it
            hit = obj[k + 2] if k + 2 < n and nxt == ":" else obj[k + 1]
            if hit is None or self._fact_at_is_other(v, hit and (k + 2 if nxt == ":" else k + 1)):
                return []
            return [(hit[1], (pred, hit[0]), pred, False), *self._list_after(v, hit[1], pred)]
        if best is None and w in self.predicate_words:
            pred = self.predicate_words[w]
            if pred in self.task.domain.actions:
                return []
            hit = obj[k + 2] if k + 2 < n and nxt in (":", "(") else None
            second = obj[hit[1] + 1] if hit is not None and hit[1] + 1 < n and words[hit[1]] == "," else None
            if hit is not None and second is not None and self.arity.get(pred) == 2:
                end = second[1] + (second[1] < n and words[second[1]] == ")")
                return [(end, (pred, hit[0], second[0]), pred, False)]  # "Craves(c, a)"
            if hit is not None and self.arity.get(pred) == 1:
                end = hit[1] + (hit[1] < n and words[hit[1]] == ")")
                return [(end, (pred, hit[0]), pred, False)]  # "Planet: a", "Province (b)"
            return [(k + 1, None, pred, False)]
        if best is None and w in self.predicate_phrases:
            for rest, pred in self.predicate_phrases[w]:
                if tuple(words[k:k + len(rest)]) == rest:
                    return [(k + len(rest), None, pred, False)]  # "needs it to be on the table"
        return [] if best is None else [best]

    def _match(self, phrase: _Phrase, v: _View, k: int, subject: str | None = None) -> tuple[int, Atom | None, bool] | None:
        """A template read at `k`: where it ends, its atom and whether it was denied. With a
        `subject`, the template's first slot is that object, already read ("red is on the table
        and clear": "clear" goes on with red)."""
        words, obj = v.words, v.obj
        n = len(words)
        pos = k
        args: list[str] = []
        negated = False
        for i, w in enumerate(phrase.words):
            if w == _SLOT and i == 0 and subject is not None:
                args.append(subject)
            elif w == _SLOT:
                hit = obj[pos]
                if hit is None:
                    return None
                args.append(hit[0])
                pos = hit[1]
            elif pos < n and words[pos] == w:
                pos += 1
            elif (args or i) and pos + 1 < n and words[pos] in _NOT and words[pos + 1] == w:
                pos += 2  # "red is not clear": the fact, denied (FactMention.absent_word)
                negated = True
            elif (args or i) and pos + 2 < n and words[pos] == "no" and words[pos + 1] == "longer" and words[pos + 2] == w:
                pos += 3  # "red is no longer clear"
                negated = True
            elif pos < n and len(w) > 3 and words[pos].rstrip("s") == w:
                pos += 1  # "Provinces a and c"
            else:
                return None
        if not phrase.order:
            return pos, (phrase.name,), negated
        if phrase.reorder is not None:
            return pos, (phrase.name, *[args[i] for i in phrase.reorder]), negated
        return pos, (phrase.name, *args), negated

    def _shared_subject(self, v: _View, pos: int, atom: Atom) -> list[_Fact]:
        """Facts that go on with the same first object after "and" or a comma ("red is on the
        table and not clear", "red: on the table, clear"); a new object there starts a new fact."""
        words, obj = v.words, v.obj
        out: list[_Fact] = []
        subject = atom[1]
        while pos + 1 < len(words) and words[pos] in _LIST and obj[pos + 1] is None:
            nxt = words[pos + 1]
            if any(self._match(phrase, v, pos + 1) for key in {nxt, nxt.rstrip("s")}
                   for phrase, _ in self._fixed_first.get(key, ())):
                break  # "Province a, Planet a", "a craves b, planets c": a fact of its own
            best = None
            for phrase in self.slot_first:
                m = self._match(phrase, v, pos + 1, subject)
                if m and m[1] is not None and (best is None or m[0] > best[0]):
                    best = (m[0], m[1], phrase.name, m[2])
            if best is None:
                break
            out.append(best)
            pos = best[0]
        return out

    def _list_after(self, v: _View, pos: int, pred: str) -> list[_Fact]:
        words, obj = v.words, v.obj
        out: list[_Fact] = []
        while pos + 1 < len(words) and words[pos] in _LIST:
            denied = words[pos] == "," and words[pos + 1] in _NOT and pos + 2 < len(words) and obj[pos + 2] is not None
            hit = obj[pos + 1 + denied]  # "Province is c, not b": the list's object denied
            if hit is None or self._fact_at_is_other(v, pos + 1 + denied):
                break
            out.append((hit[1], (pred, hit[0]), pred, denied))
            pos = hit[1]
        return out

    def _fact_at_is_other(self, v: _View, k: int) -> bool:
        """"Planet a, b craves c": b starts a fact of its own, not the list."""
        here = v.obj[k]
        if here is not None:  # every slot-first template opens with an object
            e = here[1]
            for phrase in self._other_facts(v.words[e] if e < len(v.words) else None):
                if self._match(phrase, v, k):
                    return True
        return k + 2 < len(v.words) and v.words[k + 1] == "->"


_MODAL_BE = frozenset({"to", "must", "should", "will", "would"})
_BEFORE_BE = _MODAL_BE | {"has", "have"}


def _before_be(words: list[str], q: int, tokens: list[Token], n: int, heads: dict) -> bool:
    """Is word q one that stands before "be" where a fact's template has "is" ("to", "must",
    "should", "will", "would"; "has"/"have" of "has to be")? The fact reads as it would with "is". Not a modal
    after an action's verb ("the object being attacked must be a Province": no "attacked a")."""
    w = words[q]
    nxt = tokens[n + 1].norm if n + 1 < len(tokens) else None
    if w == "to":
        return nxt == "be"
    if q and words[q - 1] in heads:
        return False
    if w in _MODAL_BE:
        return nxt == "be"
    return w in ("has", "have") and nxt == "to" and n + 2 < len(tokens) and tokens[n + 2].norm == "be"


_COPULA_WORDS = frozenset({"gets", "got", "counts", "count", "counted", "as",  # "as" of "counts as"
                           "ends", "end", "ended", "winds", "wound", "up"})  # "up" of "ends up"
_UP_VERBS = frozenset({"ends", "end", "ended", "winds", "wound"})


def _copula(words: list[str], q: int, firsts: Collection[str]) -> bool:
    """Is word q a verb standing for "is" between an object and what is said of it ("red gets
    covered", "red counts as clear", "red ends up clear")? Not before an object ("Attack a gets
    Pain a")."""
    w = words[q]
    if w == "as":
        return q >= 2 and words[q - 1] in ("counts", "count", "counted") and words[q - 2] in firsts
    if w == "up":
        return q >= 2 and words[q - 1] in _UP_VERBS and words[q - 2] in firsts and q + 1 < len(words) \
            and words[q + 1] not in firsts
    if w in _UP_VERBS:
        return q >= 1 and words[q - 1] in firsts and q + 2 < len(words) and words[q + 1] == "up" \
            and words[q + 2] not in firsts
    if w not in _COPULA_WORDS or q == 0 or words[q - 1] not in firsts or q + 1 >= len(words):
        return False
    if w in ("gets", "got"):
        return words[q + 1] not in firsts
    return words[q + 1] == "as" and q + 2 < len(words) and words[q + 2] not in firsts


# An object named like an English article ("a") before a one-object predicate noun, after a word
# that takes a noun phrase ("is a planet", "have a province"), is the article.
_ARTICLES = frozenset({"a", "an"})
_BEFORE_ARTICLE = frozenset({"is", "was", "be", "are", "were", "as", "not", "have", "has", "had", "get", "gets",
                             "with", "need", "needs", "becomes", "become", "into", "like", "called"})


# Asides set off by commas between an object and what is said of it ("Red, on the other hand,
# isn't clear", "Province b, however, is gone"): read past, as the sentence reads without them.
ASIDES = (("on", "the", "other", "hand"), ("however",), ("though",), ("in", "turn"), ("of", "course"),
           ("by", "contrast"), ("in", "contrast"), ("for", "its", "part"), ("meanwhile",), ("again",))
ASIDES = tuple(tuple(w for w in aside if w not in SKIP) for aside in ASIDES)
ASIDE_FIRSTS = frozenset(aside[0] for aside in ASIDES)


def _without_asides(words: list[str], at: list[int]) -> tuple[list[str], list[int]]:
    """`words` (and their token indexes) without each ", <aside>," that follows a word."""
    k = 1
    while k < len(words):
        if words[k] == ",":
            for aside in ASIDES:
                end = k + 1 + len(aside)
                if tuple(words[k + 1:end]) == aside and end < len(words) and words[end] == ",":
                    del words[k:end + 1]
                    del at[k:end + 1]
                    break
        k += 1
    return words, at


def _unique(candidates: Iterable[_Candidate]) -> tuple[_Candidate, ...]:
    """The candidates in order, each template key once (the first copy, the one that can win)."""
    seen: set[tuple[tuple[str, ...], str, tuple[int, ...]]] = set()
    out = []
    for c in candidates:
        if c[0].key not in seen:
            seen.add(c[0].key)
            out.append(c)
    return tuple(out)
