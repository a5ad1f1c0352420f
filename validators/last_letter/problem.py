"""A last-letter problem: N words; the answer is their last letters concatenated, in order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from validators.freeform.replay import clean_answer


@dataclass(frozen=True)
class LastLetterProblem:
    words: tuple[str, ...]

    @property
    def letters(self) -> tuple[str, ...]:
        """Each word's last letter (its last alphabetic character), lowercase."""
        return tuple(next(c for c in reversed(w) if c.isalpha()).casefold() for w in self.words)

    @property
    def expected(self) -> str:
        return "".join(self.letters)


def question(words: list[str] | tuple[str, ...]) -> str:
    """The task in Wei et al. 2022's wording (their exemplar: 'Take the last letters of the
    words in "Elon Musk" and concatenate them.')."""
    return f'Take the last letters of the words in "{" ".join(words)}" and concatenate them.'


def read_problem(problem: Any) -> LastLetterProblem | str:
    """The problem, or a message saying why it cannot be judged."""
    if not isinstance(problem, dict):
        return "the problem is not an object with 'words'"
    words = problem.get("words")
    if isinstance(words, str):
        words = words.split()
    if not isinstance(words, list) or not words:
        return "the problem needs 'words': a non-empty list of words"
    if not all(isinstance(w, str) and any(c.isalpha() for c in w) for w in words):
        return "every entry of 'words' must be a word with at least one letter"
    found = LastLetterProblem(tuple(w.strip() for w in words))
    reference = problem.get("reference_answer")
    if reference is not None and clean_answer(str(reference)).casefold() != found.expected:
        return (f"the problem's reference_answer '{reference}' disagrees with its words, whose last letters "
                f"give '{found.expected}'")
    return found


def problem_length(problem: Any) -> int | None:
    found = read_problem(problem)
    return len(found.words) if isinstance(found, LastLetterProblem) else None
