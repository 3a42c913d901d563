"""A Bot API stand-in: real HTTP on 127.0.0.1, Telegram's JSON shapes, scripted faults.

`coordbot run` processes talk to it as to api.telegram.org (TELEGRAM_API_BASE_URL),
so PTB's own request layer, JSON parsing and error mapping run for real. It keeps
chats and the messages the bot sent (edits applied in place), serves getUpdates
as a long poll with offsets (and 409 Conflict to a poll cut short by a newer one,
as Telegram does), setWebhook / deleteWebhook / getWebhookInfo, and the methods
the bot calls. Tests inject updates: queued for getUpdates, or POSTed to the bot's
webhook with its secret when one is set. Faults per method, consumed in order:

    api.fail_next("sendMessage", ("retry_after", 1), ("status", 502), ("timeout", 3), ("drop",))

or per chat, for whatever the bot sends there next (Telegram's flood control is per chat):

    api.fail_chat(CHANNEL, ("retry_after", 30))
"""

from __future__ import annotations

import contextlib
import itertools
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

TOKEN = "123456:PROCESS-TEST"
BOT_ID = 123456
BOT_USER: dict[str, Any] = dict(
    id=BOT_ID, is_bot=True, first_name="CoordBot", username="CoordBot", can_join_groups=True,
    can_read_all_group_messages=False, supports_inline_queries=False,
)  # fmt: skip
JSON_FIELDS = {
    "reply_markup", "commands", "allowed_updates", "reply_parameters", "menu_button",
    "entities", "caption_entities", "link_preview_options", "scope",
}  # fmt: skip
Fault = tuple[Any, ...]


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    status: int = 200
    at: float = field(default_factory=time.time)  # when the stand-in received it


class BotApiStandIn:
    def __init__(self, token: str = TOKEN) -> None:
        self.token = token
        self.calls: list[Call] = []
        self.chats: dict[int, list[dict[str, Any]]] = defaultdict(list)  # the bot's messages
        self.webhook: dict[str, Any] | None = None
        self.webhook_statuses: list[int] = []
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count[int]] = defaultdict(lambda: itertools.count(1))
        self._callback_ids = itertools.count(1)
        self._faults: dict[str, deque[Fault]] = defaultdict(deque)
        self._chat_faults: dict[int, deque[Fault]] = defaultdict(deque)
        self._poll_generation = 0
        self._cond = threading.Condition()
        self._stopping = False
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ----- life --------------------------------------------------------------------
    def start(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="botapi"
        )
        self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(5)

    @property
    def base_url(self) -> str:
        """For TELEGRAM_API_BASE_URL (PTB appends the token)."""
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/bot"

    # ----- scripting ---------------------------------------------------------------
    def fail_next(self, method: str, *faults: Fault) -> None:
        with self._cond:
            self._faults[method].extend(faults)

    def fail_chat(self, chat_id: int, *faults: Fault) -> None:
        """The next calls that send to or edit in ``chat_id`` fail with ``faults``, in order."""
        with self._cond:
            self._chat_faults[int(chat_id)].extend(faults)

    def message_update(self, user_id: int, text: str, chat_id: int | None = None) -> dict[str, Any]:
        chat = chat_id if chat_id is not None else user_id
        msg = {
            "message_id": next(self._message_ids[chat]),
            "date": int(time.time()),
            "chat": _chat(chat),
            "from": _user(user_id),
            "text": text,
        }
        if text.startswith("/"):
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        return {"update_id": next(self._update_ids), "message": msg}

    def callback_update(self, user_id: int, data: str, message: dict[str, Any]) -> dict[str, Any]:
        query = {
            "id": str(next(self._callback_ids)),
            "from": _user(user_id),
            "chat_instance": f"ci-{message['chat']['id']}",
            "message": message,
            "data": data,
        }
        return {"update_id": next(self._update_ids), "callback_query": query}

    def send(self, user_id: int, text: str) -> int:
        """A member's message to the bot, delivered as Telegram would; returns the update id."""
        update = self.message_update(user_id, text)
        self.deliver(update)
        return int(update["update_id"])

    def press(self, user_id: int, data: str, message: dict[str, Any]) -> int:
        update = self.callback_update(user_id, data, message)
        self.deliver(update)
        return int(update["update_id"])

    def deliver(self, update: dict[str, Any]) -> int | None:
        """Queue for getUpdates, or POST to the webhook if one is set (returns its status)."""
        with self._cond:
            hook = self.webhook
            if hook is None:
                self._updates.append(update)
                self._cond.notify_all()
                return None
        return self.post_webhook(update, hook.get("secret_token"))

    def post_webhook(
        self, update: dict[str, Any], secret: str | None, url: str | None = None
    ) -> int:
        """POST one update to the webhook (or ``url``) with ``secret`` in the header."""
        target = url or (self.webhook or {}).get("url")
        assert target, "no webhook set"
        headers = {"Content-Type": "application/json"}
        if secret is not None:
            headers["X-Telegram-Bot-Api-Secret-Token"] = secret
        request = urllib.request.Request(
            target, data=json.dumps(update).encode(), headers=headers, method="POST"
        )
        body = b""
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status = int(response.status)
                body = response.read()
        except urllib.error.HTTPError as exc:
            status = exc.code
        with self._cond:
            self.webhook_statuses.append(status)
        if status == 200 and body:
            self.webhook_reply(body)
        return status

    def webhook_reply(self, body: bytes) -> None:
        """Perform the method call a bot may put in its reply to a webhook request, as
        Telegram does (its result goes nowhere)."""
        call = json.loads(body)
        if isinstance(call, dict) and isinstance(call.get("method"), str):
            method = call.pop("method")
            self._handle(method, call, {})

    # ----- inspection --------------------------------------------------------------
    def calls_to(self, method: str) -> list[Call]:
        with self._cond:
            return [c for c in self.calls if c.method == method]

    def messages(self, chat_id: int | str) -> list[dict[str, Any]]:
        with self._cond:
            return [dict(m) for m in self.chats[int(chat_id)]]

    def texts(self, chat_id: int | str) -> list[str]:
        return [m.get("text") or m.get("caption") or "" for m in self.messages(chat_id)]

    def wait_for(
        self, condition: Callable[[], Any], timeout: float = 20.0, what: str = "condition"
    ) -> Any:
        """Wait (on the server's condition, woken by every call) until ``condition()`` is truthy."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = condition()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}")
                self._cond.wait(min(left, 0.5))

    def wait_text(self, chat_id: int | str, needle: str, timeout: float = 20.0) -> dict[str, Any]:
        def found() -> dict[str, Any] | None:
            for m in self.chats[int(chat_id)]:
                if needle in (m.get("text") or m.get("caption") or ""):
                    return dict(m)
            return None

        return self.wait_for(found, timeout, f"{needle!r} in chat {chat_id}")  # type: ignore[no-any-return]

    # ----- the Bot API -------------------------------------------------------------
    def _handle(self, method: str, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        """(status, body) for one call; may block (long poll) or raise _Drop."""
        with self._cond:
            call = Call(method, params, files)
            self.calls.append(call)
            self._cond.notify_all()
            fault = self._faults[method].popleft() if self._faults[method] else None
            chat = params.get("chat_id")
            if fault is None and chat is not None and method.startswith(("send", "edit")):
                faults = self._chat_faults.get(int(chat))
                fault = faults.popleft() if faults else None
        if fault is not None:
            call.status = self._fault_status(fault)
            return _fault_reply(fault)
        if method == "getUpdates":
            status, body = self._get_updates(params)
            call.status = status
            return status, body
        with self._cond:
            result = self._result(method, params, files)
            self._cond.notify_all()
        return 200, {"ok": True, "result": result}

    @staticmethod
    def _fault_status(fault: Fault) -> int:
        return {"retry_after": 429, "status": int(fault[1]) if len(fault) > 1 else 500}.get(
            fault[0], 0
        )

    def _get_updates(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        timeout = float(params.get("timeout") or 0)
        deadline = time.monotonic() + min(timeout, 30.0)
        with self._cond:
            if self.webhook is not None:
                return _error(409, "Conflict: can't use getUpdates method while webhook is active;"
                                   " use deleteWebhook to delete the webhook first")  # fmt: skip
            if offset:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            self._poll_generation += 1
            mine = self._poll_generation
            self._cond.notify_all()  # a poll already waiting learns it was cut short
            while True:
                if self._poll_generation != mine:
                    return _error(409, "Conflict: terminated by other getUpdates request; "
                                       "make sure that only one bot instance is running")  # fmt: skip
                ready = [u for u in self._updates if u["update_id"] >= offset]
                left = deadline - time.monotonic()
                if ready or left <= 0 or self._stopping:
                    return 200, {"ok": True, "result": ready[:100]}
                self._cond.wait(min(left, 0.5))

    def _result(self, method: str, p: dict[str, Any], files: dict[str, bytes]) -> Any:
        if method == "getMe":
            return BOT_USER
        if method == "setWebhook":
            self.webhook = {
                "url": p["url"],
                "secret_token": p.get("secret_token"),
                "allowed_updates": p.get("allowed_updates"),
            }
            return True
        if method == "deleteWebhook":
            self.webhook = None
            return True
        if method == "getWebhookInfo":
            hook = self.webhook or {}
            return {"url": hook.get("url", ""), "has_custom_certificate": False,
                    "pending_update_count": 0}  # fmt: skip
        if method in ("sendMessage", "sendPhoto"):
            chat_id = int(p["chat_id"])
            msg = {
                "message_id": next(self._message_ids[chat_id]),
                "date": int(time.time()),
                "chat": _chat(chat_id),
                "from": BOT_USER,
            }
            if method == "sendMessage":
                msg["text"] = p.get("text", "")
            else:
                msg["caption"] = p.get("caption", "")
                msg["photo"] = [{"file_id": f"photo{msg['message_id']}", "file_unique_id": "p",
                                 "width": 640, "height": 480,
                                 "file_size": len(files.get("photo", b""))}]  # fmt: skip
            if p.get("reply_markup"):
                msg["reply_markup"] = p["reply_markup"]
            self.chats[chat_id].append(msg)
            return msg
        if method.startswith("editMessage"):
            chat_id, message_id = int(p["chat_id"]), int(p["message_id"])
            msg = next((m for m in self.chats[chat_id] if m["message_id"] == message_id), None)
            if msg is None:
                msg = {"message_id": message_id, "date": int(time.time()),
                       "chat": _chat(chat_id), "from": BOT_USER, "text": ""}  # fmt: skip
            if "text" in p:
                msg["text"] = p["text"]
            if p.get("reply_markup"):
                msg["reply_markup"] = p["reply_markup"]
            else:
                msg.pop("reply_markup", None)
            msg["edit_date"] = int(time.time())
            return msg
        return True  # answerCallbackQuery, setMyCommands, setChatMenuButton, ...


class _Drop(Exception):
    """Close the connection without an answer."""


def _fault_reply(fault: Fault) -> tuple[int, dict[str, Any]]:
    kind = fault[0]
    if kind == "retry_after":
        secs = int(fault[1])
        return 429, {"ok": False, "error_code": 429, "parameters": {"retry_after": secs},
                     "description": f"Too Many Requests: retry after {secs}"}  # fmt: skip
    if kind == "status":
        code = int(fault[1]) if len(fault) > 1 else 500
        return _error(code, "Internal Server Error" if code == 500 else "Bad Gateway")
    if kind == "timeout":  # answer only after the client has given up
        time.sleep(float(fault[1]) if len(fault) > 1 else 6.0)
        return _error(500, "Internal Server Error")
    if kind == "drop":
        raise _Drop
    raise ValueError(f"unknown fault {fault!r}")


def _error(code: int, description: str) -> tuple[int, dict[str, Any]]:
    return code, {"ok": False, "error_code": code, "description": description}


def _user(user_id: int) -> dict[str, Any]:
    return {"id": user_id, "is_bot": False, "first_name": f"User{user_id}"}


def _chat(chat_id: int) -> dict[str, Any]:
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": f"User{chat_id}"}
    return {"id": chat_id, "type": "channel", "title": "Proposals"}


def _parse_body(content_type: str, raw: bytes) -> tuple[dict[str, Any], dict[str, bytes]]:
    params: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    if content_type.startswith("multipart/form-data"):
        head = f"Content-Type: {content_type}\r\n\r\n".encode()
        message = BytesParser(policy=HTTP).parsebytes(head + raw)
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            data = part.get_payload(decode=True) or b""
            if part.get_filename() is not None:
                files[str(name)] = data
                params[str(name)] = f"attach://{name}"
            else:
                params[str(name)] = data.decode()
    elif content_type.startswith("application/json"):
        params = json.loads(raw or b"{}")
    else:
        params = dict(parse_qsl(raw.decode(), keep_blank_values=True))
    for key in JSON_FIELDS & params.keys():
        if isinstance(params[key], str):
            params[key] = json.loads(params[key])
    return params, files


def _handler_for(api: BotApiStandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 60

        def setup(self) -> None:
            super().setup()
            # Headers and body go out in two writes: without this, Nagle's algorithm and the
            # client's delayed ACK hold every answer back by 40 ms.
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def handle(self) -> None:
            with contextlib.suppress(ConnectionError):
                super().handle()  # a client closing its kept-alive connection is not news

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if len(raw) < length:  # the client died mid-request: Telegram would drop it too
                self.close_connection = True
                return
            prefix, _, method = self.path.split("?", 1)[0].rpartition("/")
            if prefix != f"/bot{api.token}":
                self._send(*_error(404, "Not Found"))
                return
            params, files = _parse_body(self.headers.get("Content-Type", ""), raw)
            try:
                status, body = api._handle(method, params, files)
            except _Drop:
                self.close_connection = True
                return
            self._send(status, body)

        do_GET = do_POST

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout); nothing to answer

        def log_message(self, format: str, *args: Any) -> None:
            return None

    return Handler


@contextlib.contextmanager
def running_stand_in() -> Iterator[BotApiStandIn]:
    api = BotApiStandIn()
    api.start()
    try:
        yield api
    finally:
        api.stop()
