"""River Crossing (actors/agents, boat capacity k): move lists replayed move by move.

Problem spec and rules: validators/puzzles/river_crossing.py; replay: validators/puzzles/replay.py.
"""

from validators.base import DomainSpec
from validators.puzzles.replay import replay_puzzle

DOMAIN = DomainSpec(
    name="river_crossing",
    version="2",
    description="River Crossing (actors/agents, boat capacity k): move lists replayed move by move.",
    replay=replay_puzzle,
)
