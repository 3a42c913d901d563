"""Documents, facts and /ask in the pseudo-locale: every reply, button and error a member
can reach is translated; only member content (titles, texts, file names, facts) is not."""

from __future__ import annotations

from typing import Any

from app.telegram_handlers.documents import HELP as DOCUMENT_HELP
from app.telegram_handlers.facts import HELP as FACT_HELP
from tests.conftest import ADMIN_ID, BotHarness
from tests.support.i18n import assert_translated
from tests.telegram.helpers import create_via_bot
from tests.telegram.test_documents import (
    PIZZA_TEXT,
    blank_pdf,
    doc_id_in,
    pdf_with_text,
    upload,
)

OTHER = 2002
MEMBER_CONTENT = [
    "Pizza budget",
    "Pizza party",
    "Pizza rules",
    "Party food",
    PIZZA_TEXT,
    "Drinks are paid separately.",
    "Bicycle parking by the north door.",
    "expense-policy",
    "Receipts for travel",
    "Handbook",
    "Remote work is allowed on Fridays",
    "Rule",
    "Einstein",
    "invented",
    "relativity",
    "Nobel_Prize",
    "won",
]


def _everyone_speaks_pseudo(bot: BotHarness) -> int:
    for user_id in (1001, OTHER, ADMIN_ID):
        bot.speaks("qps", user_id=user_id)
    return len(bot.request.calls)


def _buttons_since(bot: BotHarness, start: int) -> list[str]:
    labels = []
    for call in bot.request.calls[start:]:
        markup: Any = call.params.get("reply_markup") or {}
        for row in markup.get("inline_keyboard", []) if isinstance(markup, dict) else []:
            labels += [button["text"] for button in row]
    return labels


async def _photo(bot: BotHarness, user_id: int = 1001) -> list[str]:
    """A message that is neither text nor a file (a photo)."""
    updates = bot.updates
    message = updates._base_message(updates.user(user_id), None, "private")
    message["photo"] = [{"file_id": "p1", "file_unique_id": "up1", "width": 1, "height": 1}]
    before = len(bot.request.calls)
    await bot.app.process_update(updates._update(message=message))
    return bot._texts_since(before)


async def test_adding_a_document_by_text_and_by_upload_is_translated(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    start = _everyone_speaks_pseudo(bot)
    texts: list[str] = []

    texts += await bot.send(f"/add_doc {pid}")
    texts += await bot.press("dt:done")  # no text yet
    texts += await _photo(bot)  # not text, not a file
    got = await bot.send(PIZZA_TEXT)
    assert got[-1].startswith("⟦Got it:")
    texts += got
    texts += await bot.send("Drinks are paid separately.")
    texts += await upload(bot, "extra.txt", b"more")  # text was pasted already
    texts += await bot.send("/done")
    texts += await upload(bot, "notes.txt", b"a file where a title belongs")  # not a title
    added = await bot.send("Pizza rules")
    assert "⟦✅" in added[-1]
    texts += added

    # The same text again: already there.
    await bot.send(f"/add_doc {pid}")
    await bot.send(PIZZA_TEXT + "\nDrinks are paid separately.")
    await bot.press("dt:done")
    texts += await bot.send("Again")
    # An empty title is refused and the content prompt repeats.
    await bot.send(f"/add_doc {pid}")
    await bot.send("Bicycle parking by the north door.")
    await bot.press("dt:done")
    refused = await bot.send("   ")
    assert "⟦title cannot be empty⟧" in refused[-1]
    texts += refused
    texts += await bot.send("/cancel")
    texts += await bot.press("dt:done")  # a stale button

    # Rights and ids.
    texts += await bot.send(f"/add_doc {pid}", user_id=OTHER)
    texts += await bot.send("/add_global_doc", user_id=OTHER)
    texts += await bot.send("/add_doc")
    texts += await bot.send("/add_doc 999")

    # Uploads: the global flow, and every refusal.
    texts += await bot.send("/add_global_doc", user_id=ADMIN_ID)
    for name, data, mime, size in (
        ("setup.exe", b"MZ", "application/octet-stream", None),
        ("noext", b"x", "application/octet-stream", None),
        ("huge.txt", b"x", "text/plain", 6 * 1024 * 1024),
        ("old.txt", "Café".encode("cp1252"), "text/plain", None),
        ("empty.txt", b"  \n", "text/plain", None),
        ("binary.txt", b"a\x00b", "text/plain", None),
        ("scan.pdf", blank_pdf(), "application/pdf", None),
        ("broken.pdf", b"%PDF-1.4 nonsense", "application/pdf", None),
    ):
        refused = await upload(bot, name, data, mime, ADMIN_ID, size=size)
        assert refused and refused[-1].startswith("⟦"), (name, refused)
        texts += refused
    text = "# Expenses\n\nReceipts for travel must be filed within 30 days.\n"
    texts += await upload(bot, "expense-policy.md", text.encode(), "text/markdown", ADMIN_ID)
    added = await bot.press("dt:use", user_id=ADMIN_ID)
    assert "⟦✅" in added[-1]
    texts += added
    await bot.send("/add_global_doc", user_id=ADMIN_ID)
    pdf = pdf_with_text("Remote work is allowed on Fridays")
    texts += await upload(bot, "handbook.pdf", pdf, "application/pdf", ADMIN_ID)
    texts += await bot.send("Handbook", user_id=ADMIN_ID)

    assert_translated(
        texts + bot._texts_since(start),
        allowed=[*MEMBER_CONTENT, "Again", "extra.txt", "notes.txt"],
    )
    assert_translated(_buttons_since(bot, start), allowed=MEMBER_CONTENT)
    assert "⟦✅ Done⟧" in _buttons_since(bot, start)


async def test_reading_editing_and_deleting_documents_is_translated(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    empty_pid = await create_via_bot(bot, "Quiet; Nothing here; Yes, No")
    docs = bot.services.documents
    pizza = (await docs.add_document(1001, pid, "Pizza budget", PIZZA_TEXT)).document_id
    for n in range(11):
        await docs.add_document(ADMIN_ID, None, f"Rule {n}", f"Rule number {n}.")
    start = _everyone_speaks_pseudo(bot)
    texts: list[str] = []

    # Lists, pages and one document.
    listed = await bot.send(f"/view_docs {pid}", user_id=OTHER)
    assert "⟦Documents of proposal" in listed[-1]
    texts += listed
    texts += await bot.press(f"vd:{pizza}", user_id=OTHER)
    texts += await bot.send(f"/view_doc {pizza}")
    texts += await bot.send("/view_docs")
    texts += await bot.send("/view_global_docs")
    texts += await bot.press("dl:g:1")
    texts += await bot.send("/my_docs")
    texts += await bot.send("/my_docs", user_id=OTHER)
    texts += await bot.send(f"/view_docs {empty_pid}")

    # Ids: missing, malformed, unknown.
    texts += await bot.send("/view_doc")
    texts += await bot.send("/delete_doc 12")
    texts += await bot.send("/edit_doc nope")
    texts += await bot.send("/view_doc 3f2b8c1e-0d4a-4c55-9a57-1c0e6a9d2b7f")
    texts += await bot.send("/view_docs abc")
    texts += await bot.send("/view_docs 77")

    # Editing: refused, cancelled, title (discard, save, refused), text.
    texts += await bot.send(f"/edit_doc {pizza}", user_id=OTHER)
    texts += await bot.send(f"/edit_doc {pizza}")
    texts += await bot.send("hello")  # buttons expected
    texts += await bot.press("de:stop")
    await bot.send(f"/edit_doc {pizza}")
    texts += await bot.press("de:title")
    texts += await bot.send("Party food")
    texts += await bot.press("dc:n")
    await bot.send(f"/edit_doc {pizza}")
    await bot.press("de:title")
    await bot.send("   ")
    texts += await bot.send("hello")  # buttons expected at the confirmation
    texts += await bot.press("dc:y")  # an empty title is refused
    texts += await bot.send("Party food")
    texts += await bot.press("dc:y")
    await bot.send(f"/edit_doc {pizza}")
    texts += await bot.press("de:content")
    texts += await bot.send("Bicycle parking by the north door.")
    texts += await bot.press("dt:done")
    saved = await bot.press("dc:y")
    assert saved[-1].startswith("⟦✅ Saved")
    texts += saved

    # Global documents: edit and delete by an admin; refused for others.
    global_id = (await docs.list_documents(global_only=True))[0][0].id
    texts += await bot.send(f"/edit_global_doc {global_id}", user_id=OTHER)
    texts += await bot.send(f"/edit_global_doc {global_id}", user_id=ADMIN_ID)
    texts += await bot.press("de:stop", user_id=ADMIN_ID)
    texts += await bot.send(f"/delete_global_doc {global_id}", user_id=OTHER)
    texts += await bot.send(f"/delete_global_doc {global_id}", user_id=ADMIN_ID)
    texts += await bot.press(f"dx:{global_id}:y", user_id=ADMIN_ID)

    # Deleting: refused, kept, deleted, gone.
    texts += await bot.send(f"/delete_doc {pizza}", user_id=OTHER)
    texts += await bot.send(f"/delete_doc {pizza}")
    texts += await bot.press(f"dx:{pizza}:n")
    texts += await bot.press(f"dx:{pizza}:y", user_id=OTHER)
    deleted = await bot.press(f"dx:{pizza}:y")
    assert deleted[-1].startswith("⟦🗑 The document")
    texts += deleted
    texts += await bot.send(f"/view_doc {pizza}")

    allowed = [*MEMBER_CONTENT, "Quiet", "hello", "Rule number", "nope"]
    assert_translated(texts + bot._texts_since(start), allowed=allowed)
    assert_translated(_buttons_since(bot, start), allowed=allowed)
    assert "⟦◀ Previous⟧" in _buttons_since(bot, start)


async def test_facts_are_translated_around_the_facts_themselves(bot: BotHarness) -> None:
    start = _everyone_speaks_pseudo(bot)
    texts: list[str] = []
    admin = {"user_id": ADMIN_ID}
    stored = await bot.send("/add_fact Einstein | invented | relativity", **admin)
    assert stored[-1].startswith("⟦✅ Stored:")
    texts += stored
    texts += await bot.send("/add_fact einstein | invented | relativity | 0.9", **admin)
    texts += await bot.send("/add_fact Einstein | won | Nobel_Prize", **admin)
    for n in range(6):  # more than are shown: "... and N more"
        texts += await bot.send(f"/add_fact Einstein | won | Rule {n}", **admin)
    found = await bot.send("/facts Einstein", **admin)
    assert found[-1].startswith("⟦Found 8 facts:⟧") and "⟦... and 3 more⟧" in found[-1]
    texts += found
    first = bot.buttons()[0]["callback_data"]
    texts += await bot.send("/facts Einstein")
    texts += await bot.send("/facts Newton")
    texts += await bot.send("/facts")
    texts += await bot.press(first, **admin)
    texts += await bot.press(f"{first}:n", **admin)
    texts += await bot.press(f"{first}:y")
    texts += await bot.press(f"{first}:y", **admin)
    texts += await bot.press(f"{first}:y", **admin)  # already gone
    texts += await bot.send("/delete_fact einstein | won | Nobel_Prize", **admin)
    texts += await bot.send("/delete_fact Einstein | won | Nobel_Prize", **admin)
    # Errors: rights, syntax, confidence, lengths.
    texts += await bot.send("/add_fact Einstein | invented | relativity")
    texts += await bot.send("/delete_fact Einstein | invented | relativity")
    texts += await bot.send("/add_fact Einstein invented relativity", **admin)
    texts += await bot.send("/delete_fact Einstein", **admin)
    texts += await bot.send("/add_fact A | b | C | 2", **admin)
    texts += await bot.send(f"/add_fact {'x' * 301} | b | C", **admin)
    texts += await bot.send(f"/add_fact A | {'y' * 101} | C", **admin)
    texts += await bot.send(f"/add_fact A | b | {'z' * 301}", **admin)
    texts += await bot.send(f"/facts {'n' * 301}")

    allowed = [*MEMBER_CONTENT, "Newton"]
    assert_translated(texts + bot._texts_since(start), allowed=allowed)
    assert_translated(_buttons_since(bot, start), allowed=allowed)


async def test_ask_usage_errors_and_the_help_lines_are_translated(bot: BotHarness) -> None:
    start = _everyone_speaks_pseudo(bot)
    texts: list[str] = []
    [usage] = await bot.send("/ask")
    assert usage.startswith("⟦Ask me anything") and "500" in usage
    texts.append(usage)
    texts += await bot.send("/ask " + "why " * 130)  # too long
    texts += await bot.send("/ask what is open?", chat_type="supergroup")
    [help_text] = await bot.send("/help")
    for name, _ in (*DOCUMENT_HELP, *FACT_HELP):
        assert f"/{name} — ⟦" in help_text
    texts.append(help_text)
    assert_translated(texts + bot._texts_since(start))
    assert_translated(_buttons_since(bot, start))


async def test_english_is_unchanged_for_members_without_a_language(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    await bot.send(f"/add_doc {pid}")
    await bot.send("x" * 1234)
    assert bot.buttons()[0]["text"] == "✅ Done"
    replies = await bot.press("dt:done")
    assert replies[-1] == "What is the document's <b>title</b>? (up to 300 characters)"
    replies = await bot.send("Budget")
    assert replies[-1].startswith("✅ “Budget” is added to proposal #")
    assert "\nWhat next:\n/view_doc " in replies[-1]
    doc_id = doc_id_in(replies[-1])
    replies = await bot.send(f"/edit_doc {doc_id}")
    assert replies[-1] == (
        f"Editing “Budget” (proposal #{pid}, 1,234 characters). What would you like to change?"
    )
    [usage] = await bot.send("/ask")
    assert usage.endswith("Questions can be up to 500 characters.")
