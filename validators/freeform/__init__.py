"""Free-form questions: the `freeform` domain.

What is checked: the answer against `problem.reference_answer` (numbers exactly, whatever their
formatting; otherwise normalised text), and every `a op b = c` claim in a thinking trace, exactly.
No external rule source: exact rational arithmetic (validators/exact_arithmetic.py) and the
thinking-trace analysis of validators/thinking/.

* `replay.py`: the replay; `domains.py`: its registration.
"""
