"""PlanBench Mystery Blocksworld (`mystery-4ops`: attack, succumb, overcome, feast): the same
problems as Blocksworld under obfuscated names, replayed with VAL's semantics."""

from validators.planning import make_domain

DOMAIN = make_domain(
    "mystery_blocksworld",
    "PlanBench Mystery Blocksworld: STRIPS plan replay (VAL semantics) in the obfuscated vocabulary",
    aliases=("mystery_blocksworld_3", "mystery"),
)
