"""PlanBench Blocksworld (`blocksworld-4ops`): plans in PDDL or PlanBench's wording
("unstack the red block from on top of the blue block"), replayed with VAL's semantics."""

from validators.planning import make_domain

DOMAIN = make_domain(
    "blocksworld",
    "PlanBench Blocksworld: STRIPS plan replay (VAL semantics), colour names mapped to blocks",
    aliases=("blocksworld_3", "blocksworld_hard", "blocks_world"),
)
