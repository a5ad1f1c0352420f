"""The `logical_deduction` domain: BIG-Bench's ordering puzzles (up to seven objects), each
claimed ordering judged against every ordering the statements used so far allow, by brute
force (problem.py reads the puzzle, replay.py judges the steps)."""
