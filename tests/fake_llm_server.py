"""A real OpenAI-compatible server on 127.0.0.1 for capture tests.

`/v1/chat/completions` speaks HTTP/1.1 with chunked server-sent events exactly like vLLM or
DeepSeek do (`data: {chunk}` lines, `reasoning_content` deltas, `data: [DONE]`).
`/v1/responses` streams the Responses API's typed events as OpenAI sends them for a reasoning
model asked for a summary (`event: <type>` then `data: {...}` with a `sequence_number`):
response.created, response.in_progress, one reasoning output item whose summary parts arrive as
response.reasoning_summary_part.added / response.reasoning_summary_text.delta / .done /
response.reasoning_summary_part.done, then the message item with response.output_text.delta /
.done, and response.completed (or response.incomplete for a token limit) holding the whole
response with its usage. The shapes follow the OpenAI Python SDK's event types
(openai/types/responses/response_*_event.py). Each request takes the next scripted reply;
every request body and Authorization header is recorded for assertions.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted reply. `status` != 200 sends a JSON error body instead of a stream.
    `cut_after`: close the connection after this many chunks (no finish, no [DONE])."""

    thinking: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    status: int = 200
    error_message: str = ""
    cut_after: int | None = None
    finish_reason: str = "stop"
    echo_auth: bool = False
    delay_s: float = 0.0
    # /v1/responses only: each string is one summary part (a reasoning item's summary_text);
    # `thinking` deltas go into the first part when this is empty.
    summary_parts: list[list[str]] = field(default_factory=list)
    stream_error: str | None = None  # send an `error` event instead of response.completed


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "FakeLLMServer"

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        try:
            self._reply()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout tests): nothing left to say

    def _reply(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        auth = self.headers.get("Authorization")
        with self.server.lock:
            self.server.requests.append({"path": self.path, "body": body, "authorization": auth})
            reply = self.server.replies.pop(0) if self.server.replies else self.server.default
        if self.server.required_key and auth != f"Bearer {self.server.required_key}":
            reply = Reply(status=401, error_message=f"Incorrect API key provided: {auth}")
        if reply.status != 200:
            message = reply.error_message + (f" (you sent {auth})" if reply.echo_auth else "")
            data = json.dumps({"error": {"message": message, "type": "error", "code": reply.status}}).encode()
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if reply.delay_s:
            time.sleep(reply.delay_s)
        if self.path.rstrip("/").endswith("/responses"):
            self._responses_stream(body, reply)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1,
                "model": body.get("model", "fake")}
        chunks = [{"reasoning_content": t} for t in reply.thinking] + [{"content": t} for t in reply.answer]
        for n, delta in enumerate(chunks):
            if reply.cut_after is not None and n >= reply.cut_after:
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)
                return
            self._event({**base, "choices": [{"index": 0, "delta": {"role": "assistant", **delta},
                                              "finish_reason": None}]})
        self._event({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": reply.finish_reason}]})
        self._event("[DONE]")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _responses_stream(self, body: dict[str, Any], reply: Reply) -> None:
        """The Responses API's event stream for one reasoning item and one message item."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        parts = reply.summary_parts or ([reply.thinking] if reply.thinking else [])
        answer = "".join(reply.answer)
        rs_id, msg_id = "rs_fake0001", "msg_fake0001"
        reasoning_item = {"id": rs_id, "type": "reasoning", "status": "completed",
                          "summary": [{"type": "summary_text", "text": "".join(p)} for p in parts]}
        text_part = {"type": "output_text", "text": answer, "annotations": [], "logprobs": []}
        message_item = {"id": msg_id, "type": "message", "role": "assistant", "status": "completed",
                        "content": [text_part]}
        limited = reply.finish_reason == "length"
        response = {"id": "resp_fake0001", "object": "response", "created_at": 1, "status": "in_progress",
                    "model": body.get("model", "fake"), "output": [], "parallel_tool_calls": True,
                    "tool_choice": "auto", "tools": [], "reasoning": body.get("reasoning"),
                    "error": None, "incomplete_details": None, "usage": None}
        events: list[dict[str, Any]] = [{"type": "response.created", "response": response},
                                        {"type": "response.in_progress", "response": response}]
        events.append({"type": "response.output_item.added", "output_index": 0,
                       "item": {**reasoning_item, "status": "in_progress", "summary": []}})
        for k, part in enumerate(parts):
            where = {"item_id": rs_id, "output_index": 0, "summary_index": k}
            events.append({"type": "response.reasoning_summary_part.added", **where,
                           "part": {"type": "summary_text", "text": ""}})
            for delta in part:
                events.append({"type": "response.reasoning_summary_text.delta", **where, "delta": delta,
                               "_delta": True})
            events.append({"type": "response.reasoning_summary_text.done", **where, "text": "".join(part)})
            events.append({"type": "response.reasoning_summary_part.done", **where,
                           "part": {"type": "summary_text", "text": "".join(part)}})
        events.append({"type": "response.output_item.done", "output_index": 0, "item": reasoning_item})
        where = {"item_id": msg_id, "output_index": 1, "content_index": 0}
        events.append({"type": "response.output_item.added", "output_index": 1,
                       "item": {**message_item, "status": "in_progress", "content": []}})
        events.append({"type": "response.content_part.added", **where,
                       "part": {**text_part, "text": ""}})
        for delta in reply.answer:
            events.append({"type": "response.output_text.delta", **where, "delta": delta, "logprobs": [],
                           "_delta": True})
        events.append({"type": "response.output_text.done", **where, "text": answer, "logprobs": []})
        events.append({"type": "response.content_part.done", **where, "part": text_part})
        events.append({"type": "response.output_item.done", "output_index": 1, "item": message_item})
        if reply.stream_error:
            events.append({"type": "error", "code": "server_error", "message": reply.stream_error, "param": None})
        else:
            summary_chars = sum(len(d) for p in parts for d in p)
            usage = {"input_tokens": 20, "input_tokens_details": {"cached_tokens": 0},
                     "output_tokens": 10 + len(answer), "output_tokens_details": {"reasoning_tokens": 10 + summary_chars},
                     "total_tokens": 30 + len(answer) + summary_chars}
            final = {**response, "status": "incomplete" if limited else "completed",
                     "output": [reasoning_item, message_item], "usage": usage,
                     "incomplete_details": {"reason": "max_output_tokens"} if limited else None}
            events.append({"type": "response.incomplete" if limited else "response.completed", "response": final})
        n_deltas = 0
        for seq, event in enumerate(events):
            if event.pop("_delta", False):
                if reply.cut_after is not None and n_deltas >= reply.cut_after:
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                n_deltas += 1
            self._event({**event, "sequence_number": seq}, name=event["type"])
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _event(self, obj: Any, name: str | None = None) -> None:
        data = obj if isinstance(obj, str) else json.dumps(obj)
        line = (f"event: {name}\n" if name else "") + f"data: {data}\n\n"
        line = line.encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
        self.wfile.flush()


class FakeLLMServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, replies: list[Reply] | None = None, default: Reply | None = None,
                 required_key: str | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.replies = list(replies or [])
        self.default = default or Reply(thinking=["..."], answer=["(no scripted reply left)"])
        self.required_key = required_key
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def __enter__(self) -> "FakeLLMServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.shutdown()
        self.server_close()
        self._thread.join(timeout=5)
