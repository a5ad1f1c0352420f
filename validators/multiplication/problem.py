"""A multiplication problem: two whole numbers; the answer is their exact product."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from validators.thinking.numbers import final_number


@dataclass(frozen=True)
class MultiplicationProblem:
    a: int
    b: int

    @property
    def product(self) -> int:
        return self.a * self.b

    @property
    def length(self) -> int:
        """Digits of the longer factor: N for an N-digit by M-digit problem with N >= M."""
        return max(len(str(self.a)), len(str(self.b)))


def question(a: int, b: int) -> str:
    return f"What is {a} times {b}?"


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def read_problem(problem: Any) -> MultiplicationProblem | str:
    """The problem, or a message saying why it cannot be judged."""
    if not isinstance(problem, dict):
        return "the problem is not an object with 'a' and 'b'"
    pair = problem.get("factors") if "a" not in problem else [problem.get("a"), problem.get("b")]
    if not isinstance(pair, list) or len(pair) != 2:
        return "the problem needs 'a' and 'b' (or 'factors': [a, b]): two whole numbers"
    a, b = _whole(pair[0]), _whole(pair[1])
    if a is None or b is None:
        return f"'a' and 'b' must be whole numbers, not {pair[0]!r} and {pair[1]!r}"
    found = MultiplicationProblem(a, b)
    reference = problem.get("reference_answer")
    if reference is not None and final_number(str(reference)) != found.product:
        return f"the problem's reference_answer '{reference}' is not {a} x {b} = {found.product}"
    return found


def problem_length(problem: Any) -> int | None:
    found = read_problem(problem)
    return found.length if isinstance(found, MultiplicationProblem) else None
