"""Tower of Hanoi (any number of disks): every move list in the trace and the answer replayed move by move.

Problem spec and rules: validators/puzzles/hanoi.py; replay: validators/puzzles/replay.py.
"""

from validators.base import DomainSpec
from validators.puzzles.replay import replay_puzzle

DOMAIN = DomainSpec(
    name="hanoi",
    version="2",
    description="Tower of Hanoi (any number of disks): every move list in the trace and the answer replayed move by move.",
    replay=replay_puzzle,
)
