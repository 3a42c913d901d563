"""Adding and editing documents: /add_doc, /add_global_doc, /edit_doc, /edit_global_doc.

One conversation serves all four, so starting one leaves any other. Telegram cuts
a long paste into several messages, so pasted text is collected until the user
taps Done (or sends /done); an uploaded .txt, .md or .pdf is read at once.
Who may add or change what is DocumentService's rule, asked before the first
question so nobody types a document only to be refused.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import PurePosixPath
from typing import Any

from telegram import Document, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import (
    BaseHandler,
    CallbackQueryHandler,
    CommandHandler,
    ConversationHandler,
    MessageHandler,
    filters,
)

from app.core.knowledge.document_service import ImportResult
from app.domain.errors import CoordBotError, ValidationError
from app.domain.messages import N_
from app.i18n import Translator
from app.services.text_extraction import MAX_FILE_BYTES, SUFFIXES, extract_text
from app.telegram_handlers import documents_view as view
from app.telegram_handlers.common import parse_proposal_id, reply, user_of
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.formatting import h

logger = logging.getLogger(__name__)

CONTENT, TITLE, FIELD, CONFIRM = range(4)
KEY = "documents"  # this conversation's entry in context.state.extra
MIME_SUFFIX = {"text/plain": ".txt", "text/markdown": ".md", "application/pdf": ".pdf"}
# callback_data: content is complete / use the suggested title; which field; save or not.
CONTENT_DONE = r"^dt:done$"
USE_TITLE = r"^dt:use$"
EDIT_FIELD = r"^de:(title|content|stop)$"
SAVE_EDIT = r"^dc:(y|n)$"
STALE = r"^(dt|de|dc):"

HELP: list[tuple[str, str]] = [
    ("add_doc", N_("Attach a document to your proposal: /add_doc <proposal_id>")),
    ("view_docs", N_("Documents of a proposal: /view_docs <proposal_id> (no id: global ones)")),
    ("view_doc", N_("Read a document: /view_doc <document_id>")),
    ("my_docs", N_("Documents you added")),
    ("edit_doc", N_("Change a document's title or text: /edit_doc <document_id>")),
    ("delete_doc", N_("Delete a document: /delete_doc <document_id>")),
    ("view_global_docs", N_("Documents that apply to all proposals")),
    ("add_global_doc", N_("Admins: add a document for all proposals")),
    ("edit_global_doc", N_("Admins: edit a global document")),
    ("delete_global_doc", N_("Admins: delete a global document")),
]


# -- files ---------------------------------------------------------------------------------


async def read_upload(document: Document) -> str:
    """The text of an uploaded file; sizes and types are checked before downloading."""
    name = document.file_name or "the file"
    suffix = PurePosixPath(document.file_name or "").suffix.lower()
    suffix = suffix or MIME_SUFFIX.get(document.mime_type or "", "")
    if suffix not in SUFFIXES:
        if suffix:
            raise ValidationError(
                "I can't read {suffix} files. Send a .txt, .md or .pdf file (up to 5 MB), "
                "or paste the text.",
                suffix=suffix,
            )
        raise ValidationError(
            "I can't read this kind of file. Send a .txt, .md or .pdf file (up to 5 MB), "
            "or paste the text."
        )

    def too_big(size: int) -> ValidationError:
        megabytes = f"{size / 2**20:.1f}"
        if document.file_name:
            return ValidationError(
                "'{name}' is {size} MB; files can be up to 5 MB. "
                "Split it into several documents, or paste the text.",
                name=name,
                size=megabytes,
            )
        return ValidationError(
            "The file is {size} MB; files can be up to 5 MB. "
            "Split it into several documents, or paste the text.",
            size=megabytes,
        )

    if document.file_size and document.file_size > MAX_FILE_BYTES:
        raise too_big(document.file_size)
    data = bytes(await (await document.get_file()).download_as_bytearray())
    if len(data) > MAX_FILE_BYTES:  # the size was not given in advance
        raise too_big(len(data))
    filename = name if name.lower().endswith(suffix) else f"{name}{suffix}"
    return await asyncio.to_thread(extract_text, filename, data)


# -- conversation state --------------------------------------------------------------------


def _flow(context: BotContext) -> dict[str, Any]:
    return context.state.extra.setdefault(KEY, {})


def _end(context: BotContext) -> int:
    context.state.extra.pop(KEY, None)
    return ConversationHandler.END


def _text(update: Update) -> str:
    message = update.effective_message
    return (message.text or "") if message else ""


def _button(text: str, data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, callback_data=data)]])


async def _press(update: Update) -> str:
    """Answer the button press, take its keyboard away, return its choice."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    await query.edit_message_reply_markup(None)
    return query.data.split(":")[1]


CONTENT_PROMPT = N_(
    "Send the text (a long text may come in several messages; tap Done when it is all "
    "there) or upload a .txt, .md or .pdf file (up to 5 MB). /cancel to stop."
)


def _prompt(tr: Translator, first: str) -> str:
    """``first`` (a translated sentence) then the content prompt."""
    return f"{first} {tr(CONTENT_PROMPT)}"


def _error(tr: Translator, exc: CoordBotError) -> str:
    return h(tr.text(exc.text))


# -- adding --------------------------------------------------------------------------------


async def _start_add(update: Update, context: BotContext, proposal_id: int | None) -> int:
    await context.services.documents.check_can_attach(user_of(update).telegram_id, proposal_id)
    context.state.extra[KEY] = {"mode": "add", "proposal_id": proposal_id, "parts": []}
    tr = context.tr
    if proposal_id is not None:
        head = tr("Adding a document for proposal #{id}.", id=proposal_id)
    else:
        head = tr("Adding a document for all proposals (global).")
    await reply(update, f"{head}\n\n{tr(CONTENT_PROMPT)}")
    return CONTENT


async def add_doc(update: Update, context: BotContext) -> int:
    return await _start_add(update, context, parse_proposal_id(context.args, "add_doc"))


async def add_global_doc(update: Update, context: BotContext) -> int:
    return await _start_add(update, context, None)


async def got_text(update: Update, context: BotContext) -> int:
    parts: list[str] = _flow(context).setdefault("parts", [])
    parts.append(_text(update))
    total = sum(len(p) for p in parts)
    tr = context.tr
    await reply(
        update,
        tr.ngettext(
            "Got it: {count} character so far. Send more if the text goes on, or tap Done.",
            "Got it: {count} characters so far. Send more if the text goes on, or tap Done.",
            total,
            count=tr.number(total),
        ),
        _button(tr("✅ Done"), "dt:done"),
    )
    return CONTENT


async def content_done(update: Update, context: BotContext) -> int | None:
    if update.callback_query is not None:
        await _press(update)
    parts = _flow(context).get("parts") or []
    if not parts:
        await reply(update, _prompt(context.tr, context.tr("I have no text yet.")))
        return None
    first_line = next((line.strip() for line in parts[0].splitlines() if line.strip()), "")
    suggestion = first_line if len(first_line) <= 80 else None
    return await _have_content(update, context, "\n".join(parts), None, suggestion)


async def got_file(update: Update, context: BotContext) -> int | None:
    message = update.effective_message
    assert message is not None and message.document is not None
    flow = _flow(context)
    if flow.get("parts"):
        await reply(
            update,
            context.tr(
                "I already have text you pasted. Tap Done to use it, or /cancel and start again "
                "to send a file instead."
            ),
        )
        return None
    try:
        content = await read_upload(message.document)
    except ValidationError as exc:
        await reply(update, _error(context.tr, exc))
        return None
    name = message.document.file_name
    return await _have_content(
        update, context, content, name, PurePosixPath(name).stem if name else None
    )


async def _have_content(
    update: Update, context: BotContext, content: str, source: str | None, suggestion: str | None
) -> int:
    flow = _flow(context)
    flow.update(content=content, source=source, parts=[], suggestion=suggestion)
    if flow.get("mode") == "edit":
        return await _ask_confirm(update, context)
    tr = context.tr
    markup = _button(tr("Use '{title}'", title=suggestion[:40]), "dt:use") if suggestion else None
    await reply(update, tr("What is the document's <b>title</b>? (up to 300 characters)"), markup)
    return TITLE


async def got_title(update: Update, context: BotContext) -> int:
    return await _title(update, context, _text(update))


async def use_suggested_title(update: Update, context: BotContext) -> int:
    await _press(update)
    return await _title(update, context, _flow(context).get("suggestion") or "")


async def _title(update: Update, context: BotContext, title: str) -> int:
    flow = _flow(context)
    tr = context.tr
    if flow.get("mode") == "edit":
        flow["title"] = title
        return await _ask_confirm(update, context)
    if flow.get("mode") != "add":  # pragma: no cover - state lost (a restart)
        await reply(update, tr("That step is over. Start again with /add_doc or /add_global_doc."))
        return _end(context)
    try:
        result = await context.services.documents.add_document(
            user_of(update).telegram_id, flow["proposal_id"], title, flow["content"], flow["source"]
        )
    except ValidationError as exc:
        flow.update(content=None, parts=[])
        await reply(update, f"{_error(tr, exc)}\n\n{tr(CONTENT_PROMPT)}")
        return CONTENT
    except CoordBotError as exc:  # the proposal is gone, or the rights changed meanwhile
        await reply(update, _error(tr, exc))
        return _end(context)
    await reply(update, _added(tr, flow["proposal_id"], result))
    return _end(context)


def _added(tr: Translator, pid: int | None, result: ImportResult) -> str:
    title, n = h(result.title), result.chunks_created
    if result.existing and pid is not None:
        head = tr(
            "ℹ️ This text is already in proposal #{id} as “{title}”; nothing new was added.",
            id=pid,
            title=title,
        )
    elif result.existing:
        head = tr(
            "ℹ️ This text is already in the global documents as “{title}”; nothing new was added.",
            title=title,
        )
    elif pid is not None:
        head = tr.ngettext(
            "✅ “{title}” is added to proposal #{id}, in {n} chunk.",
            "✅ “{title}” is added to proposal #{id}, in {n} chunks.",
            n,
            id=pid,
            title=title,
        )
    else:
        head = tr.ngettext(
            "✅ “{title}” is added to the global documents, in {n} chunk.",
            "✅ “{title}” is added to the global documents, in {n} chunks.",
            n,
            title=title,
        )
    doc_id = result.document_id
    if pid is not None:
        listing = tr("/view_docs {id} for all documents there", id=pid)
    else:
        listing = tr("/view_global_docs for all documents there")
    lines = [
        head,
        tr("Id: <code>{id}</code>", id=doc_id),
        "",
        tr("What next:"),
        tr("/view_doc {id} to read it", id=doc_id),
        tr("/delete_doc {id} to delete it", id=doc_id),
        listing,
    ]
    return "\n".join(lines)


# -- editing -------------------------------------------------------------------------------


async def _start_edit(update: Update, context: BotContext, command: str) -> int:
    doc_id = view.parse_document_id(context.args, command)
    doc = await context.services.documents.get_document(doc_id)
    await view.check_can_manage(context, user_of(update).telegram_id, doc)
    context.state.extra[KEY] = {"mode": "edit", "doc_id": doc.id, "old_title": doc.title}
    tr = context.tr
    buttons = [
        InlineKeyboardButton(tr("Title"), callback_data="de:title"),
        InlineKeyboardButton(tr("Text"), callback_data="de:content"),
        InlineKeyboardButton(tr("✖ Cancel"), callback_data="de:stop"),
    ]
    length, place = len(doc.content), view.where(tr, doc)
    await reply(
        update,
        tr.ngettext(
            "Editing “{title}” ({where}, {count} character). What would you like to change?",
            "Editing “{title}” ({where}, {count} characters). What would you like to change?",
            length,
            title=h(doc.title),
            where=place,
            count=tr.number(length),
        ),
        InlineKeyboardMarkup([buttons]),
    )
    return FIELD


async def edit_doc(update: Update, context: BotContext) -> int:
    return await _start_edit(update, context, "edit_doc")


async def edit_global_doc(update: Update, context: BotContext) -> int:
    return await _start_edit(update, context, "edit_global_doc")


async def choose_field(update: Update, context: BotContext) -> int:
    choice = await _press(update)
    tr = context.tr
    if choice == "stop":
        await reply(update, tr("Nothing changed."))
        return _end(context)
    flow = _flow(context)
    flow.update(field=choice, title=None, content=None, parts=[])
    if choice == "title":
        await reply(update, tr("Send the new <b>title</b> (up to 300 characters), or /cancel."))
        return TITLE
    await reply(update, _prompt(tr, tr("The new text replaces the whole document.")))
    return CONTENT


async def _ask_confirm(update: Update, context: BotContext) -> int:
    flow = _flow(context)
    tr = context.tr
    old = h(flow["old_title"])
    if flow.get("field") == "title":
        question = tr("Change the title “{old}” to “{new}”?", old=old, new=h(flow["title"]))
    else:
        length = len(flow["content"])
        question = tr.ngettext(
            "Replace the text of “{title}” with the new one ({count} character)? "
            "It is indexed again for search.",
            "Replace the text of “{title}” with the new one ({count} characters)? "
            "It is indexed again for search.",
            length,
            title=old,
            count=tr.number(length),
        )
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(tr("✅ Save"), callback_data="dc:y"),
                InlineKeyboardButton(tr("✖ Discard"), callback_data="dc:n"),
            ]
        ]
    )
    await reply(update, question, markup)
    return CONFIRM


async def save_edit(update: Update, context: BotContext) -> int:
    tr = context.tr
    if await _press(update) == "n":
        await reply(update, tr("Discarded. Nothing changed."))
        return _end(context)
    flow = _flow(context)
    by_title = flow.get("field") == "title"
    try:
        doc = await context.services.documents.edit_document(
            user_of(update).telegram_id,
            flow["doc_id"],
            title=flow["title"] if by_title else None,
            content=None if by_title else flow["content"],
        )
    except ValidationError as exc:
        flow.update(title=None, content=None, parts=[])
        again = tr("Send another title") if by_title else tr(CONTENT_PROMPT)
        await reply(update, f"{_error(tr, exc)}\n\n{again}")
        return TITLE if by_title else CONTENT
    except CoordBotError as exc:  # deleted meanwhile, or the rights changed
        await reply(update, _error(tr, exc))
        return _end(context)
    await reply(
        update, tr("✅ Saved “{title}”. /view_doc {id} to read it.", title=h(doc.title), id=doc.id)
    )
    return _end(context)


# -- the rest of the conversation ----------------------------------------------------------


async def not_content(update: Update, context: BotContext) -> None:
    await reply(update, _prompt(context.tr, context.tr("I can't use that.")))


async def not_title(update: Update, context: BotContext) -> None:
    await reply(update, context.tr("Please send the title as a text message, or /cancel."))


async def use_buttons(update: Update, context: BotContext) -> None:
    await reply(update, context.tr("Please use the buttons above, or /cancel."))


async def cancel(update: Update, context: BotContext) -> int:
    await reply(update, context.tr("Cancelled. Nothing was saved."))
    return _end(context)


async def stale_button(update: Update, context: BotContext) -> None:
    assert update.callback_query is not None
    await update.callback_query.answer(
        context.tr("That step is over. Start again with /add_doc, /add_global_doc or /edit_doc."),
        show_alert=True,
    )


def conversation() -> ConversationHandler[BotContext]:
    private = filters.ChatType.PRIVATE
    new = filters.UpdateType.MESSAGE & private  # not edits of messages already taken
    text = new & filters.TEXT & ~filters.COMMAND
    other = new & ~filters.COMMAND
    return ConversationHandler(
        entry_points=[
            CommandHandler("add_doc", add_doc, filters=private),
            CommandHandler("add_global_doc", add_global_doc, filters=private),
            CommandHandler("edit_doc", edit_doc, filters=private),
            CommandHandler("edit_global_doc", edit_global_doc, filters=private),
        ],
        states={
            CONTENT: [
                MessageHandler(text, got_text),
                MessageHandler(new & filters.Document.ALL, got_file),
                CommandHandler("done", content_done, filters=private),
                CallbackQueryHandler(content_done, pattern=CONTENT_DONE),
                MessageHandler(other, not_content),
            ],
            TITLE: [
                CallbackQueryHandler(use_suggested_title, pattern=USE_TITLE),
                MessageHandler(text, got_title),
                MessageHandler(other, not_title),
            ],
            FIELD: [
                CallbackQueryHandler(choose_field, pattern=EDIT_FIELD),
                MessageHandler(other, use_buttons),
            ],
            CONFIRM: [
                CallbackQueryHandler(save_edit, pattern=SAVE_EDIT),
                MessageHandler(other, use_buttons),
            ],
        },
        fallbacks=[CommandHandler("cancel", cancel, filters=private)],
        name="documents",
        allow_reentry=True,
    )


def handlers() -> list[BaseHandler[Any, BotContext, Any]]:
    """Register before bot.py's CommandHandler("cancel") and the catch-all handlers."""
    private = filters.ChatType.PRIVATE
    return [
        conversation(),
        CommandHandler("view_docs", view.view_docs, filters=private),
        CommandHandler("view_global_docs", view.view_global_docs, filters=private),
        CommandHandler("view_doc", view.view_doc, filters=private),
        CommandHandler("my_docs", view.my_docs, filters=private),
        CommandHandler("delete_doc", view.delete_doc, filters=private),
        CommandHandler("delete_global_doc", view.delete_global_doc, filters=private),
        CallbackQueryHandler(stale_button, pattern=STALE),  # after the conversation
    ]


def button_handlers() -> list[BaseHandler[Any, BotContext, Any]]:
    return list(view.view_button_handlers())
