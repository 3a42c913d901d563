"""/start, /help, /privacy, and what happens with commands the bot does not know."""

from __future__ import annotations

from telegram import BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import BaseHandler

from app.domain.messages import N_
from app.i18n import Translator
from app.telegram_handlers.common import reply, user_of
from app.telegram_handlers.context import BotContext
from app.telegram_handlers.documents import HELP as DOCUMENT_COMMANDS
from app.telegram_handlers.facts import HELP as FACT_COMMANDS
from app.telegram_handlers.formatting import h
from app.telegram_handlers.keyboards import deep_link

COMMANDS: list[tuple[str, str]] = [
    ("propose", N_("Create a proposal (one line or step by step)")),
    ("proposals", N_("Browse proposals: open, closed, cancelled")),
    ("view_proposal", N_("Show one proposal: /view_proposal <id>")),
    ("my_proposals", N_("Proposals you created")),
    ("my_votes", N_("Your votes and submissions")),
    ("my_vote", N_("Your answer to one proposal: /my_vote <id>")),
    ("submit", N_("Send an idea: /submit <id> <text>")),
    ("edit_proposal", N_("Edit your proposal before anyone votes")),
    ("cancel_proposal", N_("Cancel your proposal")),
    ("view_results", N_("Results of a closed proposal: /view_results <id>")),
    ("extend_deadline", N_("Give a proposal more time: /extend_deadline <id> 2 days")),
    ("close_proposal", N_("Admins: close a proposal early")),
    *DOCUMENT_COMMANDS,
    *FACT_COMMANDS,
    ("language", N_("Choose the language I write to you in")),
    ("ask", N_("Ask a question in plain words: /ask what closes this week?")),
    ("privacy", N_("What is stored and who can see it")),
    ("help", N_("This list, or /help <question> about using the bot")),
    ("cancel", N_("Leave the current step")),
]

PROPOSE_HELP = N_(
    "<b>Create a proposal</b>\n"
    "One line: <code>/propose Title; Description; Option 1, Option 2</code>\n"
    "Free form (collect ideas): <code>/propose Title; Description; FREEFORM</code>\n"
    "Or just send /propose and I will ask step by step."
)


def bot_commands(tr: Translator) -> list[BotCommand]:
    """The command menu in ``tr``'s language."""
    return [BotCommand(name, tr(description)) for name, description in COMMANDS]


def help_text(tr: Translator) -> str:
    lines = [tr("<b>What I can do</b>"), ""]
    lines += [f"/{name} — {h(tr(description))}" for name, description in COMMANDS]
    lines += ["", tr(PROPOSE_HELP)]
    return "\n".join(lines)


PRIVACY_TEXT = N_(
    "<b>Privacy</b>\n"
    "• I store your Telegram id, username and name so I can tell proposers apart "
    "and show who proposed what.\n"
    "• Proposals (title, description, options, deadline, proposer) are public to "
    "the community.\n"
    "• Your vote or idea is stored with your id so you can change it and read it "
    "back with /my_vote. Nobody else can see it: not other members, not the "
    "proposer, not the channel. Results show totals only, and ideas without names.\n"
    "• Votes and ideas never appear in logs or in answers to /ask."
)


async def start(update: Update, context: BotContext) -> None:
    await context.services.proposals.register_user(user_of(update))
    tr = context.tr
    first_name = update.effective_user.first_name if update.effective_user else None
    name = h(first_name) if first_name else tr("there")
    await reply(
        update,
        tr(
            "Hello {name}! I help this community decide things together.\n\n"
            "Create a proposal with /propose, vote with the buttons under proposals in the "
            "channel, and see your own answers with /my_votes.\n\nSend /help for all "
            "commands, and /language to choose the language I write in.",
            name=name,
        ),
    )


async def help_command(update: Update, context: BotContext) -> None:
    await reply(update, help_text(context.tr))


async def privacy(update: Update, context: BotContext) -> None:
    await reply(update, context.tr(PRIVACY_TEXT))


async def unknown_command(update: Update, context: BotContext) -> None:
    message = update.effective_message
    command = (message.text or "").split()[0].split("@")[0] if message else "/?"
    await reply(
        update,
        context.tr(
            "Sorry, I don't know the command {command}. Send /help to see what I can do.",
            command=h(command),
        ),
    )


async def unknown_button(update: Update, context: BotContext) -> None:
    """A button no handler recognises (left from an older version of the bot, or data a
    modified client made up): a short answer, so no spinner is left spinning."""
    query = update.callback_query
    if query is not None:
        await query.answer(context.tr("This button is no longer valid"))


class DatalessButton(BaseHandler[Update, BotContext, None]):
    """A press without data goes to ``unknown_button`` before any other handler: PTB's
    button handlers test their pattern only on data that is there, so every one of them
    would take it."""

    def __init__(self) -> None:
        super().__init__(unknown_button)

    def check_update(self, update: object) -> bool:
        query = update.callback_query if isinstance(update, Update) else None
        return query is not None and not query.data and not query.game_short_name


async def plain_text(update: Update, context: BotContext) -> None:
    await reply(
        update,
        context.tr(
            "I read commands. To create a proposal send /propose; to see what's open send "
            "/proposals; /help lists everything."
        ),
    )


async def group_redirect(update: Update, context: BotContext) -> None:
    """Commands sent in a group are answered in a DM, where votes stay private."""
    tr = context.tr
    link = deep_link(context.bot.username, "help")
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(tr("Open a chat with me"), url=link)]])
    await reply(update, tr("Let's do that in a private chat with me."), markup)
