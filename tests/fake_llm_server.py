"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for capture tests.

It speaks HTTP/1.1 with chunked server-sent events exactly like vLLM or DeepSeek do
(`data: {chunk}` lines, `reasoning_content` deltas, `data: [DONE]`). Each request takes the next
scripted reply; every request body and Authorization header is recorded for assertions.
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

    def _event(self, obj: Any) -> None:
        data = obj if isinstance(obj, str) else json.dumps(obj)
        line = f"data: {data}\n\n".encode()
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
