"""Inline keyboards and their callback_data (compact, under 64 bytes, anchored patterns)."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from app.domain.models import Page, Proposal, ProposalStatus
from app.i18n import Translator

# callback_data patterns; handlers register exactly these. Ids have at most nine digits,
# so any id a pattern lets through fits the database's 32-bit integers; data no pattern
# takes (forged, or from an older version) is answered by start.unknown_button.
VOTE = r"^v:(\d{1,9}):(\d{1,2})$"
VIEW = r"^vp:(\d{1,9})$"
LIST = r"^pl:(o|c|x|a):(\d{1,6})$"
MY_PROPOSALS = r"^mp:(\d{1,6})$"
MY_VOTES = r"^mv:(\d{1,6})$"
PROPOSE_TYPE = r"^pt:(mc|ff)$"
PROPOSE_CONFIRM = r"^pc:(yes|redo|no)$"
EDIT_FIELD = r"^ef:(title|description|options|stop)$"
CANCEL_CONFIRM = r"^cx:(\d{1,9}):(y|n)$"

STATUS_CODES = {"o": ProposalStatus.OPEN, "c": ProposalStatus.CLOSED, "x": ProposalStatus.CANCELLED}
STATUS_TO_CODE = {v: k for k, v in STATUS_CODES.items()}


def deep_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"


def vote_keyboard(proposal: Proposal) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(option, callback_data=f"v:{proposal.id}:{index}")]
            for index, option in enumerate(proposal.options)
        ]
    )


def submit_keyboard(proposal: Proposal, bot_username: str, tr: Translator) -> InlineKeyboardMarkup:
    url = deep_link(bot_username, f"submit_{proposal.id}")
    return InlineKeyboardMarkup([[InlineKeyboardButton(tr("💡 Send your idea"), url=url)]])


def post_keyboard(
    proposal: Proposal, bot_username: str, tr: Translator
) -> InlineKeyboardMarkup | None:
    """The buttons under a channel post (in the community's ``tr``): none once closed."""
    if proposal.status is not ProposalStatus.OPEN:
        return None
    if proposal.is_multiple_choice:
        return vote_keyboard(proposal)
    return submit_keyboard(proposal, bot_username, tr)


def status_chooser(tr: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(tr("🟢 Open"), callback_data="pl:o:0"),
                InlineKeyboardButton(tr("🔒 Closed"), callback_data="pl:c:0"),
            ],
            [
                InlineKeyboardButton(tr("❌ Cancelled"), callback_data="pl:x:0"),
                InlineKeyboardButton(tr("All"), callback_data="pl:a:0"),
            ],
        ]
    )


def _proposal_buttons(proposals: Sequence[Proposal]) -> list[list[InlineKeyboardButton]]:
    rows = []
    for p in proposals:
        label = f"#{p.id} {p.title}"
        rows.append([InlineKeyboardButton(label[:60], callback_data=f"vp:{p.id}")])
    return rows


def _pager(page: Page[object], prefix: str, tr: Translator) -> list[InlineKeyboardButton]:
    buttons = []
    if page.has_previous:
        buttons.append(
            InlineKeyboardButton(tr("◀ Previous"), callback_data=f"{prefix}{page.page - 1}")
        )
    if page.has_next:
        buttons.append(InlineKeyboardButton(tr("Next ▶"), callback_data=f"{prefix}{page.page + 1}"))
    return buttons


def list_keyboard(
    page: Page[Proposal], prefix: str, tr: Translator, *, open_buttons: bool = True
) -> InlineKeyboardMarkup | None:
    rows = _proposal_buttons(page.items) if open_buttons else []
    pager = _pager(page, prefix, tr)  # type: ignore[arg-type]
    if pager:
        rows.append(pager)
    return InlineKeyboardMarkup(rows) if rows else None


def proposal_type_keyboard(tr: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(tr("🗳 Multiple choice"), callback_data="pt:mc")],
            [InlineKeyboardButton(tr("💡 Free form (ideas)"), callback_data="pt:ff")],
        ]
    )


def confirm_keyboard(tr: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(tr("✅ Create proposal"), callback_data="pc:yes")],
            [
                InlineKeyboardButton(tr("🕒 Change deadline"), callback_data="pc:redo"),
                InlineKeyboardButton(tr("✖ Discard"), callback_data="pc:no"),
            ],
        ]
    )


def edit_field_keyboard(proposal: Proposal, tr: Translator) -> InlineKeyboardMarkup:
    row = [
        InlineKeyboardButton(tr("Title"), callback_data="ef:title"),
        InlineKeyboardButton(tr("Description"), callback_data="ef:description"),
    ]
    if proposal.is_multiple_choice:
        row.append(InlineKeyboardButton(tr("Options"), callback_data="ef:options"))
    return InlineKeyboardMarkup([row, [InlineKeyboardButton(tr("Done"), callback_data="ef:stop")]])


def cancel_confirm_keyboard(proposal_id: int, tr: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(tr("Yes, cancel it"), callback_data=f"cx:{proposal_id}:y"),
                InlineKeyboardButton(tr("No, keep it"), callback_data=f"cx:{proposal_id}:n"),
            ]
        ]
    )


def detail_keyboard(
    proposal: Proposal, bot_username: str, tr: Translator
) -> InlineKeyboardMarkup | None:
    """Under /view_proposal: vote right here, or send an idea."""
    return post_keyboard(proposal, bot_username, tr)
