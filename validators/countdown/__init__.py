"""Countdown: the `countdown` domain (Stream-of-Search search logs and Countdown answers).

What is checked: each log step's arithmetic, that its operands are available, the resulting
numbers, node ids and goal claims; and the final expression or list of operations against the
numbers and the target. Source: Stream of Search (Gandhi et al. 2024, kanishkg/stream-of-search
`src/countdown*.py`), reference-semantics.md section 3.

* `replay.py`: the domain's replay (`domains.py` registers it); `_sos_replay.py`: the log replay.
* `solver.py`: number multisets and the SoS solver; `answer.py`: reading and checking an
  answer (the arithmetic itself is validators/exact_arithmetic.py, shared by every reader).
* `thinking.py`: Countdown candidates in thinking text (`think`, `metacot`).
* `generate.py`: Stream-of-Search's DFS/BFS log generator, reproduced (tests, benchmarks).
"""
