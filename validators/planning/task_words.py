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
"""

from __future__ import annotations

from dataclasses import dataclass, field

from validators.planning.strips import Atom, GroundAction, Task
from validators.planning.vocab import Vocabulary
from validators.reading.text import Token, tokens_of

SKIP = frozenset({"the", "block", "blocks", "object", "objects", "top", "of", "is", "are", "was", "were", "be",
                  "'s", "currently"})
CONNECT = frozenset({"from", "on", "onto", "to", "at", "in", "into", "with", "off", "and", ","})
_SLOT = "\x00"


@dataclass(frozen=True, slots=True)
class ActionMention:
    i: int                       # token range in the unit
    j: int
    name: str
    args: tuple[str | None, ...]
    ground: GroundAction | None  # all objects named
    form: str = "base"           # "base", "ing", "ed": "after attacking a" names a done action


@dataclass(frozen=True, slots=True)
class FactMention:
    i: int
    j: int
    atom: Atom | None            # None: the predicate named without its objects ("Pain", "Province")
    predicate: str
    absent_word: bool = False    # a word for its absence ("red is covered": not clear)


def _forms(verb: str) -> dict[str, str]:
    out = {verb: "base", verb + "s": "base"}
    if verb.isalpha() and len(verb) >= 3:
        stem = verb[:-1] if verb.endswith("e") else verb
        if len(verb) == 3 and verb[1] in "aeiou" and verb[0] not in "aeiou" and verb[2] not in "aeiouwxy":
            stem = verb + verb[2]
        out.setdefault(stem + "ing", "ing")
        out.setdefault(verb + "d" if verb.endswith("e") else stem + "ed", "ed")
    return out


@dataclass
class _Phrase:
    words: tuple[str, ...]   # head words (a slot marks an object position inside a fact template)
    name: str
    order: tuple[int, ...]   # argument index of each slot
    particle: str | None = None


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
    arity: dict[str, int] = field(default_factory=dict)
    object_firsts: set[str] = field(default_factory=set)

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
                    tw._add_fact(t, pred)
            for t in vocab.phrasings.get("not " + pred, ()):
                tw._add_fact(t, pred, absent=True)
            word = [w for w in plain.split() if w not in SKIP]
            if word and word[0] not in CONNECT and len(word[0]) > 3:  # not "on", "in", "at": common words
                tw.predicate_words[word[0]] = pred
        binary_fluents = [p for p, n in arities.items() if n == 2 and p not in task.domain.static_predicates]
        if len(binary_fluents) == 1:
            tw.arrow_predicate = binary_fluents[0]
        return tw

    def _add_fact(self, template: str, pred: str, absent: bool = False) -> None:
        order: list[int] = []
        words: list[str] = []
        k = 0
        for piece in template.replace("{}", "\x01").replace("{0}", "\x02").replace("{1}", "\x03").split():
            if piece in ("\x01", "\x02", "\x03"):
                order.append(k if piece == "\x01" else int(piece == "\x03"))
                k += piece == "\x01"
                words.append(_SLOT)
                continue
            words += [t.norm for t in tokens_of(piece, 0, len(piece)) if t.norm not in SKIP]
        if not words:
            return
        phrase = _Phrase(tuple(words), pred, tuple(order))
        if absent:
            self.absent.append(phrase)
        elif words[0] == _SLOT:
            self.slot_first.append(phrase)
        else:
            self.fact_templates.setdefault(words[0], []).append(phrase)

    # -- matching on a unit's tokens -------------------------------------------------------
    def _object_at(self, words: list[str], k: int) -> tuple[str, int] | None:
        if k >= len(words) or words[k] not in self.object_firsts:
            return None
        for n in (3, 2, 1):
            hit = self.objects.get(tuple(words[k:k + n]))
            if hit is not None and k + n <= len(words):
                return hit, k + n
        return None

    def actions(self, tokens: list[Token]) -> list[ActionMention]:
        view = [(n, t) for n, t in enumerate(tokens) if t.norm not in SKIP]
        words = [t.norm for _, t in view]
        out: list[ActionMention] = []
        k = 0
        while k < len(words):
            entries = self.action_heads.get(words[k])
            got = None
            for rest, name, form, particle in entries or ():
                got = self._read_action(words, k, rest, name, form, particle) or got
                if got and got[1] is not None and all(a is not None for a in got[1]):
                    break
            if got is None:
                k += 1
                continue
            end, args, name, form = got
            i, j = view[k][0], view[end - 1][0] + 1
            ground = None
            if all(a is not None for a in args):
                try:
                    ground = self.task.ground(name, tuple(args))  # type: ignore[arg-type]
                except (KeyError, ValueError):
                    ground = None
            out.append(ActionMention(i, j, name, tuple(args), ground, form))
            k = end
        return out

    def _read_action(self, words: list[str], k: int, rest: tuple[str, ...], name: str, form: str,
                     particle: str | None) -> tuple[int, list[str | None], str, str] | None:
        pos = k + 1
        if words[pos:pos + len(rest)] == list(rest):
            pos += len(rest)
            particle = None
        elif not particle:
            return None
        arity = self.task.domain.actions[name].arity
        args: list[str | None] = []
        if pos < len(words) and words[pos] == "(":
            pos += 1
        while len(args) < arity and pos < len(words):
            hit = self._object_at(words, pos)
            if hit is not None:
                args.append(hit[0])
                pos = hit[1]
                if particle and pos < len(words) and words[pos] == particle:
                    pos += 1
                    particle = None
                continue
            if words[pos] in CONNECT and args:
                pos += 1
                continue
            if words[pos] in CONNECT and not args and words[pos] in ("to", "on", "from"):
                pos += 1  # "Succumb to b"
                continue
            break
        if particle:  # "put red down" needs its particle
            return None
        if pos < len(words) and words[pos] == ")":
            pos += 1
        args += [None] * (arity - len(args))
        return pos, args, name, form

    def facts(self, tokens: list[Token]) -> list[FactMention]:
        view = [(n, t) for n, t in enumerate(tokens) if t.norm not in SKIP]
        words = [t.norm for _, t in view]
        out: list[FactMention] = []
        k = 0
        while k < len(words):
            got = self._fact_at(words, k)
            if not got:
                k += 1
                continue
            for end, atom, pred, absent in got:
                out.append(FactMention(view[k][0], view[end - 1][0] + 1, atom, pred, absent))
            k = max(e for e, _, _, _ in got)
        return out

    def _fact_at(self, words: list[str], k: int) -> list[tuple[int, Atom | None, str, bool]]:
        w = words[k]
        best: list[tuple[int, Atom | None, str, bool]] = []
        candidates = [(p, False) for p in self.fact_templates.get(w, ())]
        if self._object_at(words, k) is not None:  # templates that open with an object
            candidates += [(p, True) for p in self.absent if p.words[0] == _SLOT] + [(p, False) for p in self.slot_first]
        candidates += [(p, True) for p in self.absent if p.words[0] == w]
        for phrase, absent in candidates:
            m = self._match(phrase, words, k)
            if m and (not best or m[0] > best[0][0]):
                best = [(m[0], m[1], phrase.name, absent != m[2])]
        if best and best[0][1] is not None:
            atom = best[0][1]
            if len(atom) == 2:  # a unary prefix predicate with a list: "Planet a, b and c"
                run = self._list_after(words, best[0][0], atom[0])
                if run:
                    return best + run
            return best
        if self.arrow_predicate is not None:
            a = self._object_at(words, k)
            if a and a[1] + 1 < len(words) and words[a[1]] == "->":
                b = self._object_at(words, a[1] + 1)
                if b:
                    return [(b[1], (self.arrow_predicate, a[0], b[0]), self.arrow_predicate, False)]
        if not best and w in self.predicate_words:
            pred = self.predicate_words[w]
            if pred in self.task.domain.actions:
                return []
            hit = self._object_at(words, k + 2) if k + 2 < len(words) and words[k + 1] in (":", "(") else None
            if hit is not None and self.arity.get(pred) == 1:
                end = hit[1] + (hit[1] < len(words) and words[hit[1]] == ")")
                return [(end, (pred, hit[0]), pred, False)]  # "Planet: a", "Province (b)"
            return [(k + 1, None, pred, False)]
        return best

    def _match(self, phrase: _Phrase, words: list[str], k: int) -> tuple[int, Atom | None, bool] | None:
        pos = k
        args: list[str] = []
        negated = False
        for w in phrase.words:
            if w == _SLOT:
                hit = self._object_at(words, pos)
                if hit is None:
                    return None
                args.append(hit[0])
                pos = hit[1]
            elif pos < len(words) and words[pos] == w:
                pos += 1
            elif args and pos + 1 < len(words) and words[pos] in ("not", "isn't", "aren't", "no") and words[pos + 1] == w:
                pos += 2  # "red is not clear": the fact, denied (FactMention.absent_word)
                negated = True
            elif pos < len(words) and words[pos].rstrip("s") == w and len(w) > 3:
                pos += 1  # "Provinces a and c"
            else:
                return None
        if not phrase.order:
            return pos, (phrase.name,), negated
        ordered = [args[i] for i in phrase.order] if len(set(phrase.order)) == len(args) else args
        return pos, (phrase.name, *ordered), negated

    def _list_after(self, words: list[str], pos: int, pred: str) -> list[tuple[int, Atom | None, str, bool]]:
        out = []
        while pos + 1 < len(words) and words[pos] in (",", "and", "&"):
            hit = self._object_at(words, pos + 1)
            if hit is None or (pos + 1 < len(words) and self._fact_at_is_other(words, pos + 1)):
                break
            out.append((hit[1], (pred, hit[0]), pred, False))
            pos = hit[1]
        return out

    def _fact_at_is_other(self, words: list[str], k: int) -> bool:
        """"Planet a, b craves c": b starts a fact of its own, not the list."""
        for phrase in self.slot_first:
            if self._match(phrase, words, k):
                return True
        return k + 2 < len(words) and words[k + 1] == "->"
