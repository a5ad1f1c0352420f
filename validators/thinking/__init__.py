"""Replaying what a thinking trace claims (formats `think`, `metacot`, and LLM-Modulo rounds).

* `arith.find_claims` / `arith.check_claim`: `a op b = c` claims, checked exactly.
* `analysis.analyse`: relates domain-replayed `Candidate`s, verification claims and arithmetic
  to the steps and the answer; gives step verdicts and faithfulness gaps.
* Candidates are each family's own (`countdown/thinking.py`, `puzzles/thinking.py`,
  `planning/thinking.py`): this package imports no domain family, they import it.
* `numbers`: final numeric answers as people write them.

No domain is registered here (this package defines no DOMAIN).
"""
