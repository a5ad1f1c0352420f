"""The `word_sorting` domain: BIG-Bench's alphabetical sorting of a word list, the chain of
thought's letter claims, partial orders and sub-sorts judged against the words themselves
(replay.py)."""
