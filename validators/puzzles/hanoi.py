"""Tower of Hanoi with any number of disks (reference-semantics.md §5).

Pegs 0..2; disks 1 (smallest) .. n, all on peg 0 at the start, goal: all on peg 2. A move is
`[disk, from_peg, to_peg]` as the paper's prompt asks (lcrosenbaum/illusion_of_thinking,
prompts/TowerOfHanoi_original.yaml): the disk must be the top of `from`, `from != to`, and `to`
must be empty or topped by a larger disk. A move whose disk is `None` (a state-tracking table's
`move_id,from_peg,to_peg` row names only the pegs) moves the top disk of `from`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from validators.puzzles.base import IllegalMove, as_int, positive_int

State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
MAX_DISKS = 30


@dataclass(frozen=True)
class Hanoi:
    disks: int
    name: str = "hanoi"

    @classmethod
    def from_problem(cls, problem: dict) -> "Hanoi":
        return cls(positive_int(problem, "disks", MAX_DISKS))

    def initial(self) -> State:
        return (tuple(range(self.disks, 0, -1)), (), ())

    def is_goal(self, state: State) -> bool:
        return state[2] == tuple(range(self.disks, 0, -1))

    def snapshot(self, state: State) -> Any:
        return [list(peg) for peg in state]

    def describe(self, move: Any) -> str:
        if isinstance(move, (list, tuple)) and len(move) == 3 and move[0] is None:
            return f"move the top disk from peg {move[1]} to peg {move[2]}"
        if isinstance(move, (list, tuple)) and len(move) == 3:
            return f"move disk {move[0]} from peg {move[1]} to peg {move[2]}"
        return f"move {move!r}"

    def apply(self, state: State, move: Any) -> State:
        if not isinstance(move, (list, tuple)) or len(move) != 3:
            raise IllegalMove("malformed_move", "a move is [disk, from peg, to peg]")
        named = move[0] is not None
        disk, src, dst = (as_int(v, w) if named or k else 0
                          for k, (v, w) in enumerate(zip(move, ("the disk", "the source peg", "the target peg"))))
        for peg in (src, dst):
            if not 0 <= peg <= 2:
                raise IllegalMove("peg_out_of_range", f"peg {peg} does not exist (pegs are 0, 1, 2)")
        if not named:
            if not state[src]:
                raise IllegalMove("empty_peg", f"peg {src} is empty")
            disk = state[src][-1]
        if not 1 <= disk <= self.disks:
            raise IllegalMove("unknown_disk", f"there is no disk {disk} (disks are 1..{self.disks})")
        if src == dst:
            raise IllegalMove("same_peg", "the source and target peg are the same")
        if not state[src]:
            raise IllegalMove("empty_peg", f"peg {src} is empty")
        top = state[src][-1]
        if top != disk:
            where = next(i for i in range(3) if disk in state[i])
            raise IllegalMove("not_top_disk", f"disk {disk} is not on top of peg {src} (peg {src} has disk {top} on "
                              f"top; disk {disk} is on peg {where})")
        if state[dst] and state[dst][-1] < disk:
            raise IllegalMove("larger_on_smaller", f"disk {disk} cannot go on the smaller disk {state[dst][-1]} "
                              f"on peg {dst}")
        pegs = [list(p) for p in state]
        pegs[src].pop()
        pegs[dst].append(disk)
        return (tuple(pegs[0]), tuple(pegs[1]), tuple(pegs[2]))


def optimal_moves(disks: int, src: int = 0, dst: int = 2, via: int = 1) -> list[list[int]]:
    """The 2^n - 1 move solution (for tests and examples)."""
    if disks == 0:
        return []
    return (optimal_moves(disks - 1, src, via, dst) + [[disks, src, dst]]
            + optimal_moves(disks - 1, via, dst, src))
