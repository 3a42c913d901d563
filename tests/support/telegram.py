"""Offline Telegram test harness.

Handler tests must run without a network and without mocks of PTB internals.  This module
plugs a :class:`RecordingRequest` into PTB's request layer (so the real ``Bot``/``ExtBot``
code path runs, including JSON (de)serialisation and error mapping), records every Bot API
call, answers with realistic JSON, supports fault injection, and builds real
``telegram.Update`` objects from Telegram-shaped dicts.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot, Update
from telegram._utils.defaultvalue import DEFAULT_NONE
from telegram._utils.types import ODVInput
from telegram.error import TimedOut
from telegram.ext import Application, ApplicationBuilder, CallbackContext
from telegram.request import BaseRequest, RequestData

# PTB 22.2+ warns (PTBDeprecationWarning) whenever RetryAfter.retry_after is read -- even inside
# RetryAfter.__init__ -- unless PTB_TIMEDELTA is set. With filterwarnings=error that warning would
# replace every RetryAfter, so opt in: retry_after is then a datetime.timedelta.
os.environ.setdefault("PTB_TIMEDELTA", "true")

BOT_ID = 999000
BOT_USERNAME = "CoordBot"
TOKEN = "123456:TEST-TOKEN"
DEFAULT_GROUP_ID = -1001000000001
BOT_USER: dict[str, Any] = dict(
    id=BOT_ID, is_bot=True, first_name="CoordBot", username=BOT_USERNAME, can_join_groups=True,
    can_read_all_group_messages=False, supports_inline_queries=False,
)  # fmt: skip
# Fault specs: ("retry_after", s) | ("status", code) | ("timeout",) | ("bad_request", text)
# | ("forbidden", text)
Fault = tuple[Any, ...]
Result = Any | Callable[[dict[str, Any]], Any]


@dataclass
class SentCall:
    """One Bot API call as seen by the (fake) server."""

    method: str
    params: dict[str, Any]
    files: dict[str, tuple[str | None, bytes]] = field(default_factory=dict)
    failed: bool = False


def _chat(chat_id: int, chat_type: str) -> dict[str, Any]:
    chat: dict[str, Any] = {"id": chat_id, "type": chat_type}
    if chat_type == "private":
        chat["first_name"] = "User"
    else:
        chat["title"] = "Test Chat"
    return chat


class RecordingRequest(BaseRequest):
    """A ``BaseRequest`` that never touches the network; it records and fakes the Bot API."""

    def __init__(self) -> None:
        self.calls: list[SentCall] = []
        self.chat_types: dict[int, str] = {}  # override the chat type echoed back per chat id
        self.downloads: dict[str, bytes] = {}  # file_id -> content served by getFile/download
        self._faults: dict[str, deque[Fault]] = defaultdict(deque)
        self._results: dict[str, Result] = {}
        self._msg_ids: dict[int, itertools.count[int]] = defaultdict(lambda: itertools.count(1000))

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    # ---- configuration -------------------------------------------------------------------
    def fail_next(self, method: str, errors: list[Fault]) -> None:
        """Make the next ``len(errors)`` calls of ``method`` fail, in order."""
        self._faults[method].extend(errors)

    def respond(self, method: str, result: Result) -> None:
        """Set the ``result`` for ``method`` (a value or ``callable(params) -> value``)."""
        self._results[method] = result

    def add_download(self, file_id: str, content: bytes) -> None:
        """Serve ``content`` for ``getFile(file_id)`` + ``File.download_*``."""
        self.downloads[file_id] = content

    # ---- inspection ----------------------------------------------------------------------
    def calls_to(self, method: str) -> list[SentCall]:
        return [c for c in self.calls if c.method == method]

    def last(self, method: str) -> SentCall:
        found = self.calls_to(method)
        if not found:
            raise AssertionError(f"no {method} call; made: {[c.method for c in self.calls]}")
        return found[-1]

    def texts(self, chat_id: int | None = None) -> list[str]:
        """Texts of successful sendMessage/editMessageText and captions of sendPhoto."""
        keys = {"sendMessage": "text", "editMessageText": "text", "sendPhoto": "caption"}
        return [
            str(c.params.get(keys[c.method], ""))
            for c in self.calls
            if c.method in keys
            and not c.failed
            and (chat_id is None or c.params.get("chat_id") == chat_id)
        ]

    def clear(self) -> None:
        self.calls.clear()

    # ---- BaseRequest ---------------------------------------------------------------------
    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = DEFAULT_NONE,
        write_timeout: ODVInput[float] = DEFAULT_NONE,
        connect_timeout: ODVInput[float] = DEFAULT_NONE,
        pool_timeout: ODVInput[float] = DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if method == "GET" and "/file/bot" in url:  # File.download_* -> BaseRequest.retrieve
            file_id = url.rsplit("/", 1)[-1]
            self.calls.append(SentCall("downloadFile", {"file_id": file_id}))
            if file_id not in self.downloads:
                return 404, b'{"ok":false,"error_code":404,"description":"Not Found"}'
            return 200, self.downloads[file_id]
        api_method = url.rsplit("/", 1)[-1]
        params: dict[str, Any] = dict(request_data.parameters) if request_data else {}
        files: dict[str, tuple[str | None, bytes]] = {}
        if request_data is not None and request_data.contains_files:
            for name, (filename, content, _mime) in request_data.multipart_data.items():
                data = content if isinstance(content, bytes) else content.read()
                files[name] = (filename, data)
                params.setdefault(name, f"attach://{name}")
        call = SentCall(api_method, params, files)
        self.calls.append(call)
        if self._faults[api_method]:
            call.failed = True
            return self._fault(self._faults[api_method].popleft())
        return 200, json.dumps({"ok": True, "result": self._result(call)}).encode()

    @staticmethod
    def _fault(fault: Fault) -> tuple[int, bytes]:
        kind = fault[0]
        if kind == "timeout":
            raise TimedOut("Timed out (injected)")
        if kind == "retry_after":
            secs = int(fault[1])
            body = {
                "ok": False,
                "error_code": 429,
                "description": f"Too Many Requests: retry after {secs}",
                "parameters": {"retry_after": secs},
            }
            return 429, json.dumps(body).encode()
        code, text = {
            "status": (fault[1] if len(fault) > 1 else 500, "Internal Server Error"),
            "bad_request": (400, f"Bad Request: {fault[1] if len(fault) > 1 else 'error'}"),
            "forbidden": (403, f"Forbidden: {fault[1] if len(fault) > 1 else 'forbidden'}"),
        }[kind]
        body = {"ok": False, "error_code": code, "description": text}
        return int(code), json.dumps(body).encode()

    def _message(self, p: dict[str, Any], message_id: int | None = None) -> dict[str, Any]:
        chat_id = int(p["chat_id"])
        chat_type = self.chat_types.get(chat_id, "private" if chat_id > 0 else "channel")
        msg: dict[str, Any] = {
            "message_id": message_id if message_id is not None else next(self._msg_ids[chat_id]),
            "date": int(time.time()),
            "chat": _chat(chat_id, chat_type),
            "from": BOT_USER,
        }
        for key in ("text", "caption"):
            if key in p:
                msg[key] = p[key]
        if "reply_markup" in p:
            markup = p["reply_markup"]
            msg["reply_markup"] = json.loads(markup) if isinstance(markup, str) else markup
        return msg

    def _result(self, call: SentCall) -> Any:
        method, p = call.method, call.params
        if method in self._results:
            res = self._results[method]
            return res(p) if callable(res) else res
        if method == "getMe":
            return BOT_USER
        if method == "getUpdates":
            return []
        if method in ("sendMessage", "sendPhoto", "sendDocument"):
            msg = self._message(p)
            if method == "sendPhoto":
                msg["photo"] = [
                    {"file_id": "photo1", "file_unique_id": "u1", "width": 640, "height": 480}
                ]
            elif method == "sendDocument":
                name = call.files.get("document", ("file", b""))[0]
                msg["document"] = {"file_id": "doc1", "file_unique_id": "u2", "file_name": name}
            return msg
        if method.startswith("editMessage"):
            if "inline_message_id" in p:
                return True
            return self._message(p, message_id=int(p["message_id"]))
        if method == "getFile":
            fid = str(p["file_id"])
            size = len(self.downloads.get(fid, b""))
            return dict(file_id=fid, file_unique_id=f"u-{fid}", file_size=size,
                        file_path=f"documents/{fid}")  # fmt: skip
        return True


def offline_bot_builder(request: RecordingRequest) -> ApplicationBuilder:
    """An ``ApplicationBuilder`` wired to ``request`` for both normal and getUpdates calls."""
    return Application.builder().token(TOKEN).request(request).get_updates_request(request)


def collect_errors(application: Application) -> list[BaseException]:
    """Record handler exceptions, which ``process_update`` otherwise only logs (never raises)."""
    errors: list[BaseException] = []

    async def _on_error(update: object, context: CallbackContext) -> None:
        if context.error is not None:
            errors.append(context.error)

    application.add_error_handler(_on_error)
    return errors


class UpdateFactory:
    """Builds real ``telegram.Update`` objects (via ``Update.de_json``) bound to ``bot``."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1)
        self._callback_ids = itertools.count(1)
        # Telegram's language_code per user id (what the member's app is set to).
        self.language_codes: dict[int, str] = {}

    @staticmethod
    def user(user_id: int, username: str | None = None, first_name: str = "User") -> dict[str, Any]:
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if username is not None:
            user["username"] = username
        return user

    def _base_message(
        self, sender: dict[str, Any], chat_id: int | None, chat_type: str, message_id: int = 0
    ) -> dict[str, Any]:
        if chat_id is None:
            chat_id = sender["id"] if chat_type == "private" else DEFAULT_GROUP_ID
        return {
            "message_id": message_id or next(self._message_ids),
            "date": int(time.time()),  # date 0 would make PTB build an InaccessibleMessage
            "chat": _chat(int(chat_id), chat_type),
            "from": sender,
        }

    def _update(self, **payload: Any) -> Update:
        for part in payload.values():
            sender = part.get("from") if isinstance(part, dict) else None
            if sender is not None and sender["id"] in self.language_codes:
                sender["language_code"] = self.language_codes[sender["id"]]
        update = Update.de_json({"update_id": next(self._update_ids), **payload}, self.bot)
        assert update is not None
        return update

    def message(
        self,
        text: str,
        user_id: int = 1001,
        chat_id: int | None = None,
        chat_type: str = "private",
        username: str | None = None,
        first_name: str = "User",
    ) -> Update:
        msg = self._base_message(self.user(user_id, username, first_name), chat_id, chat_type)
        msg["text"] = text
        if text.startswith("/"):
            length = len(text.split(" ", 1)[0])
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        return self._update(message=msg)

    command = message

    def callback(
        self,
        data: str,
        user_id: int = 1001,
        message_id: int = 1000,
        chat_id: int | None = None,
        chat_type: str = "private",
        username: str | None = None,
        first_name: str = "User",
        message_text: str = "message",
        reply_markup: dict[str, Any] | None = None,
    ) -> Update:
        if chat_id is None:
            chat_id = user_id if chat_type == "private" else DEFAULT_GROUP_ID
        msg = self._base_message(BOT_USER, chat_id, chat_type, message_id=message_id)
        msg["text"] = message_text
        if reply_markup is not None:
            msg["reply_markup"] = reply_markup
        query = {
            "id": str(next(self._callback_ids)),
            "from": self.user(user_id, username, first_name),
            "chat_instance": f"ci-{chat_id}",
            "message": msg,
            "data": data,
        }
        return self._update(callback_query=query)

    def document(
        self,
        file_name: str,
        mime_type: str,
        user_id: int = 1001,
        file_id: str = "file1",
        file_size: int = 1024,
        caption: str | None = None,
        chat_id: int | None = None,
        chat_type: str = "private",
        username: str | None = None,
    ) -> Update:
        msg = self._base_message(self.user(user_id, username), chat_id, chat_type)
        msg["document"] = dict(file_id=file_id, file_unique_id=f"u-{file_id}", file_name=file_name,
                               mime_type=mime_type, file_size=file_size)  # fmt: skip
        if caption is not None:
            msg["caption"] = caption
        return self._update(message=msg)
