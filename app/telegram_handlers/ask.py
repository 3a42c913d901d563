"""/ask <question> and /help <question>: thin, the answer comes from ContextService."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatAction
from telegram.ext import BaseHandler, CommandHandler, filters

from app.core.ask.context_service import HOW_TO_ASK, MAX_QUESTION
from app.core.ask.models import AskResponse
from app.telegram_handlers import start
from app.telegram_handlers.common import reply
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.formatting import h
from app.telegram_handlers.keyboards import deep_link

MAX_BUTTONS = 6


def _question(update: Update) -> str:
    """The text after the command, as typed (line breaks and all)."""
    message = update.effective_message
    text = (message.text or "") if message else ""
    parts = text.split(maxsplit=1)
    return parts[1].strip() if len(parts) > 1 else ""


def answer_keyboard(response: AskResponse) -> InlineKeyboardMarkup | None:
    """Buttons that open the cited proposals and documents."""
    rows = [
        [InlineKeyboardButton(f"#{p.id} {p.title}"[:60], callback_data=f"vp:{p.id}")]
        for p in response.proposals[:MAX_BUTTONS]
    ]
    seen: dict[str, str] = {}
    for hit in response.documents:
        seen.setdefault(hit.document_id, hit.title)
    rows += [
        [InlineKeyboardButton(f"📄 {title}"[:60], callback_data=f"vd:{doc_id}")]
        for doc_id, title in list(seen.items())[:3]
    ]
    return InlineKeyboardMarkup(rows) if rows else None


async def _send(update: Update, context: BotContext, response: AskResponse) -> None:
    await reply(update, h(response.answer), answer_keyboard(response))


async def ask_command(update: Update, context: BotContext) -> None:
    question = _question(update)
    if not question:
        await reply(update, h(context.tr(HOW_TO_ASK, limit=MAX_QUESTION)))
        return
    if update.effective_chat is not None:
        await context.bot.send_chat_action(update.effective_chat.id, ChatAction.TYPING)
    user = update.effective_user
    response = await context.services.context.handle_intelligent_ask(
        question, user_id=user.id if user else None, language=context.tr.language
    )
    await _send(update, context, response)


async def ask_in_group(update: Update, context: BotContext) -> None:
    """Answers can mention your own proposals; keep the conversation in a DM."""
    tr = context.tr
    link = deep_link(context.bot.username, "ask")
    button = InlineKeyboardButton(tr("Ask me in a private chat"), url=link)
    text = tr("I answer questions in a private chat. Tap below and send /ask there.")
    await reply(update, text, InlineKeyboardMarkup([[button]]))


async def help_command(update: Update, context: BotContext) -> None:
    """/help alone lists the commands; /help <question> answers from the manual."""
    question = _question(update)
    if not question:
        await start.help_command(update, context)
        return
    response = await context.services.context.answer_help(question, context.tr.language)
    await _send(update, context, response)


def handlers() -> list[BaseHandler]:  # type: ignore[type-arg]
    """Register before the catch-all group redirect and unknown-command handlers."""
    private = filters.ChatType.PRIVATE
    return [
        CommandHandler("ask", ask_command, filters=private),
        CommandHandler("ask", ask_in_group, filters=filters.ChatType.GROUPS),
        CommandHandler("help", help_command, filters=private),
    ]
