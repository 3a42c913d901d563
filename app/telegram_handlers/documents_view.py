"""Reading and removing documents: /view_docs, /view_doc, /my_docs, /delete_doc.

Who may remove what is DocumentService's rule; this module only asks first and
shows the answer. A document's text is sent as it is (escaped), split so no
message passes Telegram's limit and no HTML entity is cut in half.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.ext import CallbackQueryHandler

from app.core.knowledge.document_service import DocumentInfo
from app.domain.errors import ValidationError
from app.domain.messages import N_
from app.domain.models import Page
from app.i18n import Translator
from app.telegram_handlers.common import parse_proposal_id, reply, user_of
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.formatting import MAX_MESSAGE, h

PAGE_SIZE = 10
# callback_data (compact, under 64 bytes): open a document, page a list, confirm a delete.
DOC_OPEN = r"^vd:([0-9a-f-]{36})$"
DOC_LIST = r"^dl:(g|m|p\d{1,9}):(\d{1,6})$"
DOC_DELETE = r"^dx:([0-9a-f-]{36}):(y|n)$"


def parse_document_id(args: Sequence[str] | None, command: str) -> str:
    """The document id given to ``/command``; a missing or bad one says where to find ids."""
    if not args:
        raise ValidationError(
            "Please tell me which document: /{command} <document_id>\n"
            "Find document ids with /view_docs <proposal_id>, /view_global_docs or /my_docs.",
            command=command,
        )
    try:
        return str(uuid.UUID(args[0].strip()))
    except ValueError:
        raise ValidationError(
            "'{given}' is not a document id. Ids look like "
            "3f2b8c1e-0d4a-4c55-9a57-1c0e6a9d2b7f.\n"
            "Find document ids with /view_docs <proposal_id>, /view_global_docs or /my_docs.",
            given=args[0][:40],
        ) from None


async def check_can_manage(context: BotContext, user_id: int, doc: DocumentInfo) -> None:
    """Refuse before asking anything: the same rule the service applies when it changes a doc."""
    await context.services.documents.check_can_manage(user_id, doc.id)


def where(tr: Translator, doc: DocumentInfo) -> str:
    """Where a document belongs, as a short label: "proposal #3" or "global"."""
    if doc.proposal_id is not None:
        return tr("proposal #{id}", id=doc.proposal_id)
    return tr("global")


# -- lists ---------------------------------------------------------------------------------


def _list_text(title: str, page: Page[DocumentInfo], tr: Translator, mine: bool) -> str:
    first = page.page * page.page_size + 1
    counted = tr(
        "<b>{title}</b> ({first}–{last} of {total})",
        title=title,
        first=first,
        last=first + len(page.items) - 1,
        total=page.total,
    )
    lines = [counted, ""]
    for doc in page.items:
        length = len(doc.content)
        size = tr.ngettext(
            "{count} character", "{count} characters", length, count=tr.number(length)
        )
        added = tr("added {when}", when=h(tr.when(doc.created_at)))
        parts = [size, where(tr, doc), added] if mine else [size, added]
        lines.append(f"📄 <b>{h(doc.title)}</b>\n    " + " · ".join(parts))
    lines += ["", tr("Tap a document to read it.")]
    return "\n".join(lines)


def _list_keyboard(page: Page[DocumentInfo], scope: str, tr: Translator) -> InlineKeyboardMarkup:
    rows = [
        [InlineKeyboardButton(f"📄 {doc.title}"[:60], callback_data=f"vd:{doc.id}")]
        for doc in page.items
    ]
    pager = []
    if page.has_previous:
        pager.append(
            InlineKeyboardButton(tr("◀ Previous"), callback_data=f"dl:{scope}:{page.page - 1}")
        )
    if page.has_next:
        pager.append(
            InlineKeyboardButton(tr("Next ▶"), callback_data=f"dl:{scope}:{page.page + 1}")
        )
    if pager:
        rows.append(pager)
    return InlineKeyboardMarkup(rows)


async def _show_list(update: Update, context: BotContext, scope: str, page_no: int) -> None:
    """``scope`` is "g" (global), "m" (the user's own) or "p<id>" (one proposal)."""
    services = context.services
    tr = context.tr
    if scope == "g":
        title = tr("Global documents")
        empty = tr("There are no global documents yet. Admins add them with /add_global_doc.")
        docs, total = await services.documents.list_documents(
            global_only=True, page=page_no, page_size=PAGE_SIZE
        )
    elif scope == "m":
        title = tr("Documents you added")
        empty = h(
            tr("You haven't added any documents. Add one to your proposal with /add_doc <id>.")
        )
        docs, total = await services.documents.list_documents(
            owner_id=user_of(update).telegram_id, page=page_no, page_size=PAGE_SIZE
        )
    else:
        proposal = await services.proposals.get(int(scope[1:]))
        title = tr("Documents of proposal #{id} “{title}”", id=proposal.id, title=h(proposal.title))
        empty = tr(
            "Proposal #{id} has no documents yet. Its proposer can add one with /add_doc {id}.",
            id=proposal.id,
        )
        docs, total = await services.documents.list_documents(
            proposal_id=proposal.id, page=page_no, page_size=PAGE_SIZE
        )
    page = Page(items=docs, page=page_no, page_size=PAGE_SIZE, total=total)
    if not docs:
        text, markup = empty, None
    else:
        text = _list_text(title, page, tr, scope == "m")
        markup = _list_keyboard(page, scope, tr)
    query = update.callback_query
    if query is not None:
        await query.answer()
        await query.edit_message_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)
    else:
        await reply(update, text, markup)


async def view_docs(update: Update, context: BotContext) -> None:
    if not context.args:
        await _show_list(update, context, "g", 0)
        return
    proposal_id = parse_proposal_id(context.args, "view_docs")
    await _show_list(update, context, f"p{proposal_id}", 0)


async def view_global_docs(update: Update, context: BotContext) -> None:
    await _show_list(update, context, "g", 0)


async def my_docs(update: Update, context: BotContext) -> None:
    await _show_list(update, context, "m", 0)


async def docs_page(update: Update, context: BotContext) -> None:
    assert update.callback_query and update.callback_query.data
    _, scope, page = update.callback_query.data.split(":")
    await _show_list(update, context, scope, int(page))


# -- one document --------------------------------------------------------------------------


def _units(text: str) -> int:
    """Length as Telegram counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def _cut(escaped: str, room: int) -> int:
    """Where to cut ``escaped`` so the head fits in ``room`` without splitting an entity."""
    k = min(room, len(escaped))
    while k and (over := _units(escaped[:k]) - room) > 0:
        k -= over
    amp = escaped.rfind("&", max(0, k - 4), k)
    if amp != -1 and ";" not in escaped[amp:k]:
        k = amp
    return k


def paginate(header: str, content: str, limit: int = MAX_MESSAGE) -> list[str]:
    """``header`` (HTML) then ``content`` (plain, escaped here) in messages of at most
    ``limit``; lines stay whole where they fit, and an entity like ``&amp;`` is never cut."""
    pages: list[str] = []
    parts = [header, "\n\n"]
    size = _units(header) + 2

    def flush() -> None:
        nonlocal size
        pages.append("".join(parts))
        parts.clear()
        size = 0

    for line in content.splitlines(keepends=True):
        rest = h(line)
        units = _units(rest)
        if size and size + units > limit and units <= limit:
            flush()
        while size + units > limit:  # a line longer than a message
            k = _cut(rest, limit - size) or (0 if size else 1)
            parts.append(rest[:k])
            flush()
            rest = rest[k:]
            units = _units(rest)
        parts.append(rest)
        size += units
    flush()
    return [page.rstrip("\n") for page in pages if page.strip()]  # blank texts are refused


CATEGORIES = {"proposal": N_("proposal"), "global": N_("global")}


def render_header(doc: DocumentInfo, tr: Translator) -> str:
    if doc.proposal_id is not None:
        attached = tr("Attached to: proposal #{id} (/view_proposal {id})", id=doc.proposal_id)
    else:
        attached = tr("Attached to: global (all proposals)")
    if doc.category is None:
        category = tr("Category: none")
    else:
        known = CATEGORIES.get(doc.category)
        shown = tr(known) if known is not None else doc.category  # an imported one's own
        category = tr("Category: {category}", category=h(shown))
    length = len(doc.content)
    lines = [
        f"📄 <b>{h(doc.title)}</b>",
        category,
        attached,
        tr("Added: {when}", when=h(tr.when(doc.created_at))),
    ]
    if doc.source:
        lines.append(tr("Source: {source}", source=h(doc.source)))
    size = tr.ngettext("{count} character", "{count} characters", length, count=tr.number(length))
    lines.append(f"{tr('Id: <code>{id}</code>', id=doc.id)} · {size}")
    return "\n".join(lines)


async def _send_document(update: Update, context: BotContext, document_id: str) -> None:
    doc = await context.services.documents.get_document(document_id)
    for page in paginate(render_header(doc, context.tr), doc.content):
        await reply(update, page)


async def view_doc(update: Update, context: BotContext) -> None:
    await _send_document(update, context, parse_document_id(context.args, "view_doc"))


async def view_doc_button(update: Update, context: BotContext) -> None:
    assert update.callback_query and update.callback_query.data
    await update.callback_query.answer()
    await _send_document(update, context, update.callback_query.data.split(":")[1])


# -- delete --------------------------------------------------------------------------------


async def _ask_delete(update: Update, context: BotContext, command: str) -> None:
    doc_id = parse_document_id(context.args, command)
    doc = await context.services.documents.get_document(doc_id)
    await check_can_manage(context, user_of(update).telegram_id, doc)
    tr = context.tr
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(tr("🗑 Yes, delete it"), callback_data=f"dx:{doc.id}:y"),
                InlineKeyboardButton(tr("No, keep it"), callback_data=f"dx:{doc.id}:n"),
            ]
        ]
    )
    length, place = len(doc.content), where(tr, doc)
    await reply(
        update,
        tr.ngettext(
            "Delete the document “{title}” ({where}, {count} character)? "
            "It is also removed from search. This can't be undone.",
            "Delete the document “{title}” ({where}, {count} characters)? "
            "It is also removed from search. This can't be undone.",
            length,
            title=h(doc.title),
            where=place,
            count=tr.number(length),
        ),
        markup,
    )


async def delete_doc(update: Update, context: BotContext) -> None:
    await _ask_delete(update, context, "delete_doc")


async def delete_global_doc(update: Update, context: BotContext) -> None:
    await _ask_delete(update, context, "delete_global_doc")


async def delete_button(update: Update, context: BotContext) -> None:
    query = update.callback_query
    assert query is not None and query.data is not None
    _, doc_id, answer = query.data.split(":")
    tr = context.tr
    if answer == "n":
        await query.answer()
        await query.edit_message_text(tr("Kept. Nothing changed."))
        return
    doc = await context.services.documents.delete_document(user_of(update).telegram_id, doc_id)
    await query.answer(tr("Deleted."))
    await query.edit_message_text(
        tr(
            "🗑 The document “{title}” ({where}) is deleted.",
            title=h(doc.title),
            where=where(tr, doc),
        ),
        parse_mode=ParseMode.HTML,
    )


def view_button_handlers() -> list[CallbackQueryHandler[BotContext, None]]:
    return [
        CallbackQueryHandler(view_doc_button, pattern=DOC_OPEN),
        CallbackQueryHandler(docs_page, pattern=DOC_LIST),
        CallbackQueryHandler(delete_button, pattern=DOC_DELETE),
    ]
