"""Multiplication problems by length, deterministic by seed: N-digit by M-digit numbers."""

from __future__ import annotations

import random
from typing import Any

from validators.multiplication.problem import question

MAX_DIGITS = 30


def _number(rng: random.Random, digits: int) -> int:
    return rng.randrange(10 ** (digits - 1) if digits > 1 else 0, 10 ** digits)


def _json_number(value: int) -> int | str:
    """Past 15 digits a JSON reader with doubles (JavaScript) would round it: a digit string."""
    return value if value < 10 ** 15 else str(value)


def generate_pairs(n_digits: int, m_digits: int, count: int, seed: int = 0) -> list[dict[str, Any]]:
    """`count` problems of an N-digit by an M-digit number (leading digits nonzero)."""
    if not (1 <= n_digits <= MAX_DIGITS and 1 <= m_digits <= MAX_DIGITS):
        raise ValueError(f"factors have 1 to {MAX_DIGITS} digits, not {n_digits} and {m_digits}")
    rng = random.Random(f"multiplication:{seed}:{n_digits}:{m_digits}")
    out = []
    for _ in range(count):
        a, b = _number(rng, n_digits), _number(rng, m_digits)
        out.append({"a": _json_number(a), "b": _json_number(b), "question": question(a, b),
                    "reference_answer": str(a * b)})
    return out


def generate(length: int, count: int, seed: int = 0) -> list[dict[str, Any]]:
    """N-digit by N-digit problems (the diagonal of Dziri et al.'s N x M grid)."""
    return generate_pairs(length, length, count, seed)
