"""The `multistep_arithmetic` domain: BIG-Bench's multistep arithmetic (nested integer
expressions with signs), every rewrite of the chain of thought evaluated exactly (replay.py)."""
