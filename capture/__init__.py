"""Live capture: run a model on a stored problem, stream its thinking, store and audit it,
and the LLM-Modulo back-prompting loop.

Modules: `keys` (API keys from the environment or Streamlit secrets; scrubbing), `client`
(one streamed completion through litellm, imported lazily), `prompts` (templates per domain),
`modulo` (the capture and the generate-test loop), `store` (stored problems in, records out).
Importing this package does not import litellm.
"""
