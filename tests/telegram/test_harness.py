"""Self-test of the offline Telegram harness in tests/support/telegram.py."""

from __future__ import annotations

import datetime as dtm
from collections.abc import AsyncIterator

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Message, Update
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from tests.support.telegram import (
    BOT_ID,
    RecordingRequest,
    UpdateFactory,
    collect_errors,
    offline_bot_builder,
)

Ctx = ContextTypes.DEFAULT_TYPE


async def hello(update: Update, context: Ctx) -> None:
    assert update.effective_message and update.effective_user
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Press", callback_data="press:1")]])
    await update.effective_message.reply_text(
        f"hi {update.effective_user.first_name}", reply_markup=keyboard
    )


async def press(update: Update, context: Ctx) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer("ok", show_alert=True)
    await query.edit_message_text(f"pressed {query.data}")


async def boom(update: Update, context: Ctx) -> None:
    raise ValueError("boom")


@pytest.fixture
def request_() -> RecordingRequest:
    return RecordingRequest()


@pytest.fixture
async def app(request_: RecordingRequest) -> AsyncIterator[Application]:
    application = offline_bot_builder(request_).build()
    application.add_handler(CommandHandler("hello", hello))
    application.add_handler(CallbackQueryHandler(press, pattern=r"^press:"))
    application.add_handler(CommandHandler("boom", boom))
    await application.initialize()
    yield application
    await application.shutdown()


async def test_initialize_is_offline(app: Application, request_: RecordingRequest) -> None:
    assert app.bot.username == "CoordBot"
    assert app.bot.id == BOT_ID
    assert request_.calls_to("getMe")


async def test_command_sends_message_with_keyboard(
    app: Application,
    request_: RecordingRequest,
) -> None:
    errors = collect_errors(app)  # handler exceptions would otherwise only be logged
    factory = UpdateFactory(app.bot)
    await app.process_update(factory.command("/hello", user_id=42, first_name="Ann"))
    call = request_.last("sendMessage")
    assert call.params["chat_id"] == 42
    assert call.params["text"] == "hi Ann"
    assert call.params["reply_markup"] == {
        "inline_keyboard": [[{"text": "Press", "callback_data": "press:1"}]]
    }
    assert request_.texts(42) == ["hi Ann"]
    # Commands addressed to the bot by @username also match, as do group chats.
    await app.process_update(factory.command("/hello@CoordBot x", user_id=7, chat_type="group"))
    assert request_.last("sendMessage").params["text"] == "hi User"
    assert request_.last("sendMessage").params["reply_parameters"]["message_id"] > 0
    assert errors == []


async def test_callback_answers_with_alert_and_edits(
    app: Application,
    request_: RecordingRequest,
) -> None:
    errors = collect_errors(app)  # handler exceptions would otherwise only be logged
    factory = UpdateFactory(app.bot)
    update = factory.callback("press:1", user_id=42, message_id=1000)
    assert update.callback_query
    message = update.callback_query.message
    assert isinstance(message, Message)  # not InaccessibleMessage: date != 0
    assert message.from_user and message.from_user.id == BOT_ID
    await app.process_update(update)
    answer = request_.last("answerCallbackQuery")
    assert answer.params == {
        "callback_query_id": update.callback_query.id,
        "text": "ok",
        "show_alert": True,
    }
    edit = request_.last("editMessageText")
    assert edit.params == {"chat_id": 42, "message_id": 1000, "text": "pressed press:1"}
    assert request_.texts() == ["pressed press:1"]
    assert errors == []


async def test_fault_injection(app: Application, request_: RecordingRequest) -> None:
    bot = app.bot
    request_.fail_next(
        "sendMessage",
        [("retry_after", 3), ("status", 500), ("timeout",), ("bad_request", "chat not found")],
    )
    with pytest.raises(RetryAfter) as retry:
        await bot.send_message(1, "a")
    assert retry.value.retry_after == dtm.timedelta(seconds=3)  # PTB_TIMEDELTA set by harness
    with pytest.raises(NetworkError) as network:
        await bot.send_message(1, "b")
    assert type(network.value) is NetworkError  # BadRequest/TimedOut subclass NetworkError
    with pytest.raises(TimedOut):
        await bot.send_message(1, "c")
    # PTB strips the "Bad Request: " prefix and capitalises the first letter.
    with pytest.raises(BadRequest, match=r"^Chat not found$"):
        await bot.send_message(1, "d")
    message = await bot.send_message(1, "e")
    assert message.text == "e" and message.chat.id == 1 and message.message_id == 1000
    assert [c.failed for c in request_.calls_to("sendMessage")] == [True] * 4 + [False]
    assert request_.texts(1) == ["e"]
    request_.fail_next("answerCallbackQuery", [("forbidden", "bot was blocked by the user")])
    with pytest.raises(Forbidden):
        await bot.answer_callback_query("1")


async def test_files_documents_and_custom_results(
    app: Application,
    request_: RecordingRequest,
) -> None:
    bot = app.bot
    sent = await bot.send_photo(-5, photo=b"\x89PNG-bytes", caption="chart")
    assert sent.caption == "chart" and sent.photo and sent.chat.type == "channel"
    call = request_.last("sendPhoto")
    assert call.files["photo"][1] == b"\x89PNG-bytes"
    assert request_.texts(-5) == ["chart"]
    await bot.send_document(5, document=InputFile(b"csv", filename="a.csv"))
    assert request_.last("sendDocument").files["document"] == ("a.csv", b"csv")

    update = UpdateFactory(bot).document("kb.md", "text/markdown", user_id=3, caption="add")
    assert update.message and update.message.document
    assert update.message.document.file_name == "kb.md"
    request_.add_download("file1", b"# hello")
    tg_file = await update.message.document.get_file()
    assert bytes(await tg_file.download_as_bytearray()) == b"# hello"

    request_.respond("getChatMember", {"status": "administrator", "user": UpdateFactory.user(3)})
    request_.respond("getChatMember", lambda p: {"status": "member", "user": UpdateFactory.user(3)})
    member = await bot.get_chat_member(-5, 3)
    assert member.status == "member"
    request_.clear()
    assert request_.calls == []


async def test_handler_errors_are_collected(app: Application) -> None:
    errors = collect_errors(app)
    await app.process_update(UpdateFactory(app.bot).command("/boom"))  # does not raise
    assert [type(e) for e in errors] == [ValueError]
