"""Live capture: run a model on a problem, watch its thinking arrive, store and audit it.

All logic is in capture/; this page only collects inputs and shows events. Keys come from
the environment or Streamlit secrets and are never shown. Review mode turns the page off.
"""

from __future__ import annotations

import json
import time
from typing import Any

import streamlit as st

from capture.client import ModelSettings, settings_problems
from capture.keys import find_api_key, key_variables, provider_of, scrub, secret_values
from capture.modulo import run_capture
from capture.prompts import PromptError, problem_of, render, templates_for
from capture.store import problem_domains, store_capture, stored_problems
from records_io.intake import object_to_record
from core.record import RecordError, TraceRecord
from core.trace_kind import SUMMARY, SUMMARY_BANNER, verdict_is_summary
from validators.registry import list_domains
from validators.generated import generated_records, generator_domains
from app_pages._access import can_write
from app_pages._common import engine

EXPLORER_URL_PATH = "explorer"
KEYLESS_PROVIDERS = {"ollama", "ollama_chat", "lm_studio", "hosted_vllm", "llamafile"}
REFRESH_S = 0.2
API_CHOICES = {"Chat completions": "chat", "Responses API (reasoning summaries)": "responses"}

st.title("Live capture")
st.caption("Run a reasoning model on a problem, watch its thinking as it arrives, and audit the answer. "
           "With more than one round, the validator's critique goes back to the model until an answer "
           "passes (LLM-Modulo).")

if not can_write():
    st.info("Live capture needs the owner's rights on this server; this session is read-only.")
    st.stop()


def _secrets() -> dict[str, Any]:
    try:
        return {k: st.secrets[k] for k in st.secrets.keys()}
    except Exception:  # noqa: BLE001 - no secrets file is the normal case
        return {}


def _pasted_record(text: str, domain: str) -> TraceRecord:
    obj = json.loads(text)
    if isinstance(obj, dict) and "problem" not in obj and "domain" not in obj:
        obj = {"problem": obj}
    return object_to_record(obj, default_domain=domain)


def _refresh(live: dict[str, Any]) -> None:
    if live["thinking"]:
        live["thinking_slot"].code(live["thinking"], language=None, wrap_lines=True, height=300)
    if live["answer"]:
        live["answer_label"].caption("Answer")
        live["answer_slot"].code(live["answer"], language=None, wrap_lines=True)
    live["shown"] = time.monotonic()


def _round_verdict(box: Any, rnd: Any) -> None:
    comp = rnd.completion
    failed = comp is not None and comp.error is not None and not (comp.thinking or comp.answer)
    if failed:
        return  # the error is shown once, below; "no thinking" would only confuse it
    if comp is not None and not comp.thinking_returned:
        box.info("Reasoning hidden or summarised: the provider returned no thinking text for this round.")
    elif comp is not None and comp.thinking_kind == SUMMARY:
        box.info(f"{SUMMARY_BANNER} It is stored as the trace and marked as a summary.")
    if comp is not None and comp.incomplete:
        box.warning("Cut short: what arrived is kept and the capture is marked incomplete.")
    if comp is not None and comp.finish_reason == "length":
        box.warning("The answer hit the token limit.")
    if rnd.verdict is not None:
        error = rnd.verdict.get("answer_error") or {}
        if rnd.answer_correct is True:
            box.success("The validator accepts this answer.")
        elif rnd.answer_correct is False:
            box.error(f"Invalid: {error.get('message', '')}")
        else:
            box.info(f"The validator cannot decide: {error.get('message', '')}")
    if rnd.critique:
        with box.expander("Critique sent back"):
            st.code(rnd.critique, language=None, wrap_lines=True)


eng = engine()
source: TraceRecord | None = None
mode = st.radio("Problem", ["A stored problem", "Paste a record", "Generate by length"], horizontal=True,
                key="cap_source")
if mode == "Generate by length":
    g1, g2, g3, g4 = st.columns(4)
    gen_domain = g1.selectbox("Domain", generator_domains(), key="cap_gen_domain")
    gen_length = int(g2.number_input("Length (words; digits per factor)", min_value=1, max_value=30, value=4,
                                     key="cap_gen_length"))
    gen_seed = int(g3.number_input("Seed", min_value=0, value=0, key="cap_gen_seed"))
    gen_index = int(g4.number_input("Problem no.", min_value=0, max_value=99, value=0, key="cap_gen_index"))
    made = generated_records(gen_domain, [gen_length], gen_index + 1, gen_seed)[gen_index]
    st.caption(f"`{made['id']}`: {made['problem'].get('question', '')} (the same seed always gives this problem; "
               "`cli.py generate` writes whole sets)")
    source = object_to_record(made)
elif mode == "A stored problem":
    domains = problem_domains(eng)
    if not domains:
        st.info("No stored record has a problem yet: paste one instead.")
    else:
        domain = st.selectbox("Domain", domains, key="cap_domain")
        problems = stored_problems(eng, domain)
        pick = st.selectbox("Problem", range(len(problems)), format_func=lambda i: problems[i].label(),
                            key="cap_problem")
        if pick is not None:
            source = problems[pick].to_record()
else:
    pasted = st.text_area("Record (JSON): its problem is used, its trace and answer are ignored", key="cap_pasted",
                          height=160, placeholder='{"domain": "hanoi", "problem": {"disks": 3}}')
    names = [spec.name for spec in list_domains()]
    default_domain = st.selectbox("Domain, when the record names none", names,
                                  index=names.index("freeform") if "freeform" in names else 0, key="cap_paste_domain")
    if pasted.strip():
        try:
            source = _pasted_record(pasted, default_domain)
        except (ValueError, RecordError) as exc:
            st.error(f"This is not a record: {exc}")

prompt_error: str | None = None
template_name: str | None = None
if source is not None:
    problem = problem_of(source.domain, source.problem, source.trace)
    templates = templates_for(source.domain)
    template_name = st.selectbox("Prompt template", [t.name for t in templates], key="cap_template",
                                 format_func=lambda n: next(f"{t.title} ({t.source})" for t in templates if t.name == n))
    try:
        _, messages = render(source.domain, problem, template_name)
        with st.expander("Prompt that will be sent"):
            for message in messages:
                st.caption(message["role"])
                st.code(message["content"], language=None, wrap_lines=True)
    except PromptError as exc:
        prompt_error = f"The prompt cannot be built: {exc}"
        st.warning(prompt_error)

api_label = st.radio("API", list(API_CHOICES), horizontal=True, key="cap_api",
                     help="Chat completions: the thinking as the provider streams it (DeepSeek-R1, vLLM, Ollama, "
                          "Anthropic). Responses API: o1/o3-style models that keep their reasoning hidden and "
                          "show a summary of it; the summary is stored as the trace and marked as a summary.")
api = API_CHOICES[api_label]
if api == "responses":
    st.caption("The trace will be the model's summary of its reasoning, not the reasoning itself: its claims are "
               "checked, and every view marks it as a summary.")
left, mid, right = st.columns([2, 2, 1])
model = left.text_input("Model (litellm)", key="cap_model",
                        placeholder="deepseek/deepseek-reasoner · anthropic/claude-3-7-sonnet-20250219 · openai/<name>")
api_base = mid.text_input("API base (optional: vLLM, Ollama, any OpenAI-compatible server)", key="cap_api_base",
                          placeholder="http://localhost:8000/v1")
rounds = int(right.number_input("Rounds", min_value=1, max_value=20, value=1, step=1, key="cap_rounds",
                                help="1: one call. More: back-prompt the validator's critique until the answer "
                                     "is valid or this many rounds have run."))
with st.expander("Options"):
    o1, o2, o3 = st.columns(3)
    timeout = float(o1.number_input("Timeout per call (s)", min_value=1, max_value=7200, value=600, key="cap_timeout"))
    max_tokens = int(o2.number_input("Max tokens (0: provider default)", min_value=0, value=0, step=256,
                                     key="cap_max_tokens"))
    effort = o3.selectbox("Reasoning effort", ["provider default", "low", "medium", "high"], key="cap_effort")

secrets = _secrets()
key = find_api_key(model, secrets) if model.strip() else None
if key is not None:
    st.caption(f"API key: {key.describe()}"
               + ("" if key.value or not api_base.strip() else "; a local server usually needs none"))
missing_key = (key is not None and not key.value and not api_base.strip()
               and provider_of(model) not in KEYLESS_PROVIDERS)

# What keeps Run off, known before anything is sent: the button says so instead of failing on click.
blockers = settings_problems(model, api_base.strip() or None, rounds, timeout, api)
if source is None:
    blockers.insert(0, "Choose a stored problem or paste a record first.")
if prompt_error:
    blockers.append(prompt_error)
if missing_key:
    blockers.append(f"No API key for {provider_of(model)}: set {' or '.join(key_variables(model))} in the "
                    "environment or in .streamlit/secrets.toml, or give the API base of a local server.")
clicked = st.button("Run", type="primary", key="cap_run", disabled=bool(blockers),
                    help=blockers[0] if blockers else None)
if blockers:
    st.info("Run is off until this is fixed:\n" + "\n".join(f"* {text}" for text in blockers))
if clicked and not blockers and source is not None and key is not None:
    settings = ModelSettings(model=model.strip(), api_base=api_base.strip() or None, timeout=timeout,
                             max_tokens=max_tokens or None,
                             reasoning_effort=None if effort == "provider default" else effort,
                             api_key=key.value, api=api)
    hidden = secret_values([key.value], secrets)
    live: dict[str, Any] = {}

    def show(kind: str, round_no: int, data: Any) -> None:
        if kind == "round_start":
            box = st.container(border=True)
            box.markdown(f"**Round {round_no}**")
            with box.expander("Prompt sent"):
                st.code(data, language=None, wrap_lines=True)
            box.caption("Reasoning summary (not the reasoning itself)" if settings.api == "responses" else "Thinking")
            live.update(box=box, thinking="", answer="", shown=0.0,
                        thinking_slot=box.empty(), answer_label=box.empty(), answer_slot=box.empty())
            live["thinking_slot"].caption("waiting for the model ...")
        elif kind in ("thinking", "answer"):
            live[kind] += data
            if time.monotonic() - live["shown"] >= REFRESH_S:
                _refresh(live)
        elif kind == "round_end":
            _refresh(live)
            if not (live["thinking"] or live["answer"]):
                live["thinking_slot"].caption("nothing arrived in this round")
            _round_verdict(live["box"], data)

    with st.spinner("Capturing ..."):
        result = run_capture(source, settings, rounds=rounds, template=template_name, on_event=show,
                             secrets=hidden)
    if result.error is not None:
        (st.warning if result.captured_anything else st.error)(result.error.message)
    if result.captured_anything:
        try:
            verdict, share_id = store_capture(eng, result.record, source=f"capture:{settings.model}"[:512])
            st.session_state["cap_last"] = {"verdict": verdict, "share_id": share_id, "id": result.record["id"],
                                            "stop": result.stop_reason, "rounds": len(result.rounds),
                                            "incomplete": result.incomplete}
        except Exception as exc:  # noqa: BLE001 - shown, not raised; the capture text is on screen
            st.error(f"Storing the capture failed: {scrub(f'{type(exc).__name__}: {exc}', hidden)}")
    else:
        st.session_state.pop("cap_last", None)


last = st.session_state.get("cap_last")
if last:
    st.subheader("Stored")
    verdict = last["verdict"]
    c1, c2, c3 = st.columns(3)
    c1.metric("Answer", {True: "correct", False: "wrong", None: "undecided"}[verdict.get("answer_correct")])
    c2.metric("Rounds", last["rounds"])
    c3.metric("Stopped", last["stop"].replace("_", " "))
    if last["incomplete"]:
        st.warning("This capture is incomplete: the stream was cut short.")
    if verdict_is_summary(verdict):
        st.warning(f"Stored trace: {SUMMARY_BANNER} Its claims are checked like any trace's; the explorer marks it.",
                   icon=":material/summarize:")
    if verdict.get("answer_error"):
        st.caption(f"Validator: {verdict['answer_error'].get('message', '')}")
    st.markdown(f"Record `{last['id']}` · [open it in the explorer](./{EXPLORER_URL_PATH}?trace={last['share_id']})")
