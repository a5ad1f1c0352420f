"""Facts as models write them in thinking text, read into ground atoms of the task.

"Province(b)", "Pain object (a)", "Province b", "Planets a and c", "Province is b", "b craves
c", "craves(b, c)", "object b craves object c", "the red block is clear", "Harmony": each
predicate's PlanBench template (vocab.py) is turned into a pattern in which "the" and
"object"/"block" are optional, a prefix predicate ("province {}") may take a list of objects,
and the PDDL name may be used call style. Polarity comes from the words around a mention
("no Harmony", "Province a (no", "Planet c is gone", "(yes)").

Only mentions that resolve to an object of the task become atoms: "Province (other)" or
"Pain x" are rule talk, not claims about a state, and are skipped.
"""

from __future__ import annotations

import re
import bisect
from dataclasses import dataclass

from core.gates import Gated, Scan
from validators.planning.extract import Lexicon
from validators.planning.strips import Atom

_TAG_NEG = re.compile(r"^\s*(?:\)\s*)?(?:\(\s*(?:no|not|false|removed|gone|missing|absent|none)\s*(?:[,;:)\-–—]|$)|(?:\?\s*)?(?:→|->)\s*(?:no|false)\b"
                      r"|:\s*(?:no|false)\b|\s-\s*(?:no|false)\b)", re.I)
_TAG_POS = re.compile(r"^\s*(?:\(\s*(?:yes|present|true|still|ok)\b|(?:→|->)\s*(?:yes|true|ok)\b|:\s*(?:yes|true)\b"
                      r"|\s-\s*(?:yes|true)\b|\s*[✓✔])", re.I)
# "was not touched", "isn't affected": the fact was left alone, so it still holds (review of
# unannotated R1 traces: "the initial c craves b was not touched yet. So c craves b is still true.")
_UNCHANGED = r"(?!\s+(?:yet\s+|been\s+)?(?:touched|changed|affected|modified|removed|deleted|moved|altered|disturbed|consumed|used|involved))"
_VERB_NEG = re.compile(
    r"^\s*(?:(?:is|are|was|were|has been|have been|gets?|got)\s+(?:now\s+|also\s+|then\s+|already\s+)?"
    r"(?:gone|removed|deleted|not\b" + _UNCHANGED + r"|no longer|false|missing|absent|consumed|lost)"
    r"|(?:isn't|aren't|wasn't|weren't)" + _UNCHANGED + r"|no longer\b|(?:removed|gone|deleted)\b(?!\s+(?:from|by)\b))", re.I)
_VERB_POS = re.compile(r"^\s*(?:(?:is|are|was|were)\s+(?:also\s+)?(?:still\s+)?(?:present|true|there|available)\b|exists?\b|remains?\b"
                       r"|(?:is|are)\s+(?:also\s+)?still\b)", re.I)
_VERB_ADD = re.compile(r"^\s*(?:(?:is|are|was|were|gets?|get)\s+(?:now\s+|also\s+|then\s+)?(?:added|created|restored|set)|added\b)",
                       re.I)
_NEG_BEFORE = re.compile(r"(?:\bno|\bnot|\bwithout|n't have|\bnor|\blacks?|\blacking|\bminus)\s+(?:the\s+|any\s+)?"
                         r"(?:(?:[A-Za-z]+\s*,\s*){0,3}[A-Za-z]+,?\s+(?:or|nor)\s+)?$", re.I)


_NEG_WORDS = Gated(re.compile(r"\bno\b|\bnot\b|without|n't|\bnor\b|lack|minus", re.I))


def _negated_before(before: str) -> bool:
    return bool(_NEG_WORDS.search(before)) and bool(_NEG_BEFORE.search(before))


_NO_BEFORE = Gated(re.compile(r"\bno\s+$", re.I))
_PAST_REMOVAL = re.compile(r"^\s*(?:was|were|had been)\s+(?:already\s+)?(?:removed|deleted|consumed|lost|gone)"
                           r"(?:\s+(?:earlier|before|already|previously|in step|by step|after step))", re.I)
_REMOVAL = re.compile(r"^\s*(?:(?:is|are|was|were|has been|have been|gets?|got)\s+"
                      r"(?:now\s+|also\s+|then\s+|already\s+)?)?(?:removed|deleted|consumed|lost|gone)", re.I)
_HEAD_WORD = re.compile(r"[^\s(]+")
_STILL = re.compile(r"\b(?:still|(?:is|are) now)\b", re.I)
_NOW_AFTER = re.compile(r"\s+now\b(?!\s+(?:that|we|i|you|it)\b)", re.I)


@dataclass(frozen=True)
class FactIndex:
    """Raw fact matches of one text, sorted by start (see FactReader.index)."""

    found: list[tuple[int, int, tuple[str, ...]]]
    starts: list[int]
    bare: list[tuple[int, int, str]]
    bare_starts: list[int]
    denied: frozenset[tuple[int, int]] = frozenset()  # matches whose own words deny the fact ("orange is not clear")
    opposite: frozenset[tuple[int, int]] = frozenset()  # matches of a word for the fact's absence ("red is covered")


@dataclass(slots=True)
class FactMention:
    """One atom named in the text; `negated`: the words around it say it does not hold. Not
    frozen: a trace has thousands, and a frozen dataclass is built 3x slower (never changed
    after `find`)."""

    span: tuple[int, int]
    atom: Atom
    negated: bool
    tagged: bool  # an explicit yes/no beside it ("Province a (no, ...)", "Harmony (yes)")
    verb: str | None = None  # "add" / "del": its own verb says it was added or removed; "state": present/absent
    exclusive: bool = False  # "Province is b": b is the only object with a Province


_GAP = r"(?:\s+|\s*(?=\())"
# "Red, however, is still not clear", "Blue, though, is on the table": an aside between an
# object and its "is" (the fourth planted-claims set)
ASIDE = r"\s*,\s*(?:however|though|too|also|then|meanwhile|in turn|of course|at least),\s*"
_GAP_IS = rf"(?:\s+|{ASIDE})"
_NUMBERED_SLOT = re.compile(r"\{\d\}")
_IS_PIECE = "(?:is|are)"


def _template_regex(template: str, obj: str, short_on: bool = False) -> tuple[str, int, bool]:
    """A template ("{} craves {}", "the {} is clear") -> regex with one group per object; also
    its arity and whether it is a prefix form ("planet {}") that may take a list of objects.
    `short_on`: the form models write for "the {} is on top of the {}": "blue is on red", led by
    the object (so a scan can go from one object name to the next, core/gates.py)."""
    words = template.split()
    if short_on:
        words = words[1:] if words and words[0].lower() == "the" else words
    arity = sum(1 for w in words if w in ("{}", "{}'s", "{}’s") or _NUMBERED_SLOT.fullmatch(w))
    prefix = len(words) == 2 and words[-1] == "{}"
    pieces: list[tuple[str, bool]] = []
    n = 0
    skip = 0
    for i, w in enumerate(words):
        low = w.lower()
        if skip:
            skip -= 1
            continue
        if short_on and low == "on" and [x.lower() for x in words[i + 1:i + 3]] == ["top", "of"]:
            pieces.append(("on", False))
            skip = 2
        elif w == "{}" and short_on and n == 0:
            pieces.append((rf"(?P<o{n}>{obj})", False))
            n += 1
        elif w == "{}":
            pieces.append((rf"(?:(?:object|block)\s+)?\(?\s*(?P<o{n}>{obj})\s*\)?", False))
            n += 1
        elif w in ("{}'s", "{}’s"):
            # "removes red's clear status": the object with a possessive
            pieces.append((rf"(?:(?:object|block)\s+)?(?P<o{n}>{obj})['’]s", False))
            n += 1
        elif _NUMBERED_SLOT.fullmatch(w):
            # "{1} is under {0}": the slot names the argument it fills (phrasings.json)
            pieces.append((rf"(?:(?:object|block)\s+)?\(?\s*(?P<o{w[1]}>{obj})\s*\)?", False))
        elif low == "the":
            pieces.append((r"(?:the\s+)?", True))
        elif low in ("is", "are"):
            # "orange is not clear", "red is no longer clear", "blue isn't on red": the same fact, denied
            pieces.append((_IS_PIECE + r"(?:\s+(?:still|now|currently))?(?P<neg>n't|\s+not|\s+no\s+longer)?\s+(?:still\s+|now\s+|currently\s+)?", True))
        elif low == "currently":
            pieces.append((r"(?:currently\s+)?", True))
        elif pieces and "(?P<o" in pieces[-1][0] and w.isalpha() and not any(x.lower() in ("is", "are") for x in words):
            # "c still craves a", "c no longer craves a": an adverb between an object and the
            # template's own verb
            pieces.append((r"(?:(?:still|now|also|then)\s+|(?P<neg>no\s+longer)\s+)?" + re.escape(w), False))
        else:
            pieces.append((re.escape(w) + (r"s?" if prefix and i == 0 else ""), False))
    regex = ""
    for i, (piece, optional) in enumerate(pieces):
        regex += piece
        if not optional and i < len(pieces) - 1:
            regex += _GAP_IS if "(?P<o" in piece and pieces[i + 1][0].startswith(_IS_PIECE) else _GAP
    return regex, arity, prefix


_RUN_SEP = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.I)
_RUN_NEG = re.compile(r"(?:(?:not|no\s+longer)\s+)?", re.I)
_NAMED = re.compile(r"\(\?P<\w+>")


def _subject_run(predicates: dict[str, str], arity_of: dict[str, int], obj: str,
                 phrasings: dict[str, tuple[str, ...]] | None = None
                 ) -> tuple[list[re.Pattern[str]], list[tuple[re.Pattern[str], str, int, bool]]]:
    """One object said to have several properties ("Red is on the table and clear", "Blue: on
    red, clear"): the properties of templates led by the object ("the {} is clear", "the {} is on
    top of the {}") as tails that share it. Returns the runs' patterns (none when no template is
    so led) and each tail's own pattern, predicate and number of objects it names, in the order
    the run's alternation tries them."""
    tails: list[tuple[str, str, int, bool]] = []
    templates = [(pred, template, False) for pred, template in predicates.items()]
    for key, more in (phrasings or {}).items():
        templates += [(key[4:], t, True) if key.startswith("not ") else (key, t, False) for t in more]
    for pred, template, absent in templates:
        words = template.split()
        if words[:1] == ["the"]:
            words = words[1:]
        if len(words) < 3 or words[0] != "{}" or words[1].lower() not in ("is", "are"):
            continue
        rest = words[2:]
        forms = [rest]
        if [w.lower() for w in rest[:3]] == ["on", "top", "of"]:
            forms.append(["on", *rest[3:]])  # "Blue: on red" for "on top of"
        for form in forms:
            if form.count("{}") + 1 != arity_of.get(pred, template.count("{}")):
                continue
            body, slots, _ = _template_regex(" ".join(form), obj)
            tails.append((body, pred, slots, absent))
    if not tails:
        return [], []
    tails.sort(key=lambda t: -len(t[0]))  # "on top of the {}" before "on the {}"
    any_tail = "(?:" + "|".join(_NAMED.sub("(?:", t[0]) for t in tails) + r")(?![\w\-])"
    run = (rf"(?<![\w\-])(?P<s>{obj})(?:(?P<is>(?:\s+|{ASIDE})(?:is|are)(?:\s+(?:now|still|currently|also))?\s+)|\s*:\s*)"
           rf"(?P<t>){_RUN_NEG.pattern}{any_tail}(?:(?:{_RUN_SEP.pattern}){_RUN_NEG.pattern}{any_tail})*")
    # "makes red not clear", "leaving blue on the table and clear": the object a result is said of
    result = (rf"(?<![\w\-])(?:makes?|making|leaves?|leaving|keeps?|keeping|puts|places|placing)\s+(?:the\s+)?(?P<rs>{obj})\s+(?P<rt>)"
              rf"{_RUN_NEG.pattern}{any_tail}(?:(?:{_RUN_SEP.pattern}){_RUN_NEG.pattern}{any_tail})*")
    # two patterns, each led by literal words (object names; the verbs), so each is scanned from one
    # occurrence of them to the next (core/gates.py), not tried at every position
    return ([re.compile(run, re.I), re.compile(result, re.I)],
            [(re.compile(body + r"(?![\w\-])", re.I), pred, slots, absent) for body, pred, slots, absent in tails])


_SHARED: dict[tuple, "FactReader"] = {}
_SHARED_MAX = 256


class FactReader:
    """Finds fact mentions for one task and vocabulary (one for all tasks that word facts and
    objects alike: `shared`)."""

    @classmethod
    def shared(cls, lexicon: Lexicon) -> "FactReader":
        """The reader of every task whose words for facts and objects are the same: what it
        reads depends only on the vocabulary's templates, the domain's predicates and the
        lexicon's object names, and building its patterns' scans costs more than reading a
        trace of a few KB (a corpus of R1 traces has one problem a trace, most of them naming
        the same three blocks)."""
        task, vocab = lexicon.task, lexicon.vocab
        key = (tuple(sorted(vocab.predicates.items())), tuple(sorted(vocab.phrasings.items())),
               tuple(sorted((p, repr(a)) for p, a in task.domain.predicates.items())),
               tuple(sorted(lexicon.lookup.items())), tuple(sorted(task.objects)))
        reader = _SHARED.get(key)
        if reader is None:
            if len(_SHARED) >= _SHARED_MAX:
                _SHARED.pop(next(iter(_SHARED)))
            reader = _SHARED[key] = cls(lexicon)
        return reader

    def __init__(self, lexicon: Lexicon) -> None:
        self.lex = lexicon
        task, vocab = lexicon.task, lexicon.vocab
        mentions = sorted(lexicon.lookup, key=len, reverse=True)
        obj = "|".join(r"[\s_]+".join(map(re.escape, m.split(" "))) for m in mentions) or r"(?!)"
        self._obj = obj
        self.patterns: list[tuple[re.Pattern[str], str, int, bool]] = []
        self._exclusive: set[str] = set()
        self._is_form: dict[str, re.Pattern[str]] = {}
        arity_of = task.domain.predicates
        for pred, template in vocab.predicates.items():
            if template.count("{}") != arity_of.get(pred, template.count("{}")):
                continue
            body, arity, prefix = _template_regex(template, obj)
            if prefix:
                word = re.escape(template.split()[0])
                infix = "|".join(re.escape(t.split()[1]) for t in vocab.predicates.values()
                                 if t.count("{}") == 2 and len(t.split()) == 3 and t.split()[0] == "{}") or "(?!)"
                one = rf"(?:(?:object|block)\s+)?\(?\s*(?:{obj})\s*\)?(?!\s*(?:(?:{infix})\b|→|->))"
                listed = rf"{word}s?{_GAP}{one}(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*){one})*"
                self.patterns.append((re.compile(rf"(?<![\w\-]){listed}(?![\w\-])", re.I), pred, arity, True))
                is_form = rf"{word}\s+(?:is|are)\s+(?:now\s+|currently\s+|still\s+|only\s+)?(?:on\s+)?(?:object\s+)?(?P<o0>{obj})(?![\w\-])"
                self._is_form[pred] = re.compile(rf"(?<![\w\-]){is_form}", re.I)
                self.patterns.append((re.compile(rf"(?<![\w\-]){is_form}", re.I), pred, arity, False))
                self._exclusive.add(pred)
            else:
                self.patterns.append((re.compile(rf"(?<![\w\-]){body}(?![\w\-])", re.I), pred, arity, False))
                if " on top of " in f" {template.lower()} ":
                    short, _, _ = _template_regex(template, obj, short_on=True)
                    self.patterns.append((re.compile(rf"(?<![\w\-]){short}(?![\w\-])", re.I), pred, arity, False))
                words = template.split()
                if arity == 1 and words[-1] == "{}" and words[-2].isalpha() and words[-2].lower() not in ("the", "is"):
                    tail = rf"{re.escape(words[-2])}\s+(?:the\s+)?(?P<o0>{obj})(?![\w\-])"
                    self.patterns.append((re.compile(rf"(?<![\w\-]){tail}", re.I), pred, arity, False))
            call = rf"{re.escape(pred)}\s*\(\s*(?P<o0>{obj})" + "".join(
                rf"\s*,\s*(?P<o{i}>{obj})" for i in range(1, arity)) + r"\s*\)" if arity else None
            if call:
                self.patterns.append((re.compile(rf"(?<![\w\-]){call}", re.I), pred, arity, False))
        self._opposite: set[int] = set()  # indexes of patterns that say the fact does not hold ("not clear": "red is covered")
        for key, templates in vocab.phrasings.items():
            pred = key[4:] if key.startswith("not ") else key
            for template in templates:
                if len(re.findall(r"\{\d?\}", template)) != arity_of.get(pred, -1):
                    continue  # a phrasing of a predicate the domain does not have, or of another arity
                body, arity, _ = _template_regex(template, obj)
                if pred != key:
                    self._opposite.add(len(self.patterns))
                self.patterns.append((re.compile(rf"(?<![\w\-]){body}(?![\w\-])", re.I), pred, arity, False))
        self._subject_runs_re, self._tails = _subject_run(vocab.predicates, arity_of, obj, vocab.phrasings)
        arrow_pattern = None
        verbs = [t.split()[1] for p, t in vocab.predicates.items() if t.count("{}") == 2 and len(t.split()) == 3
                 and t.split()[0] == t.split()[2] == "{}" and t.split()[1].lower() not in ("is", "on", "at", "in")]
        if len(verbs) == 1:
            # "a→c" for "a craves c": the one relation between two objects a model can abbreviate so.
            pred = next(p for p, t in vocab.predicates.items() if t.split()[1:2] == verbs)
            arrow = rf"(?<![\w\-])(?P<o0>{obj})\s*(?:→|->)\s*(?P<o1>{obj})(?![\w\-])"
            arrow_pattern = re.compile(arrow, re.I)
            self.patterns.append((arrow_pattern, pred, 2, False))
        bare = [t.split()[0] for t in vocab.predicates.values() if len(t.split()) == 2 and t.split()[1] == "{}"]
        self._bare = re.compile(
            rf"(?<![\w\-])(?P<p>{'|'.join(map(re.escape, bare))})s?(?![\w\-])(?!\s*(?:object\s+)?\(?\s*(?:{obj})(?![\w\-]))",
            re.I) if bare else None
        self._bare_pred = {t.split()[0].lower(): p for p, t in vocab.predicates.items()
                           if len(t.split()) == 2 and t.split()[1] == "{}"}
        self._one_obj = re.compile(rf"(?<![\w\-])({obj})(?![\w\-])", re.I)
        # Most patterns start with a predicate's word ("province", "craves("): scanned from one
        # occurrence of it to the next, not position by position (same matches, core/gates.py).
        # "a→c" needs only an arrow, found everywhere, but the run of object letters before each
        # arrow is short: scanned from arrow to arrow (8x faster than every position).
        self._scans = [Scan(pattern, short_needs=pattern is arrow_pattern) for pattern, *_ in self.patterns]
        self._bare_scan = Scan(self._bare) if self._bare is not None else None
        self._run_scans = [Scan(p) for p in self._subject_runs_re]
        self._objects: dict[str, str | None] = {}

    def _object_of(self, token: str) -> str | None:
        """`Lexicon.object_of`, remembered: a trace names the same few objects thousands of times."""
        if token not in self._objects:
            self._objects[token] = self.lex.object_of(token)
        return self._objects[token]

    def index(self, text: str) -> "FactIndex":
        """Every raw match in the whole text at once (the patterns run in C over the text, not
        once per sentence); `find` then reads the ones inside a sentence."""
        found: list[tuple[int, int, Atom]] = []
        low = text.lower()
        denied: set[tuple[int, int]] = set()
        opposite: set[tuple[int, int]] = set()
        for k_pattern, (scan, (pattern, pred, arity, listed)) in enumerate(zip(self._scans, self.patterns)):
            negatable = "neg" in pattern.groupindex
            says_absent = k_pattern in self._opposite
            for m in scan.finditer(text, low):
                if listed:
                    head_end = _HEAD_WORD.match(text, m.start(), m.end()).end()
                    for k, om in enumerate(self._one_obj.finditer(text, head_end, m.end())):
                        arg = self._object_of(om.group(1))
                        if arg:
                            found.append((m.start() if k == 0 else om.start(), om.end(), (pred, arg)))
                    continue
                args = []
                for i in range(arity):
                    arg = self._object_of(m.group(f"o{i}"))
                    if arg is None:
                        break
                    args.append(arg)
                else:
                    found.append((m.start(), m.end(), (pred, *args)))
                    if negatable and m.group("neg"):
                        denied.add((m.start(), m.end()))
                    if says_absent:
                        opposite.add((m.start(), m.end()))
        for scan in self._run_scans:
            self._subject_runs(scan, text, low, found, denied, opposite)
        bare: list[tuple[int, int, str]] = []
        if self._bare_scan is not None:
            bare = [(m.start(), m.end(), self._bare_pred[m.group("p").lower()]) for m in self._bare_scan.finditer(text, low)]
        found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
        return FactIndex(found, [f[0] for f in found], bare, [b[0] for b in bare], frozenset(denied), frozenset(opposite))

    def _subject_runs(self, scan: Scan, text: str, low: str, found: list[tuple[int, int, Atom]],
                      denied: set[tuple[int, int]], opposite: set[tuple[int, int]]) -> None:
        """The properties a run gives its object, each as a match of its own words ("clear" in
        "Red is on the table and clear"). After "is", the first one is the template's own match
        (found already); after "is not" the others are left out ("Red is not clear and on the
        table" may deny both)."""
        for m in scan.finditer(text, low):
            result = "rs" in m.re.groupindex
            subject = self._object_of(m.group("rs") if result else m.group("s"))
            if subject is None:
                continue
            pos, end, first = m.start("rt" if result else "t"), m.end(), True
            after_is = not result and m.group("is") is not None
            while pos < end:
                if not first:
                    sep = _RUN_SEP.match(text, pos, end)
                    if sep is None:
                        break
                    pos = sep.end()
                neg = _RUN_NEG.match(text, pos, end)
                pos = neg.end()
                if first and neg.group() and after_is:
                    break
                for tail, pred, slots, absent in self._tails:
                    tm = tail.match(text, pos, end)
                    if tm is not None:
                        break
                else:
                    break
                args = [subject]
                for i in range(slots):
                    arg = self._object_of(tm.group(f"o{i}"))
                    if arg is None:
                        break
                    args.append(arg)
                if len(args) == slots + 1 and not (first and after_is):
                    found.append((tm.start(), tm.end(), (pred, *args)))
                    if absent:
                        opposite.add((tm.start(), tm.end()))
                    if neg.group() and not result:
                        denied.add((tm.start(), tm.end()))  # "Red is on the table and not clear": a state
                    # after "makes", the "not" before it is read with the fact, and the verb's cue decides
                pos, first = tm.end(), False

    def _opposite_of(self, text: str, lo: int, hi: int, start: int, end: int, atom: Atom, denied: bool) -> FactMention:
        """A mention in words that say the fact does not hold ("red is covered", "leaves red
        covered"): read as the fact, with the opposite sense ("red is not covered": clear)."""
        index = FactIndex([(start, end, atom)], [start], [], [], frozenset({(start, end)}) if denied else frozenset())
        mention = self.find(text, lo, hi, index)[0]
        mention.negated = not mention.negated
        return mention

    def find(self, text: str, lo: int, hi: int, index: "FactIndex | None" = None) -> list[FactMention]:
        """Every fact mention in text[lo:hi], in order, longest match first where they overlap."""
        index = index or self.index(text[:hi])
        i = bisect.bisect_left(index.starts, lo)
        found = [f for f in index.found[i:bisect.bisect_left(index.starts, hi, i)] if f[1] <= hi]
        # "Province is gone", "no Planet": a claim that no object has it.
        i = bisect.bisect_left(index.bare_starts, lo)
        some_bare = False
        for start, end, pred in index.bare[i:bisect.bisect_left(index.bare_starts, hi, i)]:
            if end > hi:
                continue
            after = text[end:min(hi, end + 40)]
            before = text[max(lo, start - 40):start]
            if _VERB_NEG.match(after) or _NO_BEFORE.search(before):
                found.append((start, end, (pred, "*")))
                some_bare = True
        if some_bare:  # the index's own matches are already in this order
            found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
        out: list[FactMention] = []
        seen: set[tuple[int, Atom]] = set()
        for start, end, atom in found:
            if (start, atom) in seen or out and any(o.atom == atom and o.span[0] <= start < o.span[1] for o in out):
                continue
            seen.add((start, atom))
            denied = (start, end) in index.denied
            if index.opposite and (start, end) in index.opposite:
                out.append(self._opposite_of(text, lo, hi, start, end, atom, denied))
                continue
            while start < end and text[start] in " \t(":
                start += 1
            after = text[end:min(hi, end + 40)]
            exclusive = atom[0] in self._is_form and bool(self._is_form[atom[0]].fullmatch(text, start, end))
            if denied:
                # "orange is not clear": denied in its own words; only a tag beside it can say more
                tag_neg, tag_pos = bool(_TAG_NEG.match(after)), bool(_TAG_POS.match(after))
                out.append(FactMention((start, end), atom, not tag_pos, tag_neg or tag_pos, "state", exclusive))
                continue
            before = text[max(lo, start - 40):start]
            if after.lstrip(" \t")[:1] in (",", ".", ";", "") or after[:1] == "\n":
                # nothing said right after it: only a negation before it can change its sense;
                # "still" in its own words says it is a fact of the state now ("blue is still on red")
                out.append(FactMention((start, end), atom, _negated_before(before), False,
                                       "state" if not exclusive and _STILL.search(text, start, end) else None, exclusive))
                continue
            tag_neg, tag_pos = bool(_TAG_NEG.match(after)), bool(_TAG_POS.match(after))
            if (tag_neg or tag_pos) and "?" in after.split(")", 1)[0]:
                tag_neg = tag_pos = False  # "Province a (still present?)" asks, it does not claim
            verb_neg = not (tag_neg or tag_pos) and bool(_VERB_NEG.match(after))
            verb_pos = not (tag_neg or tag_pos) and bool(_VERB_POS.match(after))
            verb_add = not (tag_neg or tag_pos) and bool(_VERB_ADD.match(after))
            negated = tag_neg or verb_neg or (not (tag_pos or verb_pos or verb_add) and _negated_before(before))
            past = _PAST_REMOVAL.match(after)
            verb = "state" if past else "del" if verb_neg and _REMOVAL.match(after) else ("add" if verb_add else None)
            if verb is None and (verb_neg or verb_pos or (not exclusive and not tag_neg and not tag_pos and (
                    _NOW_AFTER.match(after) or _STILL.search(text, start, end)))):
                verb = "state"  # "Red is clear now as well", "Blue is now on the table next to red"
            out.append(FactMention((start, end), atom, negated, tag_neg or tag_pos, verb, exclusive))
        return out
