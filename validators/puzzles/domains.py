"""The puzzle domains of "The Illusion of Thinking" (Shojaee et al. 2025): every move list in
the trace and the answer replayed move by move.

Problem specs and rules: hanoi.py, checker_jumping.py, river_crossing.py; replay: replay.py.
"""

from validators.base import DomainSpec
from validators.puzzles.replay import replay_puzzle

DOMAINS = (
    DomainSpec(
        name="hanoi",
        version="5",
        description="Tower of Hanoi (any number of disks): every move list in the trace and the answer replayed move by move.",
        replay=replay_puzzle,
        picture="hanoi_pegs",
    ),
    DomainSpec(
        name="checker_jumping",
        version="5",
        description="Checker Jumping (n red, n blue checkers): move lists replayed move by move.",
        replay=replay_puzzle,
    ),
    DomainSpec(
        name="river_crossing",
        version="5",
        description="River Crossing (actors/agents, boat capacity k): move lists replayed move by move.",
        replay=replay_puzzle,
    ),
)
