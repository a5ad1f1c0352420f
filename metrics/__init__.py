"""Comparing and scoring verdicts: agreement with reference labels (`agreement.py`) and with
outside scorers (`outside_labels.py`, `score_agreement.py`), which records pose the same problem
and which answers say the same thing (`problem_key.py`), selection metrics over repeated samples
(`selection.py`), lining up the steps of two traces (`step_align.py`) and anchoring a comment to
the text it quotes (`quote_anchor.py`).

A bottom-layer package beside core/: pure functions over plain values, importing core (the
model) and nothing above it.
"""
