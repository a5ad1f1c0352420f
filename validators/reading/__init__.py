"""The reading layer every free-text domain shares: the text segmented once, tokens with spans,
numbers normalised once, and the closed-class cue words as data (lexicon.json)."""
