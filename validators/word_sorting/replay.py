"""The `word_sorting` replay: BIG-Bench's "sort the following words alphabetically".

BIG-Bench Mistake's chains sort by buckets: the first letter of every word with its alphabet
position ('"kitten": "k" (11)'), a partial order of buckets ('(2) ["being" ? "bellyache"] < (3)
"cider"'), then each tied bucket sorted by its next letter ("Now let's sort this subpart [...]
by looking at their second letters", "We now have: ... for the subpart. Hence, we have ..."),
and the answer. Every claim is a set of facts about the words of the input, judged by the
words alone:

* a letter claim: the k-th letter of the word and that letter's position (`wrong_letter`);
* a bucket's number: the position of its words' k-th letter (`wrong_position`);
* every "<" between two buckets: each word of the left one sorts before each word of the right
  one (`wrong_order`); words in one bracket are left unordered, which is never false;
* the words themselves: a chain over the whole list, or the answer, must hold exactly the
  input's words, a sub-sort exactly its subpart's (`word_dropped`, `word_added`);
* "I have now sorted all the words": false while the trace's last order still holds a bracket it
  never sorted (`subpart_left_unsorted`), even when the answer then orders those words rightly.

A false fact that the trace asserted before, or an order or position that follows from the
trace's own earlier letter claims, is a consequence of the step that first made it
(`consequence_of`); a step all of whose false facts are such is a consequence, so each error has
one root. The answer is right when it is the input's words in sorted order.

Reading (validators/reading): each step is segmented by `read_text` and every claim is read
from its unit (a sentence), without markdown emphasis ('**"kitten": "k" (11)**', backticks);
letter claims are those in the units from the "The k-th letter:" head on, and the spans (in the
step's text) of the units read are kept in `states[step]["claims"]`. The bucket notation ('(2)
["being" ? "bellyache"] < (3) "cider"', '"kitten": "k" (11)') stays this package's grammar,
matched on the unit's text: its quotes and "?" placeholders are no tokens of the layer.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from core.record import TraceRecord
from core.verdicts import AnswerError, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.base import DomainSpec, Replay
from validators.reading.text import read_text, without_emphasis

VERSION = "2"
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth")
_ORDINAL = "|".join(ORDINALS)
_LETTER_HEAD = re.compile(rf"\bThe ({_ORDINAL}) letters?\s*:", re.I)
_LETTER = re.compile(r'"([^"]+)"\s*:\s*"([^"]*)"\s*\((\d+)\)')
_SUBPART = re.compile(rf"sort this subpart\s*\[(?P<words>[^\]]*)\]\s*by looking at their ({_ORDINAL}) letters?", re.I)
_WE_NOW = re.compile(r"We now have\s*:\s*(?P<chain>.*?)(?:\s*for the subpart)?\s*(?:\.\s*Hence|\.?\s*$)", re.I | re.S)
_HENCE = re.compile(r"Hence,?\s*we have\s*:?\s*(?P<chain>.*?)\.?\s*$", re.I | re.S)
_ANSWER = re.compile(r"The answer is\s*:?\s*(?P<words>.*?)\.?\s*$", re.I | re.S)
_ITEM = re.compile(r'\s*(?:\((?P<num>\d+)\)\s*)?(?:\[(?P<group>.*)\]|"(?P<word>[^"]*)")\s*')  # nested brackets: one bucket
_QUOTED = re.compile(r'"([^"]*)"')
_ALL_SORTED = re.compile(r"\b(?:sorted all (?:the |of the )?words|all (?:the |of the )?words are (?:now )?sorted)\b", re.I)
_PROMPT = re.compile(r"^\s*(?:Sort the following words alphabetically\s*:?\s*)?(?:List\s*:\s*)?(?P<words>[a-z][a-z'&.-]*(?:\s+[a-z][a-z'&.-]*)+)\s*$", re.S)


def position(letter: str) -> int | None:
    """The alphabet position of a lowercase letter (a = 1)."""
    return ord(letter) - 96 if len(letter) == 1 and "a" <= letter <= "z" else None


def read_words(problem: dict) -> list[str] | None:
    text = problem.get("input") or problem.get("question") or ""
    if not isinstance(text, str):
        return None
    m = _PROMPT.match(text)
    return m.group("words").split() if m else None


def recognise(problem: dict) -> bool:
    """An input that is nothing but lowercase words (after an optional "List:")."""
    return read_words(problem) is not None


@dataclass(frozen=True)
class Bucket:
    """One item of a chain: its number (a letter position, when given) and its words."""

    number: int | None
    words: tuple[str, ...]


def read_chain(text: str) -> list[Bucket] | None:
    """'(2) ["a" ? "b"] < (3) "c"' as buckets; None when the text is no such chain."""
    buckets: list[Bucket] = []
    for part in text.split("<"):
        m = _ITEM.fullmatch(part)
        if m is None:
            return None
        words = tuple(_QUOTED.findall(m.group("group"))) if m.group("group") is not None else (m.group("word"),)
        buckets.append(Bucket(int(m.group("num")) if m.group("num") else None, words))
    return buckets or None


def refine(words: tuple[str, ...], k: int) -> list[tuple[str, ...]]:
    """The buckets of `words` by their k-th letter (a word without one first), in order."""
    groups: dict[str, list[str]] = {}
    for w in words:
        groups.setdefault(w[k - 1] if len(w) >= k else "", []).append(w)
    return [tuple(groups[c]) for c in sorted(groups)]


@dataclass
class _Bucket:
    words: tuple[str, ...]
    depth: int  # how many first letters its words are known to share

    @property
    def open(self) -> bool:
        return len(set(self.words)) > 1


@dataclass
class _Run:
    """The bucket sort replayed (`truth`), the chain the trace last claimed, and its false facts so far."""

    words: list[str]
    truth: list[_Bucket] = field(default_factory=list)
    claimed: list[tuple[str, ...]] = field(default_factory=list)
    false_facts: dict[tuple, int] = field(default_factory=dict)
    letters: dict[tuple[str, int], tuple[str, int, int | None]] = field(default_factory=dict)
    k: int = 1
    scope: tuple[str, ...] = ()
    root: int | None = None
    verdicts: list[StepVerdict] = field(default_factory=list)
    slips: dict[str, str | None] = field(default_factory=dict)  # a word not in the input -> the one it miscopies
    states: dict[int, dict] = field(default_factory=dict)

    def next_open(self) -> _Bucket | None:
        return next((b for b in self.truth if b.open), None)

    def sort_scope(self) -> None:
        """Refine the true bucket the trace is sorting, when it is one."""
        for i, b in enumerate(self.truth):
            if set(b.words) == set(self.scope) and len(b.words) == len(self.scope):
                self.truth[i:i + 1] = [_Bucket(g, self.k) for g in refine(b.words, self.k)]
                return


@dataclass
class _Finding:
    fact: tuple
    rule: str
    message: str
    cause: int | None  # the earlier step it follows from, if any


def _show(words) -> str:
    return "[" + " ? ".join(f'"{w}"' for w in words) + "]"


def _letter_findings(run: _Run, step: int, k: int, text: str) -> list[_Finding]:
    out = []
    for word, letter, num in _LETTER.findall(text):
        number = int(num)
        if word not in run.words:
            out.append(_Finding(("extra", word), "word_added", f'"{word}" is not a word of the input', None))
            continue
        true = word[k - 1] if len(word) >= k else ""
        wrong: str | None = None
        if letter != true:
            wrong = (f'the {ORDINALS[k - 1]} letter of "{word}" is '
                     + (f'"{true}"' if true else "nothing (it is shorter)") + f', not "{letter}"')
        elif position(letter) != number:
            wrong = f'"{letter}" is letter {position(letter)} of the alphabet, not {number}'
        run.letters[(word, k)] = (letter, number, step if wrong else None)
        if wrong:
            out.append(_Finding(("letter", word, k), "wrong_letter", wrong, None))
    return out


def _subpart_findings(run: _Run, subpart: tuple[str, ...], k: int) -> list[_Finding]:
    """The bucket sorted next must be the first one still unsorted, by its next letter."""
    want = run.next_open()
    mine = next((b for b in run.claimed if len(set(b)) > 1), None)
    ours_too = mine is not None and set(mine) == set(subpart)
    if want is None:
        return [_Finding(("subpart", subpart), "wrong_subpart",
                         f"every bucket is sorted already; {_show(subpart)} needs no sorting", run.root if ours_too else None)]
    if set(want.words) != set(subpart):
        return [_Finding(("skipped", want.words), "wrong_subpart",
                         f"the first bucket still unsorted is {_show(want.words)} (sharing {want.depth} first "
                         f"letter{'s' if want.depth > 1 else ''}), not {_show(subpart)}", run.root if ours_too else None)]
    if k != want.depth + 1:
        return [_Finding(("subpart_letter", subpart, k), "wrong_subpart",
                         f"the words of {_show(subpart)} share {want.depth} first letters, so they are sorted by "
                         f"letter {want.depth + 1}, not {k}", None)]
    return []


def _chain_findings(run: _Run, chain: list[Bucket], scope: tuple[str, ...], k: int | None,
                    whole: bool = False) -> list[_Finding]:
    """The false facts of one chain over `scope`, its numbers read as positions of letter k.

    A chain of the whole list (`whole`) also says what is known so far: words it leaves in
    one bucket that the sort has already ordered are a stale state.
    """
    out: list[_Finding] = []
    said = [w for b in chain for w in b.words]
    for w in scope:
        if w not in said:
            out.append(_Finding(("dropped", w), "word_dropped", f'"{w}" is left out', None))
    for w in said:
        if w not in scope:
            where = "the input" if scope == tuple(run.words) else "the subpart"
            out.append(_Finding(("extra", w), "word_added", f'"{w}" is not a word of {where}', None))
    if k is not None:
        for b in chain:
            for w in b.words:
                true = position(w[k - 1]) if len(w) >= k else 0
                if b.number is None or b.number == true:
                    continue
                claimed = run.letters.get((w, k))
                cause = claimed[2] if claimed and claimed[1] == b.number else None
                where = (f"is at position {true}" if true else
                         f'is "{w[k - 1]}", which has no alphabet position' if len(w) >= k else "does not exist")
                out.append(_Finding(("position", w, k, b.number), "wrong_position",
                                    f'the {ORDINALS[k - 1]} letter of "{w}" {where}, not {b.number}', cause))
    for i, left in enumerate(chain):
        for right in chain[i + 1:]:
            for x in left.words:
                for y in right.words:
                    if x in run.words and y in run.words and y < x:
                        cause = None
                        if k is not None:
                            cx, cy = run.letters.get((x, k)), run.letters.get((y, k))
                            if cx and cy and cx[1] < cy[1] and (cx[2] is not None or cy[2] is not None):
                                cause = cx[2] if cx[2] is not None else cy[2]
                        out.append(_Finding(("lt", x, y), "wrong_order", f'"{y}" sorts before "{x}"', cause))
    if whole:
        where = {w: i for i, b in enumerate(run.truth) for w in b.words}
        mine = {w: i for i, b in enumerate(run.claimed) for w in b}
        for b in chain:
            parts = sorted({where[w] for w in b.words if w in where})
            if len(parts) > 1:
                ours_too = len({mine.get(w) for w in b.words}) == 1
                out.append(_Finding(("stale", b.words), "stale_order",
                                    f"{_show(b.words)} is left unordered, but the sort has ordered it: "
                                    + " < ".join(_show(run.truth[p].words) for p in parts),
                                    run.root if ours_too else None))
    return out


def _judge(run: _Run, step: int, findings: list[_Finding]) -> None:
    """One verdict from a step's false facts: a root unless every one was made or caused before."""
    merged: dict[tuple, _Finding] = {}
    for f in findings:
        if f.fact not in merged or merged[f.fact].cause is None:
            merged[f.fact] = f
    findings = list(merged.values())
    causes = []
    for f in findings:
        before = run.false_facts.get(f.fact)
        causes.append(before if before is not None else f.cause)
    for f, c in zip(findings, causes):
        run.false_facts.setdefault(f.fact, step if c is None else c)
    if not findings:
        run.verdicts.append(StepVerdict(step, "valid"))
        return
    roots = [f for f, c in zip(findings, causes) if c is None]
    shown = roots or findings
    consequence = None if roots else min(c for c in causes if c is not None)
    message = "; ".join(dict.fromkeys(f.message for f in shown[:6]))
    if len(shown) > 6:
        message += f"; and {len(shown) - 6} more"
    run.verdicts.append(StepVerdict(step, "invalid", shown[0].rule, message, consequence_of=consequence))
    if roots and run.root is None:
        run.root = step


def _replace(chain: list[tuple[str, ...]], scope: tuple[str, ...], parts: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    for i, b in enumerate(chain):
        if set(b) == set(scope):
            return chain[:i] + parts + chain[i + 1:]
    return chain


SLIP_RATIO = 0.8  # difflib's similarity above which a word not in the input is a copy of one that is


def copying_slip(word: str, words: list[str]) -> str | None:
    """The input word that `word` miscopies ("thencefort" for "thenceforth", "liberate" for
    "librate"), when exactly one is that close; None otherwise. BIG-Bench Mistake's annotators
    label the first *logical* mistake (Tyen et al. 2024, section 2.1), and a word copied with a
    typo and then sorted as the word it stands for is none: of the three such traces in the dev
    third, two are labelled as having no mistake and one at a later step. We judge such a word as
    the word it copies; an answer that keeps the typo is still wrong."""
    if word in words or len(word) < 4:
        return None
    scored = sorted(((difflib.SequenceMatcher(None, word, w).ratio(), w) for w in set(words)), reverse=True)
    if not scored or scored[0][0] < SLIP_RATIO or (len(scored) > 1 and scored[1][0] >= SLIP_RATIO):
        return None
    return scored[0][1]


def _canonical(run: _Run, text: str) -> str:
    """The step's quoted words with copying slips read as the words they copy."""
    def fix(m: re.Match[str]) -> str:
        w = m.group(1)
        if w not in run.slips:
            run.slips[w] = copying_slip(w, run.words)
        return f'"{run.slips[w]}"' if run.slips[w] else m.group()
    return _QUOTED.sub(fix, text) if '"' in text else text


def _units(run: _Run, text: str) -> list[tuple[str, tuple[int, int]]]:
    """The step's units: their text without emphasis, slips read as the words they copy, and span."""
    out = []
    for u in read_text(text).units:
        said = _canonical(run, without_emphasis(u.text(text)))
        if said.strip():
            out.append((said, u.span))
    return out


def _step(run: _Run, step: int, text: str) -> bool:
    """Judge one step; False when it claims nothing this domain reads."""
    units = _units(run, text)
    used: list[tuple[int, int]] = []

    def first(pattern: re.Pattern) -> tuple[int, re.Match] | None:
        for k, (said, span) in enumerate(units):
            m = pattern.search(said)
            if m:
                used.append(span)
                return k, m
        return None

    findings: list[_Finding] = []
    judged = False
    found = first(_SUBPART)
    sub = found[1] if found else None
    if sub:
        subpart = tuple(_QUOTED.findall(sub.group("words")))
        k = ORDINALS.index(sub.group(2).lower()) + 1
        findings += _subpart_findings(run, subpart, k)
        run.k, run.scope = k, subpart
        judged = True
    found = first(_LETTER_HEAD)
    if found:
        at, head = found
        k = ORDINALS.index(head.group(1).lower()) + 1
        if not sub:
            run.k, run.scope = k, tuple(run.words)
        claims = " ".join([units[at][0][head.end():]] + [said for said, _ in units[at + 1:]])
        used += [span for said, span in units[at + 1:] if _LETTER.search(said)]
        findings += _letter_findings(run, step, k, claims)
        judged = True
    found = first(_WE_NOW)
    if found:
        chain = read_chain(found[1].group("chain"))
        if chain is not None:
            said = {w for b in chain for w in b.words}
            if said <= set(run.scope) or len(run.scope) == len(run.words):
                findings += _chain_findings(run, chain, run.scope, run.k)
                run.claimed = (_replace(run.claimed, run.scope, [b.words for b in chain]) if run.claimed
                               else [b.words for b in chain])
                run.sort_scope()
            else:
                run.sort_scope()
                findings += _chain_findings(run, chain, tuple(run.words), None, whole=True)
                run.claimed = [b.words for b in chain]
            judged = True
    found = first(_HENCE)
    if found:
        chain = read_chain(found[1].group("chain"))
        if chain is not None:
            findings += _chain_findings(run, chain, tuple(run.words), None, whole=True)
            run.claimed = [b.words for b in chain]
            judged = True
    if first(_ALL_SORTED) and run.claimed:
        # "I have now sorted all the words." while the trace's own last order still holds a tie it
        # never sorted: the claim is false of the trace, whatever order the answer then gives.
        tied = [b for b in run.claimed if len(set(b)) > 1]
        if tied:
            findings.append(_Finding(("unsorted", tied[0]), "subpart_left_unsorted",
                                     f"says all the words are sorted, but its last order leaves {_show(tied[0])} unsorted",
                                     None))
        judged = True
    found = first(_ANSWER)
    if found:
        said = found[1].group("words").split()
        findings += _chain_findings(run, [Bucket(None, (w,)) for w in said], tuple(run.words), None)
        judged = True
    if judged:
        _judge(run, step, findings)
        run.states[step] = {"claims": [list(span) for span in sorted(set(used))]}
    return judged


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    words = read_words(record.problem)
    if words is None:
        return Replay(answer_correct=None, answer_error=AnswerError(
            "undecided", "problem.input is not a list of words to sort, so nothing can be replayed"))
    run = _Run(words, truth=[_Bucket(tuple(words), 0)], scope=tuple(words))
    for step in parsed.graph:
        if not _step(run, step.index, step.text):
            run.verdicts.append(StepVerdict(step.index, "unchecked"))
    want = sorted(words)
    given = record.answer.split()
    ok = given == want
    error = None
    if not ok:
        missing = [w for w in want if w not in given]
        extra = [w for w in given if w not in want]
        why = (f"left out {', '.join(missing)}" if missing else "") + ("; " if missing and extra else "") + (
            f"not in the input: {', '.join(extra)}" if extra else "")
        error = AnswerError("wrong_value", f"the sorted words are {' '.join(want)}" + (f" ({why})" if why else
                            " (the answer has them out of order)"), extra={"expected": " ".join(want)})
    notes: dict[str, object] = {"sorted": " ".join(want)}
    slips = {w: c for w, c in run.slips.items() if c}
    if slips:
        notes["copying_slips"] = slips  # judged as the words they copy (copying_slip)
    return Replay(step_verdicts=run.verdicts, answer_correct=ok, answer_error=error, notes=notes, states=run.states)


DOMAIN = DomainSpec(
    name="word_sorting", version=VERSION,
    description="BIG-Bench word sorting: every letter and alphabet-position claim, bucket order, sub-sort and "
                "word kept or lost against the input's words; the answer against their sorted order.",
    replay=replay, recognise=recognise,
)
