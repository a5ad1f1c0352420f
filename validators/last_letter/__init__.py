"""Last-letter concatenation: the `last_letter` domain (Wei et al. 2022, "Chain-of-Thought
Prompting Elicits Reasoning in Large Language Models", section 5: take the last letters of the
N words and concatenate them; chain of thought that does not generalise to more words than the
exemplars show).

Problem: {"words": [...]} (optionally "question", "reference_answer"); the reference is the
words' last letters joined, and a `reference_answer` that disagrees makes the answer undecided.

* `problem.py`: reading a problem, its length (N words) and reference.
* `replay.py`: the replay (string claims of validators/thinking/strings.py, plus the task:
  which word a letter belongs to and the order of concatenation) and its DomainSpec.
* `generate.py`: problems by length, deterministic by seed, from `words.py`.
* `synthetic.py`: SYNTHETIC traces with injected errors, for tests and benchmarks only.
"""
