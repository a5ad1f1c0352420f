"""The planning domains, all replayed with VAL's STRIPS semantics (`make_domain` in __init__.py).

* `blocksworld`: PlanBench Blocksworld (`blocksworld-4ops`), plans in PDDL or PlanBench's wording
  ("unstack the red block from on top of the blue block").
* `mystery_blocksworld`: PlanBench Mystery Blocksworld (`mystery-4ops`: attack, succumb,
  overcome, feast), the same problems as Blocksworld under obfuscated names.
* `logistics`: PlanBench Logistics (`logistics-strips`): trucks, airplanes and packages; names
  such as package_0 / location_1_0 map to p0 / l1-0.
* `pddl`: any STRIPS domain given as PDDL (typing, negative preconditions, equality), with an
  optional natural-language vocabulary in `problem.vocabulary`.
"""

from validators.planning import make_domain

DOMAINS = (
    make_domain(
        "blocksworld",
        "PlanBench Blocksworld: STRIPS plan replay (VAL semantics), colour names mapped to blocks",
        aliases=("blocksworld_3", "blocksworld_hard", "blocks_world"),
    ),
    make_domain(
        "mystery_blocksworld",
        "PlanBench Mystery Blocksworld: STRIPS plan replay (VAL semantics) in the obfuscated vocabulary",
        aliases=("mystery_blocksworld_3", "mystery"),
    ),
    make_domain(
        "logistics",
        "PlanBench Logistics: STRIPS plan replay (VAL semantics), package_0/location_1_0 names understood",
    ),
    make_domain(
        "pddl",
        "Any STRIPS/PDDL domain: plan replay with VAL semantics; optional vocabulary for plan text",
        aliases=("strips",),
    ),
)
