"""The `word_sorting` replay: letter claims, bucket chains, the order sub-sorts are taken in,
stale chains, dropped words, roots and consequences, and the answer."""

from audit import audit_record
from core.record import record_from_json
from validators.word_sorting.replay import read_chain, recognise, refine

WORDS = "cat apple bee ant"
GOOD = [
    'The first letter: "cat": "c" (3). "apple": "a" (1). "bee": "b" (2). "ant": "a" (1).',
    'We now have: (1) ["apple" ? "ant"] < (2) "bee" < (3) "cat".',
    'Now let\'s sort this subpart ["apple" ? "ant"] by looking at their second letters. The second letter: '
    '"apple": "p" (16). "ant": "n" (14).',
    'We now have: (14) "ant" < (16) "apple" for the subpart. Hence, we have "ant" < "apple" < "bee" < "cat".',
    "I have now sorted all the words. The answer is ant apple bee cat",
]


def _audit(steps, answer="ant apple bee cat", words=WORDS):
    record = record_from_json({"domain": "word_sorting", "format": "steps", "problem": {"input": words},
                               "trace": steps, "answer": answer})
    return audit_record(record).verdict.to_json()


def _invalid(v):
    return {s["step"]: (s["rule"], s["consequence_of"]) for s in v["invalid_steps"]}


def test_chains_and_buckets_are_read():
    chain = read_chain('(2) ["being" ? ["bellyache" ? "widen"]] < (3) "cider"')
    assert [(b.number, b.words) for b in chain] == [(2, ("being", "bellyache", "widen")), (3, ("cider",))]
    assert refine(("bee", "be", "bat"), 2) == [("bat",), ("bee", "be")]
    assert refine(("bee", "be"), 3) == [("be",), ("bee",)]
    assert recognise({"input": WORDS}) and not recognise({"input": "( [ {"}) and not recognise({"input": "Alice has"})


def test_a_right_trace_is_valid():
    v = _audit(GOOD)
    assert v["trace_valid"] is True and v["answer_correct"] is True


def test_a_wrong_letter_is_the_root_and_the_order_it_gives_a_consequence():
    steps = list(GOOD)
    steps[2] = steps[2].replace('"ant": "n" (14)', '"ant": "t" (20)')
    steps[3] = 'We now have: (16) "apple" < (20) "ant" for the subpart. Hence, we have "apple" < "ant" < "bee" < "cat".'
    steps[4] = "I have now sorted all the words. The answer is apple ant bee cat"
    v = _audit(steps, "apple ant bee cat")
    assert _invalid(v) == {2: ("wrong_letter", None), 3: ("wrong_position", 2), 4: ("wrong_order", 2)}
    assert 'the second letter of "ant" is "n", not "t"' in v["invalid_steps"][0]["message"]
    assert v["answer_correct"] is False


def test_a_wrong_position_and_a_misplaced_bucket_are_roots():
    steps = list(GOOD)
    steps[1] = 'We now have: (1) ["apple" ? "ant"] < (2) "cat" < (3) "bee".'
    v = _audit(steps)
    assert _invalid(v)[1][0] == "wrong_position" and '"bee" sorts before "cat"' in v["invalid_steps"][0]["message"]


def test_a_chain_that_forgets_a_sub_sort_is_stale_and_a_dropped_word_is_found():
    steps = list(GOOD)
    steps[3] = 'We now have: (14) "ant" < (16) "apple" for the subpart. Hence, we have ["ant" ? "apple"] < "bee" < "cat".'
    assert _invalid(_audit(steps))[3][0] == "stale_order"
    steps = list(GOOD)
    steps[4] = "I have now sorted all the words. The answer is ant apple cat"
    v = _audit(steps, "ant apple cat")
    assert _invalid(v) == {4: ("word_dropped", None)} and v["answer_correct"] is False


def test_sub_sorts_go_depth_first():
    words = "bab baa aab aaa"
    steps = ['The first letter: "bab": "b" (2). "baa": "b" (2). "aab": "a" (1). "aaa": "a" (1).',
             'We now have: (1) ["aab" ? "aaa"] < (2) ["bab" ? "baa"].',
             'Now let\'s sort this subpart ["aab" ? "aaa"] by looking at their second letters. The second letter: '
             '"aab": "a" (1). "aaa": "a" (1).',
             'We now have: (1) ["aab" ? "aaa"] for the subpart. Hence, we have ["aab" ? "aaa"] < ["bab" ? "baa"].',
             'Now let\'s sort this subpart ["bab" ? "baa"] by looking at their second letters.']
    v = _audit(steps, "aaa aab baa bab", words)
    assert _invalid(v) == {4: ("wrong_subpart", None)}
    assert 'the first bucket still unsorted is ["aab" ? "aaa"]' in v["invalid_steps"][0]["message"]


def test_steps_without_claims_are_not_judged():
    v = _audit(["Let me think about this.", "I have now sorted all the words. The answer is ant apple bee cat"])
    assert v["trace_valid"] is True and v["answer_correct"] is True


def test_a_position_given_to_a_letter_outside_the_alphabet_names_the_character():
    # "o's": its second character is the apostrophe, which sorts before every letter (the exact-match
    # targets put "o's" before "orchestrate"), so a position given to it is false and says so.
    steps = [
        'The first letter: "o\'s": "o" (15). "oak": "o" (15).',
        'We now have: (15) ["o\'s" ? "oak"].',
        'Now let\'s sort this subpart ["o\'s" ? "oak"] by looking at their second letters. The second letter: '
        '"o\'s": "s" (19). "oak": "a" (1).',
        'We now have: (1) "oak" < (19) "o\'s" for the subpart. Hence, we have "oak" < "o\'s".',
        "I have now sorted all the words. The answer is oak o's",
    ]
    v = _audit(steps, "oak o's", words="o's oak")
    messages = " ".join(s["message"] for s in v["invalid_steps"] if s["step"] == 3)
    assert 'the second letter of "o\'s" is "\'", which has no alphabet position, not 19' in messages
    assert "None" not in messages and v["answer_correct"] is False


def test_saying_all_words_are_sorted_while_a_tie_is_left_is_false():
    """"apple" and "apt" share their second letter; the trace ties them and never sorts the tie by
    the third, then says 'I have now sorted all the words.': false of its own order, though the
    answer happens to order them rightly. Every claim before it is true."""
    steps = [
        'The first letter: "cat": "c" (3). "apple": "a" (1). "bee": "b" (2). "apt": "a" (1).',
        'We now have: (1) ["apple" ? "apt"] < (2) "bee" < (3) "cat".',
        'Now let\'s sort this subpart ["apple" ? "apt"] by looking at their second letters. The second letter: '
        '"apple": "p" (16). "apt": "p" (16).',
        'We now have: (16) ["apple" ? "apt"] for the subpart. Hence, we have ["apple" ? "apt"] < "bee" < "cat".',
        "I have now sorted all the words. The answer is apple apt bee cat",
    ]
    v = _audit(steps, "apple apt bee cat", words="cat apple bee apt")
    assert _invalid(v) == {4: ("subpart_left_unsorted", None)}
    assert "apple" in v["invalid_steps"][0]["message"] and v["answer_correct"] is True
    fixed = steps[:4] + ['Now let\'s sort this subpart ["apple" ? "apt"] by looking at their third letters. The third '
                         'letter: "apple": "p" (16). "apt": "t" (20).',
                         'We now have: (16) "apple" < (20) "apt" for the subpart. Hence, we have "apple" < "apt" < "bee" '
                         '< "cat".', steps[4]]
    assert _audit(fixed, "apple apt bee cat", words="cat apple bee apt")["trace_valid"] is True


def test_a_word_copied_with_a_typo_is_judged_as_the_word_it_copies():
    """BIG-Bench Mistake labels logical mistakes: "thencefort" for "thenceforth", sorted where
    "thenceforth" goes, is no mistake; a word that copies none of the input's is still added."""
    from validators.word_sorting.replay import copying_slip

    words = "bohemia dearth thenceforth"
    steps = ['The first letter: "bohemia": "b" (2). "dearth": "d" (4). "thencefort": "t" (20).',
             'We now have: (2) "bohemia" < (4) "dearth" < (20) "thencefort".',
             "I have now sorted all the words. The answer is bohemia dearth thenceforth"]
    v = _audit(steps, "bohemia dearth thenceforth", words)
    assert v["trace_valid"] is True and v["answer_correct"] is True
    invented = _audit([steps[0].replace("thencefort", "zebra")] + steps[1:], "bohemia dearth thenceforth", words)
    assert _invalid(invented)[0][0] == "word_added"
    assert copying_slip("liberate", ["librate", "teal"]) == "librate"
    assert copying_slip("bat", ["bar"]) is None and copying_slip("cane", ["cone", "cant"]) is None
    kept = _audit(steps[:2] + ["I have now sorted all the words. The answer is bohemia dearth thencefort"],
                  "bohemia dearth thencefort", words)
    assert kept["answer_correct"] is False  # the answer keeps the typo: wrong


def test_bold_and_backticked_claims_are_read_through_the_reading_layer():
    # markdown emphasis breaks neither a letter claim nor a chain
    steps = list(GOOD)
    steps[0] = 'The **first letter**: **"cat": "c" (3)**. "apple": "a" (1). "bee": "b" (2). `"ant": "a" (11)`.'
    v = _audit(steps)
    assert _invalid(v)[0] == ("wrong_letter", None) and v["first_invalid_step"] == 0
    assert '"a" is letter 1 of the alphabet, not 11' in v["invalid_steps"][0]["message"]
    steps = list(GOOD)
    steps[1] = 'We now have: **(1) ["apple" ? "ant"] < (3) "bee"** < (3) "cat".'
    v = _audit(steps)
    assert _invalid(v) == {1: ("wrong_position", None)}
