"""Last-letter problems by length, deterministic by seed: N distinct words from `words.WORDS`."""

from __future__ import annotations

import random
from typing import Any

from validators.last_letter.problem import LastLetterProblem, question
from validators.last_letter.words import WORDS


def generate(length: int, count: int, seed: int = 0) -> list[dict[str, Any]]:
    """`count` problems of `length` words; the same arguments always give the same problems."""
    if not 1 <= length <= len(WORDS):
        raise ValueError(f"a last-letter problem has 1 to {len(WORDS)} words, not {length}")
    rng = random.Random(f"last_letter:{seed}:{length}")
    out = []
    for _ in range(count):
        words = rng.sample(WORDS, length)
        out.append({"words": words, "question": question(words),
                    "reference_answer": LastLetterProblem(tuple(words)).expected})
    return out
