"""The `tracking_shuffled_objects` domain: BIG-Bench's swaps of objects between people, replayed
one swap at a time (problem.py reads the task, replay.py judges the steps)."""
