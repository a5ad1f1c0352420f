"""Multi-digit multiplication: the `multiplication` domain (N-digit by M-digit; the task of
Dziri et al. 2023, "Faith and Fate: Limits of Transformers on Compositionality", whose
scratchpads write partial products, carries and running sums, and whose models fail to
generalise to more digits than they were trained on).

Problem: {"a": 123, "b": 345} (integers or digit strings; optionally "question",
"reference_answer"); the reference is the exact product.

* `problem.py`: reading a problem, its length (digits of the longer factor) and reference.
* `replay.py`: the replay (every `a op b = c` claim exactly, validators/thinking/arith.py; plus
  written digits and carries, and which digit of the multiplier a partial product uses) and its
  DomainSpec.
* `generate.py`: problems by length, deterministic by seed.
* `synthetic.py`: SYNTHETIC long-multiplication traces with injected errors, for tests and
  benchmarks only.
"""
