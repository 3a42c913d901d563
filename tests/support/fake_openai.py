"""A fake OpenAI-compatible server: real HTTP on 127.0.0.1, scripted replies.

The real ``openai`` client talks to it over a socket, so timeouts, retries, status
errors and the wire format are the library's own, not a mock's. Every request is
recorded for assertions.

Script a test by setting ``server.mode`` (the default for every chat call) or queueing
one-off replies with ``server.script(...)``, consumed one per chat call:

    fake_openai.mode = "no_schema"
    fake_openai.content = grounded("Each box holds 35 litres.", ["D1"])
    fake_openai.script(Reply("500"), Reply("ok", content="Hello"))

Modes: ``ok`` (``content``, a string or a callable of the request body),
``timeout`` (waits ``timeout_delay`` seconds, then answers ok), ``500``,
``malformed`` (content that is not JSON), ``invalid_enum`` (a grounded answer whose
source is "archived"), ``no_schema`` (HTTP 400 when ``response_format.type`` is
``json_schema``, else ok), ``llama_cpp`` (what llama-cpp-python's server answers to a
``json_schema`` format: HTTP 500 quoting the request's validation error; a
``json_object`` format, with or without a ``schema``, is answered), ``no_cap`` (HTTP 400
for a ``max_tokens``, as OpenAI's reasoning models answer, else ok) and ``empty`` (no
choices). A reply longer than the request's ``max_tokens`` (counted in words) is cut
there, with ``finish_reason`` "length", as a real server stops at its cap.

``content`` is by default a grounded answer saying the records do not answer.
``grounded(answer, cites, source)`` builds a grounded answer's JSON; ``offered_keys``
reads the evidence keys a grounded request offered.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Content = str | Callable[[dict[str, Any]], str]

DEFAULT_CONTENT = json.dumps({"answer": "", "cites": [], "source": "none"})
# llama-cpp-python's server validates the request with pydantic; its route handler turns
# the validation error into an OpenAI-style error with status 500 (server/errors.py).
# As llama-cpp-python 0.3.36 answers (its traceback lines aside).
LLAMA_CPP_REFUSAL = (
    "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', "
    "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema', "
    "'ctx': {'expected': \"'text' or 'json_object'\"}}"
)
MALFORMED_CONTENT = "Sure! The question is about open garden proposals."
INVALID_ENUM_CONTENT = json.dumps({"answer": "It was archived.", "cites": [], "source": "archived"})
EMBEDDING_DIMENSIONS = 8


@dataclass(frozen=True, slots=True)
class Reply:
    mode: str = "ok"
    content: Content | None = None  # for "ok" (and the eventual answer of the others)


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    path: str
    body: dict[str, Any]
    headers: dict[str, str]  # names in lower case


class FakeOpenAI:
    def __init__(self) -> None:
        self.mode = "ok"
        self.content: Content = DEFAULT_CONTENT
        self.timeout_delay = 2.0
        self.retry_after_ms: int | None = 10  # keeps the client's retry back-off short
        # A real model behind /v1/embeddings (texts -> vectors); None: hashed vectors.
        self.embedder: Callable[[list[str]], list[list[float]]] | None = None
        self._queue: deque[Reply] = deque()
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ----- control -----------------------------------------------------------------

    def start(self) -> None:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai"
        )
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers waiting out a "timeout"
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(5)

    @property
    def base_url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script(self, *replies: Reply | str) -> None:
        """Queue replies for the next chat calls; the default mode answers after them."""
        with self._lock:
            self._queue.extend(r if isinstance(r, Reply) else Reply(r) for r in replies)

    # ----- what happened -----------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def chat_calls(self) -> int:
        return len(self.chat_requests)

    @property
    def embedding_calls(self) -> int:
        return sum(r.path.endswith("/embeddings") for r in self.requests)

    # ----- serving (handler threads) -----------------------------------------------

    def _record(self, path: str, body: dict[str, Any], headers: dict[str, str]) -> Reply:
        with self._lock:
            self._requests.append(RecordedRequest(path, body, headers))
            if path.endswith("/chat/completions") and self._queue:
                return self._queue.popleft()
            return Reply(self.mode)

    def _chat(self, reply: Reply, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        mode = reply.mode
        if mode == "timeout":
            self._stopping.wait(self.timeout_delay)
            mode = "ok"
        if mode == "500":
            return 500, _error(
                "The server had an error while processing your request.", "server_error"
            )
        if mode == "no_schema":
            if (body.get("response_format") or {}).get("type") == "json_schema":
                return 400, _error(
                    "response_format of type 'json_schema' is not supported by this model.",
                    "invalid_request_error",
                    param="response_format",
                )
            mode = "ok"
        if mode == "llama_cpp":
            if (body.get("response_format") or {}).get("type") == "json_schema":
                return 500, _error(LLAMA_CPP_REFUSAL, "internal_server_error")
            mode = "ok"
        if mode == "no_cap":
            if "max_tokens" in body:
                return 400, _error(
                    "Unsupported parameter: 'max_tokens' is not supported with this model. "
                    "Use 'max_completion_tokens' instead.",
                    "invalid_request_error",
                    param="max_tokens",
                )
            mode = "ok"
        if mode == "too_long":  # a 400 that has nothing to do with the output format
            return 400, _error(
                "This model's maximum context length is 8192 tokens.",
                "invalid_request_error",
                param="messages",
            )
        if mode == "empty":
            return 200, _completion(body, None)
        if mode == "malformed":
            return 200, _completion(body, MALFORMED_CONTENT)
        if mode == "invalid_enum":
            return 200, _completion(body, INVALID_ENUM_CONTENT)
        if mode != "ok":
            raise ValueError(f"unknown fake_openai mode {mode!r}")
        content = reply.content if reply.content is not None else self.content
        return 200, _completion(body, content(body) if callable(content) else content)

    def _embeddings(self, reply: Reply, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if reply.mode == "500":
            return 500, _error("The server had an error.", "server_error")
        if reply.mode == "timeout":
            self._stopping.wait(self.timeout_delay)
        inputs = body.get("input")
        texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
        dims = int(body.get("dimensions") or EMBEDDING_DIMENSIONS)
        vectors = (
            self.embedder([str(t) for t in texts])
            if self.embedder is not None
            else [_vector(str(t), dims) for t in texts]
        )
        data = [
            {"object": "embedding", "index": i, "embedding": list(v)} for i, v in enumerate(vectors)
        ]
        tokens = sum(len(str(t).split()) for t in texts)
        return 200, {
            "object": "list",
            "data": data,
            "model": body.get("model", "fake-embedding"),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }


def grounded(answer: str, cites: list[str], source: str = "documents") -> str:
    """A grounded answer's reply, as the model gives it."""
    return json.dumps({"answer": answer, "cites": cites, "source": source})


_KEY = re.compile(r"^\[([DPF]\d+)\] ", re.M)


def offered_keys(body: dict[str, Any]) -> list[str]:
    """The evidence keys a grounded request offered ("D1", "P2", "F1"), in order."""
    user = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
    return _KEY.findall(str(user))


def is_grounded(body: dict[str, Any]) -> bool:
    """Whether a chat request asks for a grounded answer (not a lead)."""
    system = str(body["messages"][0].get("content", ""))
    return system.startswith("You answer a community member's question using only")


def _error(message: str, kind: str, param: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": param, "code": None}}


def _completion(body: dict[str, Any], content: str | None) -> dict[str, Any]:
    prompt = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
    answer = len(content.split()) if content else 0
    finish = "stop"
    cap = body.get("max_tokens")
    if content is not None and isinstance(cap, int) and answer > cap:
        content, answer, finish = " ".join(content.split()[:cap]), cap, "length"
    choices = (
        [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "logprobs": None,
                "finish_reason": finish,
            }
        ]
        if content is not None
        else []
    )
    return {
        "id": f"chatcmpl-fake{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake-model"),
        "choices": choices,
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": answer,
            "total_tokens": prompt + answer,
        },
        "system_fingerprint": "fp_fake",
    }


def _vector(text: str, dims: int) -> list[float]:
    """A deterministic unit-ish vector, so equal texts embed equally."""
    digest = hashlib.sha256(text.encode()).digest()
    return [(digest[i % len(digest)] - 128) / 128 for i in range(dims)]


def _handler_for(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # one request per connection: nothing lingers
        timeout = 10

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"_raw": raw.decode(errors="replace")}
            path = self.path.split("?", 1)[0]
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = fake._record(path, body, headers)
            if path.endswith("/chat/completions"):
                status, payload = fake._chat(reply, body)
            elif path.endswith("/embeddings"):
                status, payload = fake._embeddings(reply, body)
            else:
                status, payload = 404, _error(f"Unknown path {path}", "invalid_request_error")
            self._send(status, payload)

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if status >= 500 and fake.retry_after_ms is not None:
                    self.send_header("retry-after-ms", str(fake.retry_after_ms))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test); nothing to answer

        def log_message(self, format: str, *args: Any) -> None:
            return None  # quiet: tests read fake.requests instead

    return Handler


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A started fake server; ``fake_openai.base_url`` ends in ``/v1``."""
    server = FakeOpenAI()
    server.start()
    try:
        yield server
    finally:
        server.stop()
