"""Checker Jumping (n red, n blue checkers): move lists replayed move by move.

Problem spec and rules: validators/puzzles/checker_jumping.py; replay: validators/puzzles/replay.py.
"""

from validators.base import DomainSpec
from validators.puzzles.replay import replay_puzzle

DOMAIN = DomainSpec(
    name="checker_jumping",
    version="2",
    description="Checker Jumping (n red, n blue checkers): move lists replayed move by move.",
    replay=replay_puzzle,
)
