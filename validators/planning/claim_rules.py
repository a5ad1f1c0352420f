"""The rules that read planning claims, as rows: an id, a pattern over the unit's shape, what the
row sets, the example it was written for, and where that example came from.

A unit's **shape** is one letter per token or mention (validators/planning/reading.py::shape):
actions and facts of the task, the lexicon's cue classes and the punctuation that carries
meaning. Matching a row is a regex search on that string, so a rule is data that can be read,
tested on its example, and cited by the claims it makes ("why was this read as a claim?").

Letters: A action with all its objects, a action without them, F fact of the task, f predicate
named without objects; cue classes R req, D add, X del, S state, Y yes, N no, C can, K cant,
H hedge, G guess, I cond, E restart, B retract, W now, T after, Z initially, U cause, M means,
O goal, P goal_met, V works, L plan, J step, Q question, g general, n neg, k kept, ~ filler;
"#" a number, "&" "and", "_" any other word; punctuation as itself, ">" an arrow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Row:
    id: str
    sets: str          # what a match makes: a claim kind and polarity, or a line event
    pattern: str       # regex over the shape
    example: str
    source: str
    note: str = ""

    @cached_property
    def regex(self) -> re.Pattern[str]:
        return _compiled(self.pattern)


_CACHE: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    got = _CACHE.get(pattern)
    if got is None:
        got = _CACHE[pattern] = re.compile(pattern)
    return got


# "doc": ../shared/docs/thinking-claims.md; "R1": a DeepSeek-R1 PlanBench trace (dev half A, or the
# 27 unannotated traces of planbench_r1_thinking.jsonl); "planted": a sentence a tester wrote; "probe": a
# sentence a developer wrote in a common English form of the claim kind, read after a walk whose state
# is known, for a form no R1 trace here uses.
ROWS: tuple[Row, ...] = (
    # -- line events -----------------------------------------------------------------------
    Row("event.then", "perform the actions joined to the head action by 'then', in order",
        r"(?P<act>A)[,&]{0,2}~A", "So, Attack b, then Overcome b from c.", "doc",
        "each is taken where the one before it leaves the line (forced where it cannot be done, as a step "
        "of its own is); one named without all its objects loses the line (the model's state is then not known)"),
    Row("event.perform", "perform the head action", r"^[~WYJ#:,()]*(?:M[^A.]*?,[~W]*)?(?P<act>A)",
        "So Feast b from c.", "doc",
        "the action opens the unit, after filler words or a step label; not in a question, a condition "
        "or a rejection (modality)"),
    Row("event.step_proposed", "perform the action proposed as the next step",
        r"^[~_]{0,3}J[~]?G_?(?P<act>A)", "So first action could be unstack Blue from Red.", "R1",
        "'the first step would be to X', 'first action could be X': the walk the text then goes on with "
        "('Then I'm holding Blue.') starts with it"),
    Row("event.initial_item", "a new line from the initial state: an outline's item 1 lays the initial state out",
        r"^[~_]{0,2}Z[~_]{0,2}:?[^AaIHG]*F", "1. The initial state: red on orange, orange on table. Blue on table.",
        "planted", "item 1 of a list with no action, whose words are the initial state: the walk starts again from it"),
    Row("event.from_initial", "a new line from the initial state, and the action it opens with",
        r"^[~,]*Z:(?P<act>A)>", "Initial state: Attack a → Pain a, no harmony, provinces b, planets c.", "R1",
        "the initial state named as the start of an arrow walk, whatever line the text was on"),
    Row("event.bullet_step", "perform the action a bullet or item opens with, before its colon",
        r"^[~_]{0,2}(?P<act>A)\)?:",
        "- When unstacking red from orange: hand is empty, red is clear, red is on top of orange.", "R1",
        "a walk checked bullet by bullet: each bullet is the step it names"),
    Row("event.can_perform", "perform the action the unit says it can take, when it is applicable",
        r"^[~WY,]*_?C(?P<act>A)(?![^.]*[|&]A)",
        "Then I can put blue down on the table, which would make blue clear again.", "R1",
        "a walk narrating its step; when the action is not applicable there, steps may have been left out "
        "('Then we can stack red on orange' in an outline): the line is lost, nothing is judged"),
    Row("event.went_back", "lose the line: a condition names a step the line took and can no longer take",
        r"^[~,_I]{0,4}(?P<act>A)", "When I unstack Blue from Orange, Blue is in hand, then put down.", "R1",
        "the unit opens with 'when' or 'once' (reading._opens_with_condition): the text has gone back to a "
        "state before that step (a walk told again from the start): "
        "which one is not said, so nothing is judged until a step, a list or a recap places it"),
    Row("event.after", "the state after the named action", r"T[~_]{0,2}(?P<act>A)",
        "After Attack a, Pain a holds.", "R1",
        "the claims after it speak of the state after the action; the line performs it if it has not"),
    Row("event.restart", "new line from the initial state", r"^[^F]*E",
        "Let me start over from the initial state.", "R1",
        "not after a fact of the unit: 'Province c was still present from the initial state' says where the fact came "
        "from (planted set 8)"),
    Row("event.branch", "the line is uncertain from here: another branch, from a state not named",
        r"^[~,]*G", "Alternatively, Succumb a first.", "R1",
        "a line-opening 'Alternatively' (lexicon class branch, written G like a guess) goes back to some earlier "
        "state; claims on the line are left unjudged ('line uncertain') until a restart, a list or 'after step k' "
        "names the state"),
    Row("event.step_named", "an inapplicable step that names its number is that step of the walk it names",
        r"(?P<act>A)\)?\(J#\)", "Wait, after putting blue on the table, red is on orange. So unstack red from orange (step 3).",
        "R1", "a line whose step k is this action, doable after its first k-1 steps (replayed from the initial "
        "state when the line's state was lost), is forked there (lines.py)"),
    Row("event.and_it", "perform the second action of 'A and <action> it ...', 'it' being the first's object",
        r"(?P<act>A)&a", "So yes, pick up orange and stack it on red.", "R1",
        "the clause is read again with the object's words in place of 'it'; taken only when doable"),
    Row("event.unnumbered_step", "keep a step taken between two items when the next item needs it",
        r"^[~J#:,]*(?P<act>A)", "Step 2: Succumb c. So Attack a: Effects: ... Step 3: Overcome a from b.", "R1",
        "item k after more steps than k-1: when its action is doable only with the unnumbered steps (and they "
        "came from no item), the numbering shifts instead of forking back to step k-1"),
    Row("event.described_now", "perform the step the unit before told the effects of: the state now follows it",
        r"^[~,]*W[~,]*[fF]", "Succumb b adds Province b, Planet b, Harmony. Now, Province is b again, Harmony is back.",
        "R1", "'Succumb b adds ...' describes the step (not taken); a 'Now, <facts>' unit right after it in the "
        "paragraph speaks of the state after it, so the model took it"),
    Row("event.blocked", "undo the step just taken: the next unit says one of its unmet needs is gone",
        r"^[~,]*c[^A]*F[~_]{0,3}(?:X|N|n)", "But Harmony was removed in step 3.", "R1",
        "after '4. Feast b from c (requires b craves c, Province b, Harmony).' when Harmony does not hold: the "
        "model found the step blocked and did not take it (lines.py undo); judged by the claim it makes"),
    Row("event.cant", "undo the step just taken: a unit a little after it says, naming no action, that it cannot be done",
        r"^[~,c]*K(?![^.]*A)", "Can't perform because Harmony is missing.", "R1",
        "after '2. Attack a.' and its needs listed ('- Pre: ..., Harmony (no).'), when Attack a is not applicable on "
        "the line: the model found the step blocked and did not take it (review of 2026-12-04)"),
    Row("event.step_told", "the text stays at the step just taken: a paragraph telling its needs or effects",
        r"^[~_]{0,2}[RDXT]:?[^AaIHGQNKn]*$", "Step 2: Overcome b from c.\n\nPre: Province c (yes), Pain b (yes).\n\n"
        "Post: Harmony, Province b, b craves c.\n\nRemoves Province c, Pain b.\n\nState:\n\n- Planets a, b, c.", "planted",
        "so a state heading after them speaks of the state after the step, however many paragraphs they take; "
        "only paragraphs right after each other, and only for the line's last action; not one that finds a "
        "need missing ('Requires Pain c (no). Can't do.' takes the step back); with no step in focus, a "
        "paragraph whose effect claims are about the line's last action ('Add: ...' under 'After Feast a from "
        "b, the effects are:')"),
    Row("event.completed", "an action named with some of its objects, read whole where the line leaves one binding",
        r"a", "But wait, after unstacking blue, I'm holding it.", "R1",
        "the line's last action for a done form or after 'after' ('after unstacking blue'); else the one binding "
        "that can be done in the line's state; none or several: kept as read (reading._completed)"),
    Row("event.shared_verb", "a verb two actions share, said with the objects of the one that takes fewer, read "
        "as the other where the line completes it",
        r"A", "Lifting blue makes red clear.", "probe",
        "'lift {}' is pick-up and 'lift {} off {}' unstack (vocab/phrasings.json): right after 'Unstack blue from "
        "red.' the unit speaks of that step; the action as named is kept when it can be done and is not the step "
        "just taken (reading._shared_verb)"),
    Row("event.the_step", "an action named by 'the', 'that' or 'this' without objects, right after a step of that name, is it",
        r"^[~_,]*a[~_]*[DXk]", "Attack a. The Attack removes Planet b too.", "probe",
        "the line's last step, taken in the same paragraph and in focus; the noun is the subject (before any effect "
        "cue): 'Planet b goes away with the Attack' is read as the focus step's effect already (reading._the_step_named)"),
    Row("event.supposed", "a step supposed under a heading of its own: the lists under it tell it",
        r"^[~_,]*I[~_]{0,3}(?P<act>A):$", "If we do Overcome c from b:", "planted",
        "the needs, effects and label units that follow, as after a step taken (row effect.told), are judged against "
        "the schema; the step is not taken"),
    Row("event.recall_lost", "the line lost, the units after a recalled past state go on speaking of it",
        r"^[^TZJSE]*$", "So after unstacking blue, red is on table and clear. So I can pick up red right away.", "planted",
        "asserted, in the same paragraph, one after the other, no step taken or mentioned (an action only as what "
        "'can' be done) and no time of their own; while the line is known the recall is for its unit alone"),
    Row("event.state_agrees", "the line's state said 'now', all of it right, keeps the text at the line",
        r"[WS]", "Great, now we have Craves(a, c).", "planted",
        "every state claim the unit makes on the line holds there: later claims reach back from this "
        "paragraph (ANCHOR_PARAGRAPHS), as after a step"),
    Row("event.recall_that", "a unit pointing back ('that', 'this') right after a recalled past state speaks of it",
        r"^[^AaTWZJS]*$", "So after step 2, red is on blue, so blue is under red. Strictly speaking, that alone "
        "already satisfies the goal.", "planted",
        "asserted, in the same paragraph, naming no action or time of its own (reading._points_back); 'That is, "
        "...' points at nothing"),
    Row("event.unnamed", "the line may have moved: an action named without its objects heads a step",
        r"^[~J#:,]*a(?![^.]*[RDXgn&aC])",
        "Then stack on red.", "R1", "rule talk ('Succumb requires Pain') is not a step, nor is 'So Attack could be done'"),
    # -- applicability ---------------------------------------------------------------------
    Row("app.can", "applicability +", r"C[~_W]{0,3}(?P<act>A)|(?P<act2>A)\)?:?[~_W]{0,3}G?C",
        "Then, with Pain present, we can Succumb c.", "doc", "also a bullet 'Put down blue: allowed.'; 'would be "
        "possible' (G) only where the unit is asserted: with the facts that make it so (reading._would_be_doable_because)"),
    Row("app.works", "applicability +: the one action of the sentence said to work now",
        r"(?P<act>A)(?P<act2>)[~_W]{0,3}V(?![~_]*[AaLO])",
        "Feast c from b would still work at this point, since c craves b.", "planted",
        "one action and a time word ('now', 'at this point'): whether it can be done there, not a plan verdict"),
    Row("app.yes_after_needs", "applicability + (the focus action)", r"^[~,]*(?:Y|C)[~_]*[.!]?$|R.*F.*Y[~_]*$|^A\)?:F[^AQRIH]*,[~]*(?:Y|C)[~_]*[.!]?$",
        "Attack b: needs Province b, Planet b, Harmony. Yes.", "R1",
        "a bare 'Yes.' or 'So possible.' answers the needs just listed for the action in focus; also after "
        "the needs checked in the step's own unit ('Succumb a: Pain a is present, so yes.', probe)"),
    Row("app.because_needs", "applicability + (the focus action), with the needs that make it so",
        r"^[~_,]{0,3}C[~_]{0,2}U[~_]{0,2}F(?:[,&]{1,2}[~_]{0,2}F)*[.!]?$",
        "Step 3: Pick up red. Possible because red is clear, hand is empty.", "R1",
        "right after the step is named (or after its needs are checked): judged as app.yes_after_needs, and "
        "each fact that is a need of the step is checked before it (state.need_check)"),
    Row("app.step_allowed", "applicability +: the list's step k said allowed or possible", r"J#[~_]{0,2}C",
        "So step 2 is allowed.", "R1",
        "judged in the state before the line's step k when the list's numbering is that of the line's "
        "actions; the facts before it in the unit are step k's needs, judged in that state too"),
    Row("app.cant", "applicability -", r"K",
        "Province is b, so Attack a can't be done.", "doc"),
    Row("app.can_unnamed", "applicability + of the action the next unit names", r"C[~_]{0,3}a(?![~_]*[FfA])",
        "Then, with Pain present, we can Succumb. Let's Succumb c.", "doc",
        "'we can Succumb', then 'Let's Succumb c': the doable claim is about the action then named"),
    Row("app.some_needs", "needs of an action named without objects, with objects", r"^[~_]*a[^AQDXIH]*R[^AQ]*F",
        "Attack action requires Province (b), Planet (a), Harmony. All present.", "R1"),
    Row("app.some_can", "applicability +: an action named with no objects said doable: is any grounding?",
        r"^[~_c,]*a[~_]{0,2}C[~_W]*[.!]?$", "So Attack could be done here.", "R1",
        "after the state is laid out ('The Province is b, Planet is a, and Harmony exists.'): R1 pairs the "
        "Province of one object with the Planet of another; judged in the line's state (no Attack fits there)"),
    Row("app.all_present", "'All present.' after such needs: some grounding is said doable", r"^[~,_]*Y[~_]*[.!]?$",
        "All present.", "R1"),
    Row("app.walk", "applicability +: an item that takes the action and states its effects", r"^[~J#:,()]*A",
        "2. Succumb to b: So Succumb b. Adds Province b, Planet b, Harmony. Pain removed.", "R1",
        "a numbered step of a walk that applies the action and lists what it adds or removes presents it as doable"),
    # -- facts -----------------------------------------------------------------------------
    Row("fact.tag", "state: the tagged fact", r"(?P<fact>F)\(?[:>\-]?(?P<tag>[YN])\)?",
        "Province b (yes), Planet c (no).", "R1",
        "a fact with a yes/no tag; in a needs listing, about the state before the focus action"),
    Row("state.list", "state: each fact listed", r"^[^FARDX]*(?:S|W|Z)|^[^ARDX]*F[~_n]{0,3}W|^F(?:[,&]{1,2}F)*Z[.!]?$",
        "Now, state: Planet a, b, c.", "doc",
        "a list presented as the state asserts each fact it lists; also 'Blue is now on the table', "
        "'Red is not clear yet', and facts the unit closes with 'initially' ('Blue is on the table initially.', probe)"),
    Row("state.plain", "state: a plain statement of facts right after a step", r"^[~&c,]*F(?:[,&]+F)*[W~]*[.!]?$",
        "1. Unstack blue from red. Blue is on the table.", "planted",
        "the state the step left, in the same paragraph; one that held before the step may be the next "
        "step's precondition and is left unjudged"),
    Row("state.said_now", "state: plain facts in a paragraph that laid out the state 'now', the line unmoved",
        r"^[~&c,]*F(?:[,&]+F)*[W~]*(?:[,c~]*U[^AaIQHGB]*)?[.!]?$",
        "Hmm, so right now, blue is on red. Blue isn't clear, though, since it's sitting on red.", "planted",
        "the facts before a reason; the paragraph goes on describing the state its 'right now' opened"),
    Row("state.said_initial", "state: plain facts in a paragraph that laid out the initial state, the line unmoved",
        r"^[~&c,]*F(?:[,&]+F)*[W~]*(?:[,c~]*U[^AaIQHGB]*)?[.!]?$",
        "The initial state is that the red block is on the orange block. So orange isn't clear.", "planted",
        "judged in the initial state: the paragraph goes on describing the state it opened with 'initially' or "
        "'the initial state'; a step taken or a time word in between ends it"),
    Row("state.both_readings", "state: after a paragraph went back to a past state, a fact judged where both states agree",
        r"[Ff]", "Orange isn't clear at this point, though.", "planted",
        "after 'after putting red on the table, it's clear' the paragraph's 'now' may be the state recalled or the "
        "line's: the claim is judged only when it holds in both or in neither; otherwise unjudged"),
    Row("state.after_closing", "state: facts before a closing 'after <action>' speak of the state after it",
        r"T[~_]{0,2}(?P<act>A)[~_]{0,3}[.;!]?$", "Both are true after Attack a.",
        "R1", "the one action of the unit, at its end, with no cue of effects, needs, conditions or questions before "
              "it: read as the opening 'After <action>,' is"),
    Row("state.step_list", "state: the facts listed after 'After step k:' hold in the state after the list's step k",
        r"^[~,_c]*T[~_]?J#:[^ARDXIQHGKMO]*F[^ARDXIQHGKMO]*$", "After step 1: Province b, Pain a.", "R1",
        "placed as 'After step k, ...' is (the list's step k as the line holds it); a fact the step added holds "
        "after it too, so a list of its effects reads alike"),
    Row("state.after_opening", "state: facts after an opening 'After <action>,' or 'After that,' speak of the state after it",
        r"^[~,]*T[~_]{0,2}(?:A(?:,?&?A)*)?[~_]{0,2}[,:]", "After Attack a, Harmony is true.", "doc",
        "the actions of the opening clause set the time, they are not what the facts are about (the facts are "
        "judged as in a sentence naming no action); right after the step so named, the sentence says it speaks of "
        "the state after it, so a fact true before and false after is judged (not left to the two readings)"),
    Row("state.either_state", "state: a unit right after a step, false in the state before it and in the state after it",
        r"^[~&c,S]*F(?:[,&]+F)+", "Attack a. Now we have Pain a and Province a.", "doc",
        "a fact true before the step and false after it is not judged alone (the sentence may speak of either "
        "state); when another fact of the same unit is false before the step, no reading makes the unit true, "
        "and the fact is judged false in the state after the step"),
    Row("state.answered", "state: a question about one fact, answered by a bare yes or no in the next unit",
        r"^[~,]*(?P<ans>[YN])[~_]{0,2}(?:[.!]|,(?![^.]*[YNB])|$)", "Is Harmony still there? Yes.", "doc",
        "the answer asserts the fact (or its absence) in the line's state; right after a step, a fact that "
        "differs before and after it is not judged; a question that denies or names more is not read"),
    Row("app.answered", "applicability: 'Can I do X?' answered by a bare yes or no in the next unit",
        r"^[~,]*(?P<ans>[YN])[~_]{0,2}(?:[.!]|,(?![^.]*[YNB])|$)", "Can I Attack b now? No.", "doc",
        "judged in the line's state; a 'yes' about an action that an earlier state of the line allows is "
        "left unjudged (the question may be about that state)"),
    Row("state.after_told", "state ?: a fact the action told in the unit before would make so, false in the line's state",
        r"[Ff]", "Attack a. Succumb a gives back Harmony. So Harmony is true.", "doc",
        "the unit before tells what an action does without taking it; a fact it adds (or removes) said so "
        "next may speak of the state after that action: not judged"),
    Row("state.now_opens", "state: a unit that opens with a time word for now reaches one paragraph further back",
        r"^W", "At that point c no longer craves b, either.", "planted",
        "the line's state after the step taken two paragraphs up (a paragraph of comment between); without "
        "the time word a state claim reaches back one paragraph only (ANCHOR_PARAGRAPHS); a state heading that "
        "opens so ('Now, current state:') reaches as far for the lines under it"),
    Row("state.gone", "state -: a fact said gone", r"(?P<fact>F)[~_n]{0,2}(?:X|N)(?![~_]*[FA])",
        "Harmony is gone.", "doc"),
    Row("state.need_check", "state: a need of the step in focus, listed just before, said to hold or not: before the step",
        r"^[~,c&_]*(?:[nN][~_]{0,1}F|F[~_n]{0,3}[YNX]?)(?:[,&]{1,2}F)*[.!]?$", "Step 4: Overcome a from c needs Province c and Pain a. No Province c.",
        "R1", "each unit of an unbroken run right after the needs are listed checks one; a unit with a time word, "
        "an action, an effect or a state cue is not a check. Unlisted: right after a step taken, a unit whose every "
        "fact is a need of the step opens the run ('Step 1: Pick up red. Red is on table, clear. Hand is empty. So "
        "allowed.'), and a bare 'So allowed.' or 'Valid.' after the run judges the step (app.yes_after_needs)"),
    Row("state.holds", "state +: a fact said to hold or to be kept", r"(?P<fact>F)_{0,2}(?:k|Y|W_)",
        "Province b was not touched, so Province b is still there.", "R1"),
    Row("effect.focus", "effect: add or delete cues in a unit of their own, of the action just taken", r"^[~,]*(?:_~*)?[nN]?[DX]|[Ff]_{0,2}[DX]",
        "1. Feast c from a: needs c craves a. Yes. Gives Pain c, Province a.", "R1",
        "the action in focus (named at the head of a unit just before, in the same paragraph; or, for a unit "
        "opening with 'that', 'this', 'it' or 'which', in the paragraph before, when the step was no list item)"),
    Row("focus.pointing_time", "reading: a time that only points at the step just taken ('after that', 'once that's "
        "done', 'after this step') is no time of its own for the effect rows",
        r"^[~,]*(?P<o>T[~_]{0,2}[JP]?),|(?P<c>T[~_]{0,3}[JP]?)[.;!]?$", "Attack a. We no longer have Planet a after that.",
        "probe", "the words after 'after', 'once' or 'following' hold 'that', 'this' or 'it' ('afterwards' alone); the "
        "effect rows of the step in focus read the unit as if they were filler (reading._pointing_masked)"),
    Row("focus.pointing_subject", "reading: 'this step' or 'that step' as the subject of an add or delete cue is the "
        "step just taken", r"^,?~J(?=[nN]?[DX])", "Attack a. This step adds Pain a.", "probe",
        "read as 'This adds Pain a.' (reading._pointing_masked)"),
    Row("effect.keeps", "state +: facts the action just taken is said to keep, beside its effects",
        r"[DX][^AaIH]*?k(?P<facts>F(?:[,&]+F)*)", "That gives Pain b and Province c while keeping b craves c.", "planted",
        "read where effect.focus reads the effects: the facts after 'keeping' ('leaves', 'keeps') hold after the step"),
    Row("effect.listed", "effect: an effect list in a run of units listing one action's needs and effects",
        r"^[~,]*[DX]|^[T_]:", "Alternatively, Action 3: Attack a.\n\nNeeds Province a, Planet a, Harmony.\n\nAdds Pain.",
        "R1", "the run opens with a unit naming one action in full and telling no state or effect, and goes on "
        "through units whose needs and effect claims are all of it, or bare labels ('This will:'); judged against "
        "the schema, whether the action is taken or only proposed (reading._listing)"),
    Row("effect.made_verb", "effect: a verb that makes a fact true or false ('clears red', 'covers orange', 'frees up "
        "my hand', 'fills the hand') is an add or delete cue with its fact",
        r"[DX]F", "Unstacking blue clears red.", "planted",
        "verbs from phrasings.json keys 'make P' / 'make not P', read by TaskWords.made_facts; judged as any effect, "
        "except that a false one about the line's last step is left unjudged when the state after the step is as "
        "said ('Then put red down. That would free up orange.': the unstack before it freed orange)"),
    Row("effect.leaves_absent", "state -: an action said to leave a fact's absence ('leaves red covered'): "
        "the fact does not hold after it",
        r"(?P<act>A)[~_,]{0,3}k[~_]{0,2}(?P<facts>F)", "Stacking red on orange leaves red covered.", "probe",
        "read on effect.kept's match when the cue is 'leaves' and the fact is said by a word for its absence; "
        "false where the step adds the fact, true where it removes it, else judged in the state before the "
        "step where the line places it"),
    Row("effect.kept", "effect: a named action said to keep (leave, not touch) the facts after the cue",
        r"(?P<act>A)(?:[~_,]{0,3}|[^AIQHGKR.;]*?[,&c]~*_?)k[~_]{0,2}(?P<facts>F(?:[,&]+F)*)"
        r"|(?P<act2>A)[^AIQHGKR.;]*?[,&c:]~*(?P<facts2>F)[~_]{0,2}k", "Attack a leaves Planet b and Province c untouched.",
        "R1", "each fact is said not to be removed by the action: judged against the schema as 'does not remove'"),
    Row("effect.kept_focus", "effect: the step just taken, pointed at, said to keep or leave alone the facts after the cue",
        r"^[~,]*k[~_]{0,2}(?P<facts>F(?:[,&]+F)*)(?P<facts2>)", "That leaves red clear.", "R1",
        "'that', 'this' or 'it' opening the unit right after a step in the same paragraph; judged as effect.kept"),
    Row("effect.label", "effect: after a label ('After:', 'Effects:') in the paragraph of the step just taken, or "
        "in the run telling it (effect.told), the facts before the first add or delete cue are what it adds", r"^[T_]:[~_,&]*[FfDX][^AaRIQHGKNnMOJ]*$",
        "1. Attack a (needs Province a, Planet a, Harmony). After: Pain a, remove Province a, Planet a, Harmony.", "R1",
        "the label is 'after' or 'effects' ('result', 'outcome'); the cues after it govern the facts they reach"),
    Row("effect.unlabelled", "effect: in the run telling the step taken, facts and then a delete cue: the facts "
        "before the cue are what it adds, as after a label", r"^[Ff](?:[,&]{1,2}[Ff])*,&?X[^AaRIQHGKNnMOJ]*$",
        "1. Attack c (using Province c, Planet c, Harmony).\n\n   - Pain c, remove Province c, Planet c, Harmony.", "R1",
        "judged as effect.label; only where every unit since the step tells it (effect.told), so a state list "
        "elsewhere ('Pain a, Province a. Remove ...' of another step) is not read as its adds"),
    Row("effect.told", "effect: an effect list that goes on telling the step taken, over paragraphs",
        r"^[DX]|^[Ff](?:[,&]{1,2}[Ff])*_{0,2}[DX][.!]?$",
        "Step 1: Attack a.\n\nAdds Pain a.\n\nRemoves Province b, Planet b, Harmony.", "R1",
        "an active list opens the unit with its cue, a passive one is the whole unit ('- Pain c added.'); "
        "every unit since the step tells it (its needs, 'Yes.', its effects, the facts it leaves: no other action, "
        "hedge, condition, question or rejection, reading._tells); not a list headed ':' nor one whose verb names "
        "an aim ('4. Create Pain a.'); judged against the schema as effect.focus"),
    Row("state.no", "state -: a fact denied", r"(?:N|n)[~_]{0,1}(?P<fact>F)",
        "no Province b", "doc"),
    # -- effects ---------------------------------------------------------------------------
    Row("effect.add", "effect +: the nearest action before the cue adds the facts the cue governs", r"(?P<act>A)[^AB]*?D",
        "Overcome c from b adds c craves b.", "doc",
        "active ('adds F, F'): the facts after the cue; passive ('F is added'): the list right before it"),
    Row("effect.del", "effect -: the nearest action before the cue deletes the facts the cue governs", r"(?P<act>A)[^AB]*?X",
        "Attack a removes Province a, Planet a and Harmony.", "doc"),
    Row("effect.list", "effect +: facts listed after 'A:' before a removal cue", r"(?P<act>A)\)?[:>](?=[^AR(]*X)",
        "1. Feast b from c: Pain b, Province c, remove b→c, Harmony.", "R1",
        "an effects list: what comes before its 'remove' is added"),
    Row("effect.arrow", "state after the action: each fact after the arrow", r"(?P<act>A)\)?>(?![~_]*R)",
        "Succumb a -> Province a, Planet b.", "doc", "an arrow list is an effect claim; judged in the state after it"),
    # -- goal ------------------------------------------------------------------------------
    Row("goal.not", "goal -: the goal is said not reached", r"^[~,]*(?:n|N)[~_]{0,3}(?:P[~_]{0,2})?O|O[~_]{0,2}(?:n|N)[~_W]{0,2}P",
        "This doesn't reach the goal.", "planted"),
    Row("app.needs_met", "applicability +: the action's needs said met",
        r"(?P<act>A)\)?:?[~_]{0,2}R[~_]{0,2}P|R_(?P<act2>A)[~_]{0,2}P"
        r"|(?P<act3>A)\)?:?[~_]{0,2}R[^AQRDXIHG.;?!]*F,[~&]{0,2}(?:S[_~]?|[_~]{0,2}Y)[.!]?$",
        "Stack red on blue: preconditions are met.", "planted", "'met' of needs, not of the goal; also 'the "
        "preconditions for Succumb c are satisfied', and the needs listed, then 'which we have' or 'which are "
        "both true'"),
    Row("goal.met", "goal +", r"O[~_WS]{0,3}P|P[~_]{0,3}O|V[~_]{0,2}O|O[~_W]{0,3}Y[.!]?$|O[~_:(]{0,2}F(?:[,&]{1,2}[~_]?F)*\)?[~_W]{0,3}P",
        "Now a craves b and b craves c. Goal achieved.", "doc", "also 'the goal condition is already true', 'the "
        "goal is now complete', 'the goal state is reached', and after the facts given as its reason ('Blue is on red, so the goal is reached'), "
        "and with the goal's facts named between ('the goal b craves c is satisfied')"),
    Row("goal.that", "goal +: 'that is the goal' said of the state just told, or of facts before it in the unit",
        r"(?:^|,)[~_Y,&D]{0,5}OS?[.!]?$",
        "Now blue is on orange, which is on red. That's the goal.", "R1",
        "a pointer ('that', 'this', 'which', 'it') and 'is', 'matches' or 'gives' ('That gives the desired "
        "arrangement.', probe) before the goal word, which ends the unit "
        "('Which matches the goal.', 'Red is on orange, which is the goal.'); not 'part of the goal' nor 'what the "
        "goal is'. The unit before, when the pointer opens the unit, tells a state (facts or a step, no need, goal, "
        "condition, hedge or question). Judged as goal.met in the line's state, except when every fact it points "
        "to is a goal fact and holds there: it may name the part of the goal just reached"),
    Row("goal.done", "goal +: a bare 'Done.' right after the state is told",
        r"^[~,_]*P[~_]{0,2}[.!]?$", "Now a craves b and b craves c. Done.", "doc",
        "the unit before, in the same paragraph, only tells a state: facts, no action, effect, need, goal, condition, hedge, "
        "guess or question ('Stack blue on red. Done.' may say the step is done, and is not read); the unit says "
        "nothing but 'done' ('So we're done.'; not 'All conditions met.', which may be a step's needs). 'The task is "
        "complete', 'The problem is solved' speak of the whole task and need no state told before; 'Red is on orange, "
        "so we're done' gives its facts in the unit ('so that's done' may be the step). Judged as goal.met in the "
        "line's state"),
    Row("goal.once", "goal +, on a condition: facts after 'once' or 'after' open the unit", r"^[~,]*T(?P<facts>F(?:[,&]+F)*),",
        "So once blue is on red, both parts of the goal are already satisfied.", "planted",
        "judged as goal.met in the line's state when every fact of the condition holds there; when one does "
        "not, the model speaks of a later state and the claim is left unjudged"),
    # -- headings: a unit ending in ":" says what the lines under it are, to the paragraph's end
    Row("heading.proposal", "the items under it propose (not asserted)", r"[HGI].*:$", "Wait, maybe:", "doc"),
    Row("heading.initial", "the lines under it speak of the initial state", r"Z[^A]*:$", "Initial state:", "R1"),
    Row("heading.after", "the lines under it speak of the state after the action", r"T[~_]{0,2}A[^:]*:$",
        "After Attack b:", "R1", "'- Pain added.' under it is an effect of Attack b"),
    Row("heading.after_step", "the lines under it speak of the state after the step just taken, pointed at",
        r"^[~,]*T(?:[~_]{0,2}|a)?:$", "1. Feast b from c. This uses b craves c, Province b, Harmony. After this:", "R1",
        "'After this:', 'After:', 'After Feast:' (the step's action named without objects); the step is the one "
        "in focus, taken on the line, its last action, named in the heading's paragraph or the one before; "
        "'- Province c is added.' under it is an effect of that step"),
    Row("heading.step", "the bullets under a step taken, that add or remove, tell its effects",
        r"^[~,WJ#:()]*A:$", "So Succumb a:", "R1",
        "only bullets with an add or delete cue and no action, need or hedge: '- Pain a removed.' is an effect "
        "of Succumb a; a bullet of plain facts under it may be its needs or the state after, so it is not read so"),
    Row("heading.req", "the lines under it list needs", r"R.*:$", "Attack a requires:", "R1"),
    Row("heading.add", "the lines under it list additions", r"D.*:$", "Feast b from c adds:", "R1"),
    Row("heading.del", "the lines under it list deletions", r"X.*:$", "Attack a removes:", "R1"),
    Row("heading.state", "the lines under it list the state", r"[SW].*:$", "Now the state is:", "doc"),
    Row("heading.plan", "the list under it is a plan", r"L.*:$", "So the plan is:", "doc"),
    Row("verdict.line", "plan verdict +: the line's actions from the initial state reach the goal", r"V",
        "Yes, that works.", "doc", "judged only when the line surely holds the whole plan walked through"),
    Row("verdict.inline", "plan verdict: actions written out in the sentence, then said to work (or not)",
        r"(?P<seq>[Aa](?:W?[,&~]{0,3}[Aa])+)(?P<gap>W?,?[_~nW]{0,3})(?:V|[PD](?=[~_]{0,2}O[.!]?$))",
        "Feast b from c, Succumb b, Attack c, Overcome c from b also works.", "planted",  # also '... reaches the goal' (probe)
        "replayed from where the sentence puts them: 'after step k' the state after the list's step k, 'from "
        "here' or 'now' the line's state, else the "
        "initial state when the first action can start there, else the line's state; a positive verdict is "
        "false when an action cannot be done (whether the model meant the whole plan or a part), and when "
        "the goal is left unmet only if the sentence speaks of the plan or the goal; 'wouldn't work' is false "
        "only when the actions do reach the goal. An action named without all its objects ('unstack blue') is the "
        "one binding that can be done where it stands (none: it cannot be done; several: not judged); one "
        "named just before the list leaves the sentence unjudged (the list's start is not known). \"it\" after an "
        "action named whole is that action's object ('picking up red and stacking it on orange would work'); a "
        "comma may close the list, 'right away' may stand inside it, and 'now' after it ('right now') starts it "
        "where the line is, as before it"),
    Row("verdict.result", "plan verdict: actions written out in the sentence, then the facts they are said to give",
        r"(?P<seq>A(?:[,&~]{1,3}A)+)[~_]{0,2}(?:D|P)(?P<facts>[~_]{0,2}F(?:[,&]{1,2}F)*)[.!]?$",
        "Attack a, then Succumb a gives Province a.", "probe",
        "replayed from the line's state or the initial one (where its first step can be done; when both, judged only "
        "if they agree); each fact must hold where it ends, and a step that cannot be done makes it false. The cue "
        "is the plan's, not its last action's: no effect claim is read from it"),
    Row("verdict.inline_first", "plan verdict: a plan said to work (or not), then written out after a colon",
        r"L[~_]{0,3}V[~_]{0,2}:[~_]{0,2}(?P<seq>[Aa](?:[,&~]{0,3}[Aa])+)[.!]?$",
        "Though two steps would do it too: unstack red from orange, then stack blue onto red.", "planted",
        "judged as verdict.inline; the verdict names the plan ('two steps', 'this sequence') before the colon"),
    Row("verdict.adopted", "plan verdict +: a sentence that adopts a plan written out in it ('So the final plan is A, B.')",
        r"^[~,c]*D?_{0,2}L(?P<gap>_{1,2}:?|:)(?P<seq>[Aa](?:[,&~_]{0,3}[Aa])+)[.!]?$",
        "So the final plan is Attack c, Overcome b from c.", "doc",
        "thinking-claims.md: a heading that adopts a plan is a plan_verdict; written inline it adopts the plan "
        "the same way. Only with 'is' or a colon after the plan word ('the plan is', 'the answer is:'), no hedge "
        "or guess ('would be', 'maybe' are proposals), and judged as verdict.inline; also after a pointer that "
        "gives it ('That gives a working plan: ...', probe)"),
    Row("verdict.outline", "plan verdict ?: a prose walk that may leave steps unsaid", r"V",
        "Then, when you unstack red, the orange becomes clear. Then, putting red on the table. Then blue is clear. "
        "Then stack blue on red. Yes, that should work.", "R1",
        "the walk's failing step becomes doable after at most two unsaid actions (judge.omitted_steps), and it "
        "was not read from a numbered item: the verdict may be about the plan meant, so it is left unjudged"),
    # -- rules -----------------------------------------------------------------------------
    Row("rule.req", "rule: the action needs each predicate (also in a reason: '..., since Succumb needs Pain')", r"(?:^|U)[~_g,]*(?P<act>a)[^AFQ]*?R(?=[^A]*[fF])",
        "Overcome needs Province of the other object and Pain.", "doc"),
    Row("rule.only", "rule: an action that 'can only' be done where facts hold needs each predicate",
        r"^[~_g,]*(?P<cue>R)(?P<act>a)[^AFQRDXIHG]*?(?=f)", "You can only stack a block onto one that is sitting directly on the table.",
        "planted", "the cue is req.only ('can only', 'may only be'); the facts named without objects up to the clause's "
        "end, each judged as rule.req"),
    Row("rule.add", "rule: the action adds each predicate", r"(?:^|U)[~_g,T]*(?P<act>a)[^AFQ]*?D(?=[^A]*[fF])",
        "After Feast, you get Pain.", "doc"),
    Row("effect.of", "effect: the facts after 'the effects of <action> are' (or ':') are what it adds; those said absent, what it removes",
        r"^[~_]{0,2}D(?P<act>A)[_:]", "The effects of Attack a are: Pain a and no Harmony.", "probe",
        "the cue add.effects_of only; facts a later add or delete cue governs are left to it"),
    Row("effect.passive", "effect: the facts before a passive cue are what the named action after 'by' adds or deletes",
        r"F_{0,2}(?P<cue>[DX])(?P<by>U?)(?P<act>A)", "But Province a is removed by Feast a from c.", "R1",
        "'by' only (the cause class also holds 'because', 'since'), or the cue 'comes from' (add.comes_from: "
        "'Pain a comes from Attack a'); not in a question, condition or denial"),
    Row("rule.passive", "rule: the named action adds, deletes or needs the fact's predicate",
        r"(?P<fact>[fF])_{0,2}(?P<cue>[DX]U|R_)(?P<act>a)",
        "Harmony is removed by Feast, but after Succumb b, Harmony is back.", "R1",
        "'by Feast' names the action without objects: a rule about what Feast does; 'Harmony is needed "
        "for Succumb' what it needs"),
    Row("effect.in_step", "effect: a fact said added or removed in step k of the list is step k's effect",
        r"F,?[~_]{0,3}[DX]_?J#", "But step 6 requires Province b, which was removed in step 5.", "R1",
        "judged against the action at step k of the numbered list in force (when the text names that step as "
        "the list has it)"),
    Row("rule.bound", "rule: facts of variables bound by an action named with them ('Feast x from y')",
        r"a", "Let's say Feast x from y. So, after Feast, Pain y is added, Province y is added.", "R1",
        "x, y, z (when no object of the task) are read as objects of their own; the action they are named with "
        "binds them to its parameters for the paragraph; each fact of them said added, removed or needed is "
        "judged against the schema (judge.bound_rule); 'and Pain X is removed' (a singular verb) governs its "
        "own item only"),
    Row("rule.role", "rule: a fact needed, added or removed for a role ('the object', 'another object')",
        r"^(?!.*[AnNKB])(?=.*a).*(?:g[^,&;.:?!]*f|f[(_]?g)",
        "So, the object that is being attacked must be a Province, another object must be a Planet, and "
        "Harmony must be present.", "R1",
        "role words name a parameter: 'the object' the first, 'the other object' the second; 'another "
        "object' of a one-object action and 'any object' none (role_rules.py); read in asserted units that "
        "name one action without objects, no step and no negation ('doesn't mention that Succumb removes any "
        "Planet' says it does not)"),
    Row("rule.needs_told", "rule: 'Requires ...' going on telling the step just taken: the step's needs",
        r"^(?P<r>R):?F", "Step 1: Attack c.\n\nRequires Province c, Planet b, Harmony.", "R1",
        "as effect.told: every unit since the step tells it; judged as rule.needs_of"),
    Row("rule.needs_step", "rule: 'step k requires ...': the needs of the list's step k",
        r"^[c~]{0,2}J#(?P<r>R):?F", "1. Feast a from b.\n2. Overcome a from c.\n\nBut step 2 requires Province c and Pain a.",
        "R1", "the list's step k as the line holds it (not one named otherwise, nor a list more than two paragraphs "
        "back); only needs of a predicate the action needs are judged, as for rule.needs_told"),
    Row("rule.needs_named", "rule: 'Requires ...' right after a unit that names one action: that action's needs",
        r"^[c~]{0,2}(?P<r>R):?F", "To get a craves b: Overcome a from b. Requires Province b and Pain a.", "R1",
        "the unit before, in the same paragraph, names one action with all its objects and tells nothing of a "
        "state or an effect (no after, add, delete, need or initially cue); only needs of a predicate the action "
        "needs are judged, as for rule.needs_told, whether the action is taken, proposed or supposed"),
    Row("rule.needs_of", "rule: what a named action is said to need, of its objects, against its schema",
        r"(?P<act>A)[\)\(>]?:?,?c?[~_]{0,3}(?P<r>R)",
        "Suppose we Feast a from c, but that would require Craves(c, a), Province a, and Harmony.", "R1",
        "a belief about the action, judged wherever it stands (hypotheses too); a need of a predicate the action "
        "does not need at all is left to the other rule rows; a parenthesis after a need is the state"),
    Row("effect.purpose", "effect: an action taken for a purpose is said to give it ('X to get F')",
        r"(?P<act>A)[~_]{0,2}(?P<m>M)[~_]{0,2}F(?:[,&]{1,2}[~_]{0,1}F)*",
        "3. Feast c from b to get Province c and Pain c.", "R1",
        "judged only for a predicate the action changes: a far aim of another predicate is no claim"),
    Row("effect.purpose_first", "effect: the purpose first, then the one action for it ('To get F, A')",
        r"^(?:[~_]{0,2}G:)?[~,c]*(?P<m>M)[~_]{0,2}F(?:[,&]{1,2}[~_]{0,1}F)*,?[~_]{0,3}R?[~_]{0,2}(?P<act>A)(?:,[~_]*R.*)?[.!]?$",
        "Another idea: To create c craves a, we need to Overcome a from c, which requires Province c and Pain a.", "R1",
        "also after an idea's label, and with the action's needs after it"),
    Row("rule.denied", "rule: the action is said not to need (add, remove) each predicate of the clause",
        r"^[~_g,]*(?P<act>a)[^AFQnN]*?n[~_]{0,2}(?P<cue>[RDX])(?P<facts>[^,;.:?!AnNcx]*)",
        "Picking up a block doesn't actually need it to be clear, just on the table with the hand empty.",
        "planted",
        "the negation governs the facts of its own clause only: what follows the comma ('just on the table') "
        "is what the action does need, so it is not denied, nor is what follows 'but' or 'except' ('Succumb doesn't "
        "need anything but Pain', probe); judged against the schema (judge.rule_denied)"),
    Row("rule.must", "rule: what must hold for an action named first as a purpose ('To unstack a block, ... must be clear')",
        r"^[~c]*(?P<lead>[_M])(?P<act>[aA])[^AQ.;:?!,]*,(?P<clause>[^AQ.;:?!]*m[^AQ.;:?!]*)",
        "To unstack a block, my hand must be empty, and the block I'm unstacking must be clear.", "R1",
        "the purpose opens the sentence ('to', 'for', 'before', 'when', 'in order to'); each fact of the clause "
        "after its comma is a need: judged against the schema by predicate for an action named without objects, "
        "as its own need for one named with them (judge.needs); a fact with objects beside an action without them "
        "is not judged (which object is meant is not said), nor what follows 'which', 'since', 'because'"),
    Row("rule.after", "rule: what holds after an action named without objects ('After Feast, Pain is gone')",
        r"^[~c]*T_?(?P<act>a)[^AFfQ,.;:?!]*,(?P<clause>[^AQ.;:?!]*[fF][^AQ.;:?!]*)",
        "After picking up a block, the hand is empty.", "doc",
        "a fact said to hold after the action is right where the action adds it and wrong where it removes it; "
        "one said gone ('no', 'gone', 'false') the other way round; 'becomes false', 'is removed' after the fact "
        "is a removal, 'still' or 'stays' a keeping (rule.kept). A predicate the action does not touch, or both "
        "adds and removes, is not judged (it depends on the state, or on which object), nor a fact with objects"),
    Row("rule.doubted", "rule ?: a unit that only doubts takes back the rule claims of its paragraph before it",
        r"^[~,c]*_{0,3}H[~_]{0,3}[.!]?$", "Then after the attack, Pain X is added. But that's a bit unclear.", "R1",
        "thinking-claims.md: a rule doubted within its own paragraph is retracted ('Not sure.', 'But that's a bit "
        "unclear.', 'But this is getting a bit confusing.'), as is one that goes back to the rules ('Let me recheck', "
        "'Wait, the problem statement says:'); a doubt that names a fact or an action is about that, not the rule"),
    Row("rule.kept", "rule: the action is said to keep each predicate of the clause (not to remove it)",
        r"^[~_g,T]*(?P<act>a)(?P<clause>[^AQnNK.;:?!]*?k[^AQnNK.;:?!]*)",
        "After attacking, Harmony stays true.", "doc",
        "'stays', 'remains', 'keeps', 'is still there' after an action named without objects: what the action "
        "leaves alone (thinking-claims.md, rule claims); judged as a denial of the removal (judge.rule_denied). "
        "A fact with objects is left to the state rows, and a predicate the action both adds and removes "
        "(Province under Overcome) is not judged: which object the words mean is not said"),
    Row("rule.del", "rule: the action deletes each predicate", r"(?:^|U)[~_g,T]*(?P<act>a)[^AFQ]*?X(?=[^A]*[fF])",
        "Attack removes Harmony.", "doc"),
)

BY_ID = {r.id: r for r in ROWS}
