"""/add_fact, /facts and /delete_fact: admins curate the fact graph, everyone can read it.

Thin on purpose: the admin rule and every validation live in GraphService. A fact
is written "Subject | predicate | Object", optionally "| 0.9" for confidence.
Admins also get a delete button under each fact /facts shows.
"""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, filters

from app.core.graph.graph_results import DISPLAYED, FindFactsResult
from app.domain.errors import ValidationError
from app.domain.messages import N_
from app.i18n import Translator
from app.persistence.repositories.facts import Fact
from app.telegram_handlers.common import reply, user_of
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.formatting import h

FACT_DELETE = r"^fd:(\d{1,9})(?::(y|n))?$"

HELP: list[tuple[str, str]] = [  # for /help and the command menu
    ("facts", N_("What the knowledge graph knows about something: /facts <name>")),
    ("add_fact", N_("Admins: add a fact: /add_fact Subject | predicate | Object")),
    ("delete_fact", N_("Admins: delete a fact: /delete_fact Subject | predicate | Object")),
]

# Shown through the error handler, which escapes them: plain text only.
USAGE = {
    "add_fact": N_(
        "Please write the fact as: /add_fact Subject | predicate | Object\n"
        "optionally with a confidence from 0 to 1: /add_fact Einstein | invented | relativity | 0.9"
    ),
    "delete_fact": N_(
        "Please write the fact to delete as: /delete_fact Subject | predicate | Object\n"
        "or use the 🗑 buttons under /facts <name>."
    ),
}
NO_FACTS_HINT = N_(
    "Check the spelling of the name (capitals don't matter), or ask in plain words with /ask."
)


def _argument_text(update: Update) -> str:
    """Everything after the command, spacing inside kept."""
    message = update.effective_message
    parts = (message.text or "").split(maxsplit=1) if message else []
    return parts[1].strip() if len(parts) > 1 else ""


def _triple(update: Update, command: str) -> list[str]:
    parts = [p.strip() for p in _argument_text(update).split("|")]
    if len(parts) not in (3, 4) or not all(parts[:3]):
        raise ValidationError(USAGE[command])
    return parts


def _show(fact: Fact) -> str:
    return f"<b>{h(fact.subject)}</b> {h(fact.predicate)} <b>{h(fact.object)}</b>"


def _found(tr: Translator, result: FindFactsResult) -> str:
    """FindFactsResult.message in the member's language: a count, then numbered facts."""
    facts = result.facts
    lines = [tr.ngettext("Found {n} fact:", "Found {n} facts:", len(facts))]
    lines += [f"{i}. {f.subject} {f.predicate} {f.object}" for i, f in enumerate(facts, 1)]
    lines = lines[: DISPLAYED + 1]
    if len(facts) > DISPLAYED:
        more = len(facts) - DISPLAYED
        lines.append(tr.ngettext("... and {n} more", "... and {n} more", more))
    return "\n".join(lines)


async def add_fact(update: Update, context: BotContext) -> None:
    graph = context.services.graph
    user_id = user_of(update).telegram_id
    graph.require_admin(user_id, "add facts")  # before the syntax help, which only admins need
    subject, predicate, obj, *rest = _triple(update, "add_fact")
    stored = await graph.add_fact(user_id, subject, predicate, obj, rest[0] if rest else 1.0)
    fact = stored.fact
    tr = context.tr
    values = {"fact": _show(fact), "confidence": f"{fact.confidence:g}"}
    if stored.created:
        text = tr("✅ Stored: {fact} (confidence {confidence})", **values)
    else:
        text = tr("✅ Already known; updated: {fact} (confidence {confidence})", **values)
    await reply(update, text)


async def facts_command(update: Update, context: BotContext) -> None:
    graph = context.services.graph
    tr = context.tr
    entity = _argument_text(update)
    if not entity:
        raise ValidationError("Which name? For example: /facts Einstein")
    result = await graph.facts_about(entity)
    if not result.facts:
        empty = tr("No facts found matching your query about “{name}”.", name=h(entity))
        await reply(update, f"{empty}\n{h(tr(NO_FACTS_HINT))}")
        return
    markup = None
    if graph.is_admin(user_of(update).telegram_id):
        shown = result.facts[:DISPLAYED]
        markup = InlineKeyboardMarkup(
            [[InlineKeyboardButton(f"🗑 {i}", callback_data=f"fd:{fact.id}")
              for i, fact in enumerate(shown, 1)]]
        )  # fmt: skip
    await reply(update, h(_found(tr, result)), markup)


async def delete_fact(update: Update, context: BotContext) -> None:
    graph = context.services.graph
    user_id = user_of(update).telegram_id
    graph.require_admin(user_id, "delete facts")
    subject, predicate, obj, *_ = _triple(update, "delete_fact")
    fact = await graph.delete_fact(user_id, subject, predicate, obj)
    await reply(update, context.tr("🗑 Deleted: {fact}", fact=_show(fact)))


async def delete_button(update: Update, context: BotContext) -> None:
    """fd:<id> asks for confirmation; fd:<id>:y deletes, fd:<id>:n keeps."""
    query = update.callback_query
    assert query is not None and query.data is not None
    _, fact_id, *answer = query.data.split(":")
    graph = context.services.graph
    user_id = user_of(update).telegram_id
    graph.require_admin(user_id, "delete facts")
    tr = context.tr
    if not answer:
        fact = await graph.get_fact(int(fact_id))
        await query.answer()
        await reply(
            update,
            tr("Delete the fact {fact}?", fact=_show(fact)),
            InlineKeyboardMarkup(
                [[InlineKeyboardButton(tr("Yes, delete"), callback_data=f"fd:{fact.id}:y"),
                  InlineKeyboardButton(tr("No"), callback_data=f"fd:{fact.id}:n")]]
            ),
        )  # fmt: skip
        return
    if answer == ["n"]:
        await query.answer()
        await query.edit_message_text(tr("Kept. Nothing changed."))
        return
    fact = await graph.delete_fact_by_id(user_id, int(fact_id))
    await query.answer(tr("Deleted."))
    await query.edit_message_text(
        tr("🗑 Deleted: {fact}", fact=_show(fact)), parse_mode=ParseMode.HTML
    )


def handlers() -> list[BaseHandler[Any, BotContext, Any]]:
    """Register before the catch-all unknown-command handler."""
    private = filters.ChatType.PRIVATE
    return [
        CommandHandler("add_fact", add_fact, filters=private),
        CommandHandler("facts", facts_command, filters=private),
        CommandHandler("delete_fact", delete_fact, filters=private),
        CallbackQueryHandler(delete_button, pattern=FACT_DELETE),
    ]
