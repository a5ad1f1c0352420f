"""Reference Stream-of-Search searches that write the log format, for tests and benchmarks.

A re-statement (our own code) of kanishkg/stream-of-search @44f2830a1f91 src/countdown_dfs.py::dfs
and src/countdown_bfs.py::bfs with the heuristics of src/countdown_utils.py: same child order
(`combine_nums`), same pruning, same node ids, same line texts. DFS is deterministic and
reproduces the published generator's DFS logs byte for byte (checked on the dev set); BFS
shuffles each kept beam, here with a seeded `random.Random`.
"""

from __future__ import annotations

import heapq
import random
from typing import Callable

from validators.countdown.solver import sos_children

Heuristic = Callable[[list[int], int], float]


def sum_heuristic(nums: list[int], target: int) -> float:
    if len(nums) == 1:
        return abs(nums[0] - target)
    return sum(abs(n - target) for n in nums) / len(nums)


def mult_heuristic(nums: list[int], target: int) -> float:
    factors = [i for i in range(2, target + 1) if target % i == 0]
    return sum(min(abs(n - f) for f in factors) for n in nums)


HEURISTICS: dict[str, Heuristic] = {"sum_heuristic": sum_heuristic, "mult_heuristic": mult_heuristic}


def _state(target: int, nums: list[int], ops: list[str]) -> str:
    return f"Current State: {target}:{nums}, Operations: {ops}\n"


def _children(nums: list[int], target: int, heuristic: Heuristic) -> list[tuple[float, list[int], str]]:
    return [(heuristic(list(child), target), list(child), text)
            for _value, text, child in sos_children(tuple(nums))]


def dfs_log(target: int, nums: list[int], heuristic: Heuristic = sum_heuristic, threshold: float | None = None) -> str:
    """The DFS log; `threshold` prunes children whose heuristic exceeds it (SoS uses the target)."""
    out: list[str] = []

    def expand(node_id: str, cur: list[int], ops: list[str]) -> bool:
        out.append(_state(target, cur, ops))
        kept = [c for c in _children(cur, target, heuristic) if threshold is None or c[0] <= threshold]
        kept.sort(key=lambda c: c[0])
        for g, (_h, child, op) in enumerate(kept):
            child_id = f"{node_id},{g}"
            out.append(f"Exploring Operation: {op}, Resulting Numbers: {child}\n")
            if len(child) == 1 and child[0] == target:
                out.append(f"{child[0]},{target} equal: Goal Reached\n")
                return True
            if len(child) == 1:
                out.append(f"{child[0]},{target} unequal: No Solution\n")
            else:
                out.append(f"Generated Node #{child_id}: {target}:{child} Operation: {op}\n")
                out.append(f"Moving to Node #{child_id}\n")
                if expand(child_id, child, ops + [op]):
                    return True
            if g < len(kept) - 1:
                out.append(f"Moving to Node #{node_id}\n")
                out.append(_state(target, cur, ops))
        return False

    expand("0", list(nums), [])
    return "".join(out)


class _Entry:
    """A heap entry ordered like SoS's CountdownNode: by heuristic only."""

    __slots__ = ("h", "idx", "nums", "ops")

    def __init__(self, h: float, idx: str, nums: list[int], ops: list[str]) -> None:
        self.h, self.idx, self.nums, self.ops = h, idx, nums, ops

    def __lt__(self, other: "_Entry") -> bool:
        return self.h < other.h


def bfs_log(target: int, nums: list[int], beam_size: int, heuristic: Heuristic = sum_heuristic,
            seed: int = 0) -> str:
    """The beam-search log; the kept children of each node are shuffled with `random.Random(seed)`."""
    rng = random.Random(seed)
    out: list[str] = []
    heap: list[tuple[float, _Entry]] = [(heuristic(list(nums), target), _Entry(heuristic(list(nums), target), "0",
                                                                              list(nums), []))]
    while heap:
        level = [heapq.heappop(heap) for _ in range(min(beam_size, len(heap)))]
        for k, (_h, node) in enumerate(level):
            out.append(_state(target, node.nums, node.ops))
            generated = [(h, _Entry(h, "", child, node.ops + [op])) for h, child, op in
                         _children(node.nums, target, heuristic)]
            generated.sort(key=lambda t: t[0])
            kept = generated[:beam_size]
            rng.shuffle(kept)
            node_idx = 0
            for _h2, child in kept:
                child.idx = f"{node.idx},{node_idx}"
                op = child.ops[-1]
                out.append(f"Exploring Operation: {op}, Resulting Numbers: {child.nums}\n")
                if len(child.nums) == 1 and child.nums[0] == target:
                    out.append(f"{child.nums[0]},{target} equal: Goal Reached\n")
                    return "".join(out)
                if len(child.nums) == 1:
                    out.append(f"{child.nums[0]},{target} unequal: No Solution\n")
                else:
                    out.append(f"Generated Node #{child.idx}: {target}:{child.nums} Operation: {op}\n")
                    node_idx += 1
            kept.sort(key=lambda t: t[0])
            for entry in kept:
                heapq.heappush(heap, entry)
            if k < len(level) - 1:
                out.append(f"Moving to Node #{level[k + 1][1].idx}\n")
        if heap:
            out.append(f"Moving to Node #{heap[0][1].idx}\n")
    out.append("No solution found.")
    return "".join(out)
