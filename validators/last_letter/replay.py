"""The `last_letter` replay.

Every string claim in the trace is checked for what it says (validators/thinking/strings.py:
"The last letter of 'Elon' is 'n'.", "Concatenating 'n' and 'k' gives 'nk'."), the answer and
the trace's stated conclusion as in the `freeform` domain, with the reference computed from the
words. On top, the task (Wei et al. 2022's chain of thought states each word's last letter, then
the concatenation):

* "Concatenating them is 'nk'" concatenates the letters stated so far: when they were stated
  for a run of consecutive words, the result must be them in word order (`false_string_claim`).
* A concatenation whose pieces and result are letters, or "Concatenating them is 'nk'", must give
  a run of the words' last letters in order: the result is a substring of the reference ("nk" and
  "ke" of "nke", not "kn" or "ne"). A true but off-task concatenation (out of order, a word skipped
  or repeated) is invalid (`concatenation_mismatch`). Such a result that only repeats an earlier
  error (it builds on a wrong running result, or on a wrong letter the trace stated for a word) is
  invalid as a consequence of that step (`consequence_of`), so each error has one root step.
* The letters of every word as one list (Plan-and-Solve: "The last letters of each word are: e,
  e, l, and k.", as many letters as words) and a word named by its place ("The last letter of
  the first word is 'a'") are letter claims, each letter against its word's (`false_string_claim`).
* The trace's own final answer ('So, the final answer is "fnenl"', "[Answer] h") concatenates
  every word's letter: it must equal the letters the trace stated for all the words when it
  stated them all (`false_string_claim`: right letters, wrong final concatenation), and the
  words' last letters in any case (`concatenation_mismatch`, a consequence when it follows a
  wrong letter the trace stated, or when it repeats a wrong running concatenation).
* A concatenation the same step takes back ("..., no wait") is `corrected`, as in strings.py.
* A letter claim about a word that is not in the problem is checked for what it says only.
  A concatenation of whole words ("joining 'Elon' and 'Musk' gives 'ElonMusk'") is not a
  last-letter step and is checked for what it says only. Nothing the reader cannot read is judged.

Answers compare as in `freeform`: after removing quotes, bold, `\\boxed{}` and a leading "The
answer is" or "[Answer]", ignoring case (the letters' case carries no meaning here; strings.py
ignores it too). Letters spelled out one by one ('"n a o a"', "s-a-n-n", validators/reading/text.py
`spelled_out`) are the word they spell, in the answer and in the trace; nothing else is joined.
"""

from __future__ import annotations

import re

from core.record import TraceRecord
from core.verdicts import AnswerError, StepVerdict
from trace_parsers.base import ParsedTrace
from validators.base import DomainSpec, Replay
from validators.freeform.replay import replay_against
from validators.last_letter.generate import generate
from validators.last_letter.problem import LastLetterProblem, problem_length, read_problem
from validators.reading.text import spelled_out
from validators.thinking.strings import find_string_claims, taken_back

VERSION = "2"
RULE = "concatenation_mismatch"

_QUOTED = r"'[A-Za-z ]{1,60}'|\"[A-Za-z ]{1,60}\"|‘[A-Za-z ]{1,60}’|“[A-Za-z ]{1,60}”|\*\*[A-Za-z ]{1,60}\*\*"
# "Concatenating them is 'nk'" (Wei et al.'s exemplar wording) and its variants: a concatenation
# of the letters stated so far, which strings.py cannot read because it names no pieces.
_OF_THEM = re.compile(
    r"\b(?:concatenating|combining|joining|putting\s+together)\s+(?:them|these|those|all\s+of\s+them|"
    r"(?:all\s+)?(?:the(?:se)?\s+)?(?:last\s+)?letters)(?:\s+together)?\s*,?\s*(?:is|gives|yields|produces|"
    rf"makes|forms|results\s+in|we\s+get|:|=)\s*(?P<v>{_QUOTED}|[A-Za-z]+(?=\s*(?:[.,;:!?\n]|$)))", re.I)


_L = r"(?:['\"‘“`](?P<{0}>[A-Za-z])['\"’”`]|\*\*(?P<{0}2>[A-Za-z])\*\*|(?<![\w'’-])(?P<{0}3>[A-Za-z])(?![\w'’-]))"
_LETTER_ANY = r"(?:['\"‘“`][A-Za-z]['\"’”`]|\*\*[A-Za-z]\*\*|(?<![\w'’-])[A-Za-z](?![\w'’-]))"
_LIST_SEP = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+)"
# Plan-and-Solve's wording: "The last letters of each word are: e, e, l, and k." -- one letter per
# word, in the words' order, when as many letters as words are listed.
_ALL_LETTERS = re.compile(
    r"\bthe\s+last\s+letters(?:\s+of\s+(?:each|every|all(?:\s+the)?|the|these)\s+(?:words?|names?)"
    r"(?:\s+in\s+[^:\n]{1,80}?)?)?\s*(?:\bare\b\s*:?|:)\s*"
    rf"(?P<vs>{_LETTER_ANY}(?:{_LIST_SEP}{_LETTER_ANY})+)", re.I)
_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth").split()
# The positional form: "The last letter of the first word is 'a'" (the word named by its place).
_NTH_WORD = re.compile(
    rf"\bthe\s+last\s+(?:letter|character)\s+of\s+the\s+(?P<ord>{'|'.join(_ORDINALS)}|\d{{1,2}}(?:st|nd|rd|th))"
    r"\s+(?:word|name)(?:\s*,?\s*(?:'[^'\n]{1,40}'|\"[^\"\n]{1,40}\"|\([^)\n]{1,40}\)))?\s*,?\s*(?:\bis\b|:)\s*"
    + _L.format("v"), re.I)
# The trace's own final answer: it concatenates every word's last letter.
_FINAL = re.compile(
    r"(?:\b(?:the\s+)?(?:final\s+)?answer\s*(?:\bis\b|:)|\[answer\])\s*:?\s*"
    r"(?P<v>'[A-Za-z ,.\-]{1,80}'|\"[A-Za-z ,.\-]{1,80}\"|‘[A-Za-z ,.\-]{1,80}’|“[A-Za-z ,.\-]{1,80}”"
    r"|\*\*[A-Za-z ,.\-]{1,80}\*\*|[A-Za-z](?:-[A-Za-z])+|[A-Za-z]+)(?=\s*(?:[.!?,;\n]|$))", re.I)


_NOT_ANSWERS = frozenset("""correct wrong right yes no this that it as the a an not unclear below above simply just
obtained formed found given then therefore""".split())


def _final_value(raw: str, truth: str) -> str | None:
    """The letters a final answer in the trace names; a bare word must be no description
    ("the answer is correct") and about as long as the answer could be."""
    value = _plain(raw)
    if raw[0].isalpha() and (value in _NOT_ANSWERS or len(value) > len(truth) + 2):
        return None
    return value


def _plain(value: str) -> str:
    value = value.strip("'\"‘’“”*`")
    return (spelled_out(value) or re.sub(r"\s+", "", value)).casefold()


def _place(ordinal: str) -> int:
    """0-based index of "third" or "3rd"."""
    ordinal = ordinal.casefold()
    return _ORDINALS.index(ordinal) if ordinal in _ORDINALS else int(re.match(r"\d+", ordinal).group(0)) - 1


class _Task:
    """What the trace has stated so far: a letter per word, and its running concatenation."""

    def __init__(self, problem: LastLetterProblem) -> None:
        self.problem = problem
        self.truth = problem.expected
        self.index: dict[str, list[int]] = {}
        for i, word in enumerate(problem.words):
            self.index.setdefault(word.casefold(), []).append(i)
        self.stated: dict[int, tuple[str, int]] = {}
        self.running: tuple[str, int | None] | None = None  # (value, root step of its error, if wrong)

    def letter(self, word: str, letter: str | None, step: int) -> None:
        for i in self.index.get(word.casefold(), ()):
            if letter:
                self.stated[i] = (letter.casefold(), step)

    def letters_at(self, places: list[int], letters: list[str], step: int, text: str) -> StepVerdict | None:
        """A claim naming words by place (every word in order, or "the first word"): the letters
        are recorded for those words, and the claim judged against their last letters."""
        if not places or max(places) >= len(self.problem.words):
            return None
        for i, letter in zip(places, letters):
            self.stated[i] = (letter.casefold(), step)
        wrong = [(i, v) for i, v in zip(places, letters) if v.casefold() != self.problem.letters[i]]
        if not wrong:
            return StepVerdict(step, "valid", None, f"'{text}' holds: " + ", ".join(
                f"'{self.problem.words[i]}' ends in '{self.problem.letters[i]}'" for i in places))
        return StepVerdict(step, "invalid", "false_string_claim", f"'{text}' is false: " + "; ".join(
            f"the last letter of '{self.problem.words[i]}' (word {i + 1}) is '{self.problem.letters[i]}', not "
            f"'{v}'" for i, v in wrong), expected=[self.problem.letters[i] for i, _ in wrong],
            found=[v for _, v in wrong])

    def _wrong_letter_step(self, value: str) -> int | None:
        """The first step that stated a wrong letter, when the value is a run of the letters the
        trace stated (so it only repeats that error)."""
        said = "".join(self.stated.get(i, (t, -1))[0] for i, t in enumerate(self.problem.letters))
        wrong = [step for i, (letter, step) in self.stated.items() if letter != self.problem.letters[i]]
        return min(wrong) if wrong and value in said else None

    def referent(self, whole: bool = False) -> str | None:
        """What "them" concatenates: the letters stated for a run of consecutive words, in word
        order; None when the stated words are no such run (then only the task is checked). For
        the final answer (`whole`), only the letters of every word."""
        said = sorted(self.stated)
        if not said or said[-1] - said[0] + 1 != len(said) or (whole and len(said) != len(self.truth)):
            return None
        return "".join(self.stated[i][0] for i in said)

    def concatenation(self, step: int, value: str, pieces: tuple[str, ...] | None, holds: bool | None,
                      text: str, whole: bool = False) -> StepVerdict | None:
        """`whole`: the trace's final answer, which must be every word's letter, not a run of them."""
        if not value.isalpha() or (len(value) > len(self.truth) and not whole):
            if (value.isalpha() and pieces and self.running is not None and self.running[1] is not None
                    and _plain(pieces[0]) == self.running[0]):
                self.running = (value, self.running[1])  # still the earlier error, grown
            return None
        if whole and self.running is not None and self.running[0] == value and self.running[1] not in (None, step):
            root = self.running[1]
            return StepVerdict(step, "invalid", RULE, f"'{text}' repeats the result of step {root}, which is wrong: "
                                                      f"the words' last letters give '{self.truth}'",
                               expected=self.truth, found=value, consequence_of=root)
        if pieces is None and holds is None:
            them = self.referent(whole)
            if them is not None and them != value:
                self.running = (value, step)
                return StepVerdict(step, "invalid", "false_string_claim",
                                   f"'{text}' is false: the letters it concatenates, as stated for the words, give "
                                   f"'{them}', not '{value}'", expected=them, found=value)
        if holds is False:  # false as written: strings.py already made it invalid
            self.running = (value, step)
            return None
        if value == self.truth or (value in self.truth and not whole):
            self.running = (value, None)
            return StepVerdict(step, "valid", None, f"'{text}': '{value}' is the last letters of consecutive words "
                                                    f"in order (all of them: '{self.truth}')")
        root = None
        if pieces and self.running is not None and _plain(pieces[0]) == self.running[0]:
            root = self.running[1]
        if root is None:
            root = self._wrong_letter_step(value)
        self.running = (value, root if root is not None else step)
        if root is not None and root != step:
            return StepVerdict(step, "invalid", RULE, f"'{text}' builds on the error of step {root}: '{value}' is no "
                                                      f"run of the words' last letters in order ('{self.truth}')",
                               expected=self.truth, found=value, consequence_of=root)
        return StepVerdict(step, "invalid", RULE, f"'{text}': '{value}' is no run of the words' last letters in order "
                                                  f"('{self.truth}'): letters out of order, skipped or repeated",
                           expected=self.truth, found=value)


_HEDGES = re.compile(r"\b(?:if|maybe|perhaps|would|could|might|not|isn't|check|verify)\b[^.\n]*$", re.I)


def _hedged(text: str, start: int, lo: int) -> bool:
    """'If the answer is ...', 'the answer is not ...': no answer stated."""
    return bool(_HEDGES.search(text[max(lo, start - 60):start]))


def _unretracted(verdict: StepVerdict | None, text: str, end: int, hi: int) -> list[StepVerdict]:
    if verdict is None:
        return []
    if verdict.status == "invalid" and taken_back(text, end, hi):
        return [StepVerdict(verdict.step, "corrected", verdict.rule, f"{verdict.message} (retracted in the same step)")]
    return [verdict]


def task_verdicts(parsed: ParsedTrace, text: str, problem: LastLetterProblem) -> list[StepVerdict]:
    """The task's own step verdicts (module docstring), in trace order."""
    task = _Task(problem)
    out: list[StepVerdict] = []
    for step in parsed.graph:
        lo, hi = step.span
        claims = [c for c in find_string_claims(text, lo, hi) if not c.retracted]
        events: list[tuple[int, str, tuple[str, ...] | None, bool | None, str, bool]] = []
        for c in claims:
            if c.kind in ("position", "positions") and c.ordinal == "last":
                for word, letter in zip(c.words, c.values):
                    task.letter(word, letter, step.index)
            elif c.kind == "concatenation" and c.values and not any(
                    len(p) > 1 and p.casefold() in task.index for p in c.words):
                events.append((c.start, _plain(c.values[0]), c.words, c.holds, c.text, False))
        for m in _OF_THEM.finditer(text, lo, hi):
            if not any(c.start < m.end() and m.start() < c.end for c in claims):
                events.append((m.start(), _plain(m.group("v")), None, None, m.group(0), False))
        for m in _FINAL.finditer(text, lo, hi):
            value = _final_value(m.group("v"), problem.expected)
            if value and not any(c.start < m.end() and m.start() < c.end for c in claims) and not _hedged(
                    text, m.start(), lo):
                events.append((m.start(), value, None, None, m.group(0), True))
        for m in _ALL_LETTERS.finditer(text, lo, hi):
            letters = [_plain(v) for v in re.split(_LIST_SEP, m.group("vs"))]
            if len(letters) == len(problem.words):
                out.extend(_unretracted(task.letters_at(list(range(len(letters))), letters, step.index, m.group(0)),
                                        text, m.end(), hi))
        for m in _NTH_WORD.finditer(text, lo, hi):
            letter = m.group("v") or m.group("v2") or m.group("v3")
            out.extend(_unretracted(task.letters_at([_place(m.group("ord"))], [letter], step.index, m.group(0)),
                                    text, m.end(), hi))
        for start, value, pieces, holds, claim_text, whole in sorted(events, key=lambda e: e[0]):
            verdict = task.concatenation(step.index, value, pieces, holds, claim_text, whole)
            if verdict is not None and verdict.status == "invalid" and taken_back(text, start + len(claim_text), hi):
                verdict = StepVerdict(step.index, "corrected", verdict.rule, f"{verdict.message} (retracted in the "
                                                                             "same step)")
            if verdict is not None:
                out.append(verdict)
    return out


def replay(record: TraceRecord, parsed: ParsedTrace) -> Replay:
    problem = read_problem(record.problem)
    if isinstance(problem, str):
        return Replay(answer_correct=None, answer_error=AnswerError("undecided", problem))
    out = replay_against(record, parsed, problem.expected, lambda: task_verdicts(parsed, record.trace, problem))
    out.notes["rules"] = ("string claims checked exactly; concatenations must follow the words' last letters in "
                          "order (validators/last_letter/replay.py)")
    out.notes["length"] = len(problem.words)
    return out


DOMAIN = DomainSpec(
    name="last_letter",
    version=VERSION,
    description="Last-letter concatenation (Wei et al. 2022): each stated last letter and concatenation checked "
                "exactly, concatenations in the words' order; the answer against the words' last letters.",
    replay=replay,
    aliases=("last_letters", "last_letter_concatenation"),
    problem_length=problem_length,
    length_label="number of words",
    generate=generate,
)
