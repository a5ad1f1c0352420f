"""Any STRIPS domain given as PDDL (typing, negative preconditions, equality), with an optional
natural-language vocabulary in `problem.vocabulary`; replayed with VAL's semantics."""

from validators.planning import make_domain

DOMAIN = make_domain(
    "pddl",
    "Any STRIPS/PDDL domain: plan replay with VAL semantics; optional vocabulary for plan text",
    aliases=("strips",),
)
