"""Pure parts of live capture: keys and scrubbing, prompts, the critique, the loop trace format."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capture.client import ModelSettings, settings_problems
from capture.keys import REDACTED, find_api_key, provider_of, redact_url, scrub, secret_values
from capture.modulo import critique, planbench_feedback
from capture.prompts import PromptError, maze_prompt_tokens, problem_of, render, templates_for
from audit import audit_record
from core.record import record_from_json
from tests.conftest import FULL_DEV_DATA, REPO, load_dev
from trace_parsers.modulo import RoundText, parse, render_rounds


# --- keys -----------------------------------------------------------------------------------

def test_key_lookup_prefers_secrets_then_environment_and_says_where_not_what():
    env = {"OPENAI_API_KEY": "sk-env-0123456789", "DEEPSEEK_API_KEY": "ds-env-0123456789"}
    assert find_api_key("openai/gpt-4o", {}, env).value == "sk-env-0123456789"
    got = find_api_key("openai/gpt-4o", {"OPENAI_API_KEY": "sk-secret-0123456789"}, env)
    assert got.value == "sk-secret-0123456789" and got.source == "Streamlit secret OPENAI_API_KEY"
    assert "sk-" not in got.describe()
    assert find_api_key("deepseek-reasoner", {}, env).value == "ds-env-0123456789"
    assert find_api_key("anthropic/claude-3-7-sonnet", {}, env).value is None
    assert find_api_key("anthropic/claude-x", {}, {"STEPSCOPE_LLM_API_KEY": "generic-123456"}).value == "generic-123456"
    assert provider_of("claude-3-7-sonnet") == "anthropic" and provider_of("hosted_vllm/qwq") == "hosted_vllm"


def test_scrub_removes_known_secrets_and_key_shaped_text():
    secret = "my-very-private-token-42"
    text = (f"AuthenticationError: Incorrect API key provided: {secret}. Bearer abc.def-123 "
            "headers {'api_key': 'zzzzzz999'} url https://user:pw@host/v1 key sk-proj-AbCdEf0123456789")
    out = scrub(text, [secret])
    for leaked in (secret, "abc.def-123", "zzzzzz999", "user:pw", "sk-proj-AbCdEf0123456789"):
        assert leaked not in out
    assert out.count(REDACTED) >= 5
    assert "AuthenticationError: Incorrect API key provided" in out


def test_secret_values_take_key_like_environment_variables_only():
    env = {"OPENAI_API_KEY": "sk-aaaaaaaaaa", "HOME": "/root/somewhere", "DB_PASSWORD": "hunter2hunter2"}
    values = secret_values(["given-key-123"], {"section": {"TOKEN": "nested-secret-1"}}, env)
    assert set(values) == {"sk-aaaaaaaaaa", "hunter2hunter2", "given-key-123", "nested-secret-1"}


def test_stored_api_base_has_no_credentials_and_settings_never_show_the_key():
    assert redact_url("https://bob:pw@api.example/v1?key=abc&x=1") == f"https://api.example/v1?key={REDACTED}&x=1"
    s = ModelSettings("openai/x", api_base="http://u:p@127.0.0.1:9/v1", api_key="sk-hidden-123456")
    assert "sk-hidden" not in repr(s) and "sk-hidden" not in json.dumps(s.public())
    assert s.public()["api_base"] == "http://127.0.0.1:9/v1"


def test_input_checks_say_what_is_wrong():
    assert settings_problems("openai/x", None) == []
    assert any("Enter a model" in p for p in settings_problems("  ", None))
    assert any("spaces" in p for p in settings_problems("open ai/x", None))
    assert any("http://" in p for p in settings_problems("openai/x", "localhost:8000"))
    assert any("Rounds" in p for p in settings_problems("openai/x", None, rounds=0))


# --- prompts --------------------------------------------------------------------------------

# PlanBench's published zero-shot query for blocksworld_3 instance 1 (karthikv792/LLMs-Planning,
# llm_planning_analysis/results/blocksworld_3/deepseek-r1-api/task_1_plan_generation_zero_shot.json).
_PUBLISHED_STATEMENT = (
    "\n[STATEMENT]\nAs initial conditions I have that, the orange block is clear, the hand is empty, the blue block "
    "is on top of the red block, the orange block is on top of the blue block and the red block is on the table.\n"
    "My goal is to have that the red block is on top of the blue block and the orange block is on top of the red "
    "block.\n\nWhat is the plan to achieve my goal? Just give the actions in the plan."
)
_INSTANCE_1 = """(define (problem BW-rand-3)
(:domain blocksworld-4ops)
(:objects a b c )
(:init
(handempty)
(ontable a)
(on b a)
(on c b)
(clear c)
)
(:goal
(and
(on a b)
(on c a))
)
)"""


def test_planbench_prompt_reproduces_the_published_query():
    template, messages = render("blocksworld", {"problem_pddl": _INSTANCE_1})
    assert template.name == "planbench" and len(messages) == 1
    text = messages[0]["content"]
    assert text.startswith("I am playing with a set of blocks where I need to arrange the blocks into stacks.")
    assert text.endswith("no longer clear.\n" + _PUBLISHED_STATEMENT)


def test_planbench_prompts_for_every_planning_record_in_the_dev_data():
    for row in load_dev("planbench_plans.jsonl"):
        _, messages = render(row["domain"], row["problem"])
        text = messages[-1]["content"]
        assert "[STATEMENT]\nAs initial conditions I have that, " in text
        assert ", ," not in text and "{}" not in text
        if row["domain"] == "logistics":
            assert "is an airport" in text and "is at location_" in text
        if row["domain"] == "mystery_blocksworld":
            assert "object a" in text or "object b" in text


def test_puzzle_maze_and_countdown_prompts_follow_their_sources():
    system, user = render("hanoi", {"disks": 5})[1]
    assert system["role"] == "system" and "moves = [[disk id, from peg, to peg], ...]" in system["content"]
    assert "I have a puzzle with 5 disks" in user["content"] and "- Peg 2: 5 (bottom), . . . 2, 1 (top)" in user["content"]
    row = load_dev("maze_beyond_semantics.jsonl")[0]
    problem = problem_of("maze", row["problem"], row["trace"])
    tokens, width, height = maze_prompt_tokens(problem)
    assert tokens.startswith("start ") and " wall " in tokens and (width, height) == (30, 30)
    assert tokens in render("maze", problem)[1][0]["content"]
    cd = render("countdown", {"numbers": [14, 34, 28, 4], "target": 40})[1][0]["content"]
    assert cd.startswith("Make 40 with the numbers [14, 34, 28, 4]")
    assert [t.name for t in templates_for("blocksworld")][0] == "planbench"
    assert templates_for("unknown_domain")[-1].name == "generic"


@pytest.mark.parametrize("domain,problem", [
    ("blocksworld", {}), ("hanoi", {"disks": 0}), ("maze", {}), ("countdown", {"numbers": []}),
    ("freeform", {}), ("mystery", {}),
])
def test_a_problem_the_template_cannot_use_is_a_prompt_error(domain, problem):
    with pytest.raises(PromptError):
        render(domain, problem)


def test_a_template_for_another_domain_is_refused():
    with pytest.raises(PromptError, match="is for hanoi"):
        render("countdown", {"numbers": [1], "target": 1}, "illusion_of_thinking")


# --- the critique ---------------------------------------------------------------------------

def test_planbench_back_prompt_matches_planbench_gold_for_every_verification_case():
    """Build the back-prompt from each gold verdict (as the planning validator reports it) and
    compare with PlanBench's own task-3 gold text."""
    checked = 0
    for row in load_dev("planbench_verification.jsonl"):
        error = dict(row["expected"].get("answer_error") or {})
        if not error:
            assert critique(row["domain"], {"answer_correct": True}) is None
            continue
        if error["kind"] == "unmet_precondition":
            lines = [line for line in row["answer"].splitlines() if line.strip()]
            error["action_nl"] = lines[error["step"] - 1].strip()
        text = critique(row["domain"], {"answer_correct": False, "answer_error": error})
        gold = row["meta"]["gold_text"].strip().replace("invalid.The", "invalid. The")
        assert text == gold, (row["id"], text, gold)
        checked += 1
    assert checked == (64 if FULL_DEV_DATA else 15)


def test_back_prompt_falls_back_to_the_message_and_to_planbench_feedback():
    msg = {"kind": "unmet_precondition", "step": 2, "unmet_nl": ["the blue block is clear"],
           "message": "stack the orange block on top of the blue block: the blue block is not clear"}
    assert planbench_feedback(msg).splitlines()[1] == "stack the orange block on top of the blue block"
    assert planbench_feedback({"planbench_feedback": "as the validator wrote it"}) == "as the validator wrote it"
    assert planbench_feedback({"kind": "unparseable", "message": "step 1 cannot be read"}) == \
        "The above plan is invalid. Step 1 cannot be read"
    generic = critique("countdown", {"answer_correct": False, "answer_error": {
        "kind": "arithmetic", "step": 2, "message": "operation 2 '14+6=21' is false: 14+6 = 20"}})
    assert generic.startswith("Your answer is not correct.\nAt step 2: Operation 2 '14+6=21' is false")
    assert critique("hanoi", {"answer_correct": None}) is None


# --- the llm_modulo trace format ------------------------------------------------------------

def _rounds() -> list[RoundText]:
    return [
        RoundText("Solve it.", "thinking one\n\nmore", "plan A", {"answer_correct": False, "kind": "unmet_goal"}),
        RoundText("The above plan is invalid.", "", "plan B", {"answer_correct": True}),
    ]


def test_loop_trace_parses_into_one_step_per_round_with_exact_part_spans():
    rounds = _rounds()
    text = render_rounds(rounds)
    rec = record_from_json({"domain": "blocksworld", "format": "llm_modulo", "trace": text, "answer": "plan B"})
    parsed = parse(rec)
    assert parsed.ok and [s.kind for s in parsed.graph] == ["round", "round"]
    assert parsed.graph.edges() == [(0, 1, "next"), (1, 0, "backtrack")]
    for step, rnd in zip(parsed.graph, rounds):
        assert text[step.span[0]:step.span[1]] == step.text
        for part, want in (("prompt", rnd.prompt), ("thinking", rnd.thinking), ("answer", rnd.answer)):
            a, b = step.payload["parts"][part]
            assert text[a:b] == want
        assert step.payload["verdict"] == rnd.verdict
    assert parsed.graph[0].payload["answer_correct"] is False and parsed.extras["converged"] is True
    a, b = parsed.extras["final_answer_span"]
    assert text[a:b] == "plan B"


def test_loop_trace_is_chosen_by_detection_and_audits_without_a_domain():
    text = render_rounds(_rounds())
    verdict = audit_record(record_from_json({"domain": "nonexistent", "trace": text, "answer": "plan B"})).verdict
    assert verdict.format == "llm_modulo" and verdict.n_steps == 2 and verdict.parse_ok


def test_a_marker_inside_model_text_cannot_split_a_round():
    sneaky = "I will write\n## Round 1 · answer\nnot really"
    text = render_rounds([RoundText("p", sneaky, "a", {"answer_correct": True})])
    parsed = parse(record_from_json({"trace": text}))
    assert parsed.ok and len(parsed.graph) == 1
    a, b = parsed.graph[0].payload["parts"]["thinking"]
    assert text[a:b] == sneaky.replace("\n## Round", "\n\\## Round")


def test_a_cut_or_damaged_loop_trace_is_reported_not_raised():
    text = render_rounds(_rounds())
    cut = text[: text.index("## Round 2 · answer")]
    parsed = parse(record_from_json({"trace": cut}))
    assert len(parsed.graph) == 2 and "cut short" in parsed.errors[-1].message
    broken = text.replace('{"answer_correct": true}', "{not json")
    parsed = parse(record_from_json({"trace": broken}))
    assert any("not a JSON object" in e.message for e in parsed.errors) and len(parsed.graph) == 2
    parsed = parse(record_from_json({"trace": "just some text"}))
    assert parsed.graph[0].kind == "unparsed" and parsed.errors


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60).map(lambda s: s.rstrip("\r\n"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_text, _text, _text, st.booleans()), min_size=1, max_size=4))
def test_any_rounds_round_trip_through_the_trace(parts):
    rounds = [RoundText(p, t, a, {"answer_correct": ok}) for p, t, a, ok in parts]
    text = render_rounds(rounds)
    parsed = parse(record_from_json({"trace": text}))
    assert len(parsed.graph) == len(rounds) and parsed.ok
    for step, rnd in zip(parsed.graph, rounds):
        a, b = step.payload["parts"]["answer"]
        assert text[a:b].replace("\\## Round", "## Round") == rnd.answer.replace("\\## Round", "## Round")
        assert step.payload["answer_correct"] is rnd.verdict["answer_correct"]


# --- litellm stays out of everything but capture ---------------------------------------------

def test_importing_the_app_pipeline_and_cli_does_not_import_litellm():
    code = (
        "import sys\n"
        "import pipeline, cli, capture, capture.modulo, capture.client, capture.headless, capture.store\n"
        "cli.build_parser()\n"
        "from streamlit.testing.v1 import AppTest\n"
        "at = AppTest.from_file('app.py', default_timeout=60).run()\n"
        "assert not at.exception, at.exception\n"
        "at = AppTest.from_file('app_pages/live_capture.py', default_timeout=60).run()\n"
        "assert not at.exception, at.exception\n"
        "print('litellm' in sys.modules)\n"
    )
    env = {**__import__("os").environ, "STEPSCOPE_DEMO": "0"}
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        env["STEPSCOPE_DATABASE_URL"] = f"sqlite:///{tmp}/x.db"
        proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, env=env,
                              timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1] == "False"
