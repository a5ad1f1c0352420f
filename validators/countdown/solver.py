"""Countdown's number multisets and its Stream-of-Search solver (children in SoS order).

The arithmetic itself (operations, expressions, exact values) is validators/exact_arithmetic.py,
shared with every other arithmetic reader.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable


def multiset_minus(have: Iterable[int], used: Iterable[int]) -> tuple[list[int], list[int]]:
    """(`have` with one copy of each used number removed, the used numbers that were missing)."""
    rest = list(have)
    missing: list[int] = []
    for n in used:
        try:
            rest.remove(n)
        except ValueError:
            missing.append(n)
    return rest, missing


def same_multiset(x: Iterable[int], y: Iterable[int]) -> bool:
    return sorted(x) == sorted(y)


def sos_children(nums: tuple[int, ...]) -> list[tuple[int, str, tuple[int, ...]]]:
    """Children in Stream-of-Search order: pairs i<j, then `combine_nums(a, b)` order
    (a+b, a*b, then the non-negative difference and the exact quotient) -- src/countdown_utils.py."""
    out: list[tuple[int, str, tuple[int, ...]]] = []
    n = len(nums)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = nums[i], nums[j]
            rest = tuple(nums[k] for k in range(n) if k != i and k != j)
            cands = [(a + b, f"{a}+{b}={a + b}"), (a * b, f"{a}*{b}={a * b}")]
            if a <= b:
                cands.append((b - a, f"{b}-{a}={b - a}"))
                if a != 0 and b % a == 0:
                    cands.append((b // a, f"{b}/{a}={b // a}"))
            else:
                cands.append((a - b, f"{a}-{b}={a - b}"))
                if b != 0 and a % b == 0:
                    cands.append((a // b, f"{a}/{b}={a // b}"))
            for value, text in cands:
                out.append((value, text, rest + (value,)))
    return out


@lru_cache(maxsize=1 << 16)
def _solve(nums: tuple[int, ...], target: int) -> tuple[str, ...] | None:
    if len(nums) == 1:
        return () if nums[0] == target else None
    for _value, text, child in sos_children(nums):
        found = _solve(child, target)
        if found is not None:
            return (text, *found)
    return None


def solve(nums: Iterable[int], target: int) -> list[str] | None:
    """One SoS operation sequence that uses every number and ends at `target`, or None.

    Under SoS rules (non-negative integer intermediates); used to tell "No solution found" on a
    truly unsolvable instance from a search that gave up. Capped at 6 numbers (cost grows fast).
    """
    nums = tuple(nums)
    if len(nums) > 6:
        raise ValueError("solver is limited to 6 numbers")
    found = _solve(tuple(sorted(nums)), target)
    return list(found) if found is not None else None
