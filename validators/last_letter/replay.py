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
* A concatenation the same step takes back ("..., no wait") is `corrected`, as in strings.py.
* A letter claim about a word that is not in the problem is checked for what it says only.
  A concatenation of whole words ("joining 'Elon' and 'Musk' gives 'ElonMusk'") is not a
  last-letter step and is checked for what it says only. Nothing the reader cannot read is judged.

Answers compare as in `freeform`: after removing quotes, bold, `\\boxed{}` and a leading "The
answer is", ignoring case (the letters' case carries no meaning here; strings.py ignores it too),
and nothing else: "n k" is not "nk".
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
from validators.thinking.strings import find_string_claims, taken_back

VERSION = "1"
RULE = "concatenation_mismatch"

_QUOTED = r"'[A-Za-z ]{1,60}'|\"[A-Za-z ]{1,60}\"|‘[A-Za-z ]{1,60}’|“[A-Za-z ]{1,60}”|\*\*[A-Za-z ]{1,60}\*\*"
# "Concatenating them is 'nk'" (Wei et al.'s exemplar wording) and its variants: a concatenation
# of the letters stated so far, which strings.py cannot read because it names no pieces.
_OF_THEM = re.compile(
    r"\b(?:concatenating|combining|joining|putting\s+together)\s+(?:them|these|those|all\s+of\s+them|"
    r"(?:all\s+)?(?:the(?:se)?\s+)?(?:last\s+)?letters)(?:\s+together)?\s*,?\s*(?:is|gives|yields|produces|"
    rf"makes|forms|results\s+in|we\s+get|:|=)\s*(?P<v>{_QUOTED}|[A-Za-z]+(?=\s*(?:[.,;:!?\n]|$)))", re.I)


def _plain(value: str) -> str:
    return re.sub(r"\s+", "", value.strip("'\"‘’“”*")).casefold()


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

    def _wrong_letter_step(self, value: str) -> int | None:
        """The first step that stated a wrong letter, when the value is a run of the letters the
        trace stated (so it only repeats that error)."""
        said = "".join(self.stated.get(i, (t, -1))[0] for i, t in enumerate(self.problem.letters))
        wrong = [step for i, (letter, step) in self.stated.items() if letter != self.problem.letters[i]]
        return min(wrong) if wrong and value in said else None

    def referent(self) -> str | None:
        """What "them" concatenates: the letters stated for a run of consecutive words, in word
        order; None when the stated words are no such run (then only the task is checked)."""
        said = sorted(self.stated)
        if not said or said[-1] - said[0] + 1 != len(said):
            return None
        return "".join(self.stated[i][0] for i in said)

    def concatenation(self, step: int, value: str, pieces: tuple[str, ...] | None, holds: bool | None,
                      text: str) -> StepVerdict | None:
        if not value.isalpha() or len(value) > len(self.truth):
            return None
        if pieces is None and holds is None:
            them = self.referent()
            if them is not None and them != value:
                self.running = (value, step)
                return StepVerdict(step, "invalid", "false_string_claim",
                                   f"'{text}' is false: the letters it concatenates, as stated for the words, give "
                                   f"'{them}', not '{value}'", expected=them, found=value)
        if holds is False:  # false as written: strings.py already made it invalid
            self.running = (value, step)
            return None
        if value in self.truth:
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


def task_verdicts(parsed: ParsedTrace, text: str, problem: LastLetterProblem) -> list[StepVerdict]:
    """The task's own step verdicts (module docstring), in trace order."""
    task = _Task(problem)
    out: list[StepVerdict] = []
    for step in parsed.graph:
        lo, hi = step.span
        claims = [c for c in find_string_claims(text, lo, hi) if not c.retracted]
        events: list[tuple[int, str, tuple[str, ...] | None, bool | None, str]] = []
        for c in claims:
            if c.kind in ("position", "positions") and c.ordinal == "last":
                for word, letter in zip(c.words, c.values):
                    task.letter(word, letter, step.index)
            elif c.kind == "concatenation" and c.values and not any(
                    len(p) > 1 and p.casefold() in task.index for p in c.words):
                events.append((c.start, _plain(c.values[0]), c.words, c.holds, c.text))
        for m in _OF_THEM.finditer(text, lo, hi):
            if not any(c.start < m.end() and m.start() < c.end for c in claims):
                events.append((m.start(), _plain(m.group("v")), None, None, m.group(0)))
        for start, value, pieces, holds, claim_text in sorted(events, key=lambda e: e[0]):
            verdict = task.concatenation(step.index, value, pieces, holds, claim_text)
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
