"""The `dyck_languages` replay: stack claims, end-of-input claims and the answer, with roots and
consequences, on BIG-Bench Mistake's wording."""

from audit import audit_record
from core.record import record_from_json
from validators.dyck_languages.replay import closing, recognise

HEAD = ["We should process each input one by one and keep track of the stack configuration.", "stack: empty"]


def _audit(seq: str, steps: list[str], answer: str = ""):
    record = record_from_json({"domain": "dyck_languages", "format": "steps", "problem": {"input": seq},
                               "trace": steps, "answer": answer})
    return audit_record(record).verdict.to_json()


def _invalid(verdict):
    return {s["step"]: (s["rule"], s["consequence_of"]) for s in verdict["invalid_steps"]}


def test_a_correct_trace_is_valid_and_its_answer_right():
    v = _audit("( < [ ( )", HEAD + ["( ; stack: (", "< ; stack: ( <", "[ ; stack: ( < [", "( ; stack: ( < [ (",
                                    ") ; stack: ( < [",
                                    "Now, we have reached the end. The final stack is \"( < [\".",
                                    "We will need to pop out \"[\", \"<\", \"(\" one by one in that order.",
                                    "So, we need \"]\", \">\", \")\". So the answer is ] > )"], "] > )")
    assert v["trace_valid"] is True and v["answer_correct"] is True and v["invalid_steps"] == []


def test_a_wrong_pop_is_the_root_and_what_follows_from_it_its_consequence():
    v = _audit("[ ( ) ] {", HEAD + ["[ ; stack: [", "( ; stack: [ (", ") ; stack: empty", "] ; stack: empty",
                                    "{ ; stack: {", "Now, we have reached the end. The final stack is \"{\".",
                                    "So the answer is }"], "}")
    # step 4 pops two brackets; step 5's "]" closes nothing on the trace's own (empty) stack, a
    # second root; from then on the trace's stacks are the true ones again
    assert _invalid(v) == {4: ("wrong_stack", None)}
    assert v["first_invalid_step"] == 4 and v["answer_correct"] is True
    assert "the stack is [, not empty" in v["invalid_steps"][0]["message"]


def test_a_push_on_a_wrong_stack_is_a_consequence():
    v = _audit("( [ { <", HEAD + ["( ; stack: (", "[ ; stack: ( (", "{ ; stack: ( ( {", "< ; stack: ( ( { <",
                                  "Now, we have reached the end. The final stack is \"( ( { <\".",
                                  "So, we need \">\", \"}\", \")\", \")\". So the answer is > } ) )"], "> } ) )")
    assert _invalid(v) == {3: ("wrong_stack", None), 4: ("wrong_stack", 3), 5: ("wrong_stack", 3),
                           6: ("wrong_final_stack", 3), 7: ("wrong_closing", 3)}
    assert v["answer_correct"] is False


def test_a_skipped_symbol_is_found_and_the_reading_resyncs():
    v = _audit("{ { < > }", HEAD + ["{ ; stack: {", "< ; stack: { <", "> ; stack: {", "} ; stack: empty",
                                    "Now, we have reached the end. The final stack is empty.", "So the answer is"])
    found = _invalid(v)
    assert found[3] == ("wrong_symbol", None) and v["first_invalid_step"] == 3
    assert all(c == 3 for step, (_, c) in found.items() if step > 3)
    assert "the next input symbol (number 2) is '{'" in v["invalid_steps"][0]["message"]


def test_ending_early_and_a_wrong_pop_order_are_flagged():
    v = _audit("( [ ]", HEAD + ["( ; stack: (", "[ ; stack: ( [",
                                "Now, we have reached the end. The final stack is \"( [\"."])
    assert _invalid(v) == {4: ("not_at_end", None)}
    v = _audit("( [", HEAD + ["( ; stack: (", "[ ; stack: ( [",
                              "Now, we have reached the end. The final stack is \"( [\".",
                              "We will need to pop out \"(\", \"[\" one by one in that order."])
    assert _invalid(v) == {5: ("wrong_pop_order", None)}


def test_sentences_that_claim_nothing_are_not_judged():
    v = _audit("(", ["Let us think.", "( ; stack: (", "Done thinking."], ")")
    assert v["trace_valid"] is True and v["answer_correct"] is True


def test_recognition_and_closing():
    assert recognise({"input": "[ { < >"}) and recognise({"input": "Input: ( ["})
    assert not recognise({"input": "(((-9 - 5) * 2) + 1) ="}) and not recognise({"input": "kitten cat"})
    assert closing(["(", "<", "["]) == ["]", ">", ")"]


def test_a_bracket_counted_in_words_pops_that_many_times():
    """'pop out "[" twice and "{" once in that order' is [ [ { (BIG-Bench Mistake dyck, dev B
    row 219: labelled without a mistake, which is right; we had read "[ {")."""
    steps = ["We should process each input one by one and keep track of the stack configuration.",
             "stack: empty", "{ ; stack: {", "[ ; stack: { [", "[ ; stack: { [ [",
             "Now, we have reached the end. The final stack is \"{ [ [\".",
             "We will need to pop out \"[\" twice and \"{\" once in that order.",
             "So, we need \"]\", \"]\", \"}\". So the answer is ] ] }"]
    v = _audit("{ [ [", steps, "] ] }")
    assert v["invalid_steps"] == [] and v["answer_correct"] is True
    wrong = steps[:6] + ["We will need to pop out \"[\" once and \"{\" once in that order."] + steps[7:]
    assert _invalid(_audit("{ [ [", wrong, "] ] }")) == {6: ("wrong_pop_order", None)}


def test_claims_in_bold_or_backticks_are_read_through_the_reading_layer():
    # "**final stack**" and a backticked symbol step: markdown breaks no claim, and "> ; stack:"
    # keeps its ">" (the layer trims it as a quotation mark in prose)
    steps = HEAD + ["( ; stack: (", "< ; stack: ( <", "`> ; stack: (`",
                    "Now, we have reached the end. The **final stack** is \"( <\".",
                    "So, we need \")\". So the answer is )"]
    v = _audit("( < >", steps, ")")
    assert _invalid(v) == {5: ("wrong_final_stack", None)}
    assert "the stack after the whole input is (, not ( <" in v["invalid_steps"][0]["message"]
    steps[5] = "Now, we have reached the end. The **final stack** is \"(\"."
    v = _audit("( < >", steps, ")")
    assert v["trace_valid"] is True and v["answer_correct"] is True
