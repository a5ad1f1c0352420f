"""Replaying what a thinking trace claims (formats `think`, `metacot`, and LLM-Modulo rounds).

* `arith.find_claims` / `arith.check_claim`: `a op b = c` claims, checked exactly.
* `analysis.analyse`: relates domain-replayed `Candidate`s, verification claims and arithmetic
  to the steps and the answer; gives step verdicts and faithfulness gaps.
* `finders`: Countdown and puzzle candidates (planning's are in validators/planning/thinking.py).
* `numbers`: final numeric answers as people write them.

No domain is registered here (this package defines no DOMAIN).
"""
