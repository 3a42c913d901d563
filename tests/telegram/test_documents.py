"""Documents through the real Application: add (text, .md, .pdf), view, edit, delete."""

from __future__ import annotations

import html
import io
import re

import pytest
from pypdf import PdfWriter

from app.domain.errors import NotFoundError
from app.telegram_handlers.documents_view import paginate
from tests.conftest import ADMIN_ID, BotHarness
from tests.telegram.helpers import create_via_bot

PROPOSER = 1001
OTHER = 2002
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

PIZZA_TEXT = (
    "Pizza budget\n"
    "The office pays for up to twelve pizzas per party. Vegetarian and vegan options "
    "are always included, and the order goes to the bakery on the corner."
)


async def upload(
    bot: BotHarness,
    name: str,
    data: bytes,
    mime: str = "text/plain",
    user_id: int = PROPOSER,
    size: int | None = None,
) -> list[str]:
    """Send ``data`` as a file the way Telegram does; returns the bot's texts."""
    file_id = f"file-{name}"
    bot.request.add_download(file_id, data)
    before = len(bot.request.calls)
    update = bot.updates.document(
        name, mime, user_id=user_id, file_id=file_id, file_size=len(data) if size is None else size
    )
    await bot.app.process_update(update)
    return bot._texts_since(before)


def pdf_with_text(text: str) -> bytes:
    """A one-page PDF written by hand: Helvetica, one text object."""
    stream = f"BT /F1 18 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def blank_pdf() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def doc_id_in(text: str) -> str:
    match = UUID.search(text)
    assert match, text
    return match.group(0)


async def add_pasted(
    bot: BotHarness, pid: int, text: str = PIZZA_TEXT, title: str = "Pizza budget"
) -> str:
    await bot.send(f"/add_doc {pid}")
    await bot.send(text)
    await bot.press("dt:done")
    replies = await bot.send(title)
    return doc_id_in(replies[-1])


async def doc_ids_found(bot: BotHarness, query: str, **filters: object) -> set[str]:
    found = await bot.services.documents.knowledge_query(query, top_k=20, **filters)
    return {r["document"]["id"] for r in found["results"]}


async def test_proposer_adds_pasted_text_in_parts(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    replies = await bot.send(f"/add_doc {pid}")
    assert f"proposal #{pid}" in replies[-1] and "tap Done" in replies[-1]
    replies = await bot.send(PIZZA_TEXT)
    assert f"{len(PIZZA_TEXT):,} characters so far" in replies[-1]
    await bot.send("Drinks are paid separately.")  # Telegram cut a long paste in two
    assert [b["callback_data"] for b in bot.buttons()] == ["dt:done"]
    replies = await bot.press("dt:done")
    assert "title" in replies[-1]
    assert [(b["text"], b["callback_data"]) for b in bot.buttons()] == [
        ("Use 'Pizza budget'", "dt:use")
    ]
    replies = await bot.send("Pizza rules")
    assert f"added to proposal #{pid}" in replies[-1] and "in 1 chunk." in replies[-1]
    doc_id = doc_id_in(replies[-1])
    assert f"/view_doc {doc_id}" in replies[-1] and f"/delete_doc {doc_id}" in replies[-1]

    doc = await bot.services.documents.get_document(doc_id)
    assert doc.title == "Pizza rules" and doc.proposal_id == pid and doc.owner_id == PROPOSER
    assert doc.content == PIZZA_TEXT + "\nDrinks are paid separately."
    assert doc_id in await doc_ids_found(bot, "how many pizzas does the office pay for")


async def test_only_the_proposer_or_admins_may_add(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    replies = await bot.send(f"/add_doc {pid}", user_id=OTHER)
    assert "Only the proposer" in replies[-1]
    replies = await bot.send("my text", user_id=OTHER)  # not in a conversation
    assert "I read commands" in replies[-1]
    replies = await bot.send("/add_global_doc", user_id=OTHER)
    assert "Only admins" in replies[-1]
    replies = await bot.send("/add_doc")
    assert "Please tell me which proposal" in replies[-1]
    replies = await bot.send("/add_doc 999")
    assert "999" in replies[-1] and "not" in replies[-1]
    replies = await bot.send(f"/add_doc {pid}", user_id=ADMIN_ID)
    assert "Send the text" in replies[-1]
    assert (await bot.services.documents.list_documents())[1] == 0


async def test_admin_adds_global_markdown_file(bot: BotHarness) -> None:
    replies = await bot.send("/add_global_doc", user_id=ADMIN_ID)
    assert "all proposals" in replies[-1]
    text = "# Expenses\n\nReceipts for travel must be filed within **30 days** of the trip.\n"
    replies = await upload(bot, "expense-policy.md", text.encode(), "text/markdown", ADMIN_ID)
    assert "title" in replies[-1]
    assert [(b["text"], b["callback_data"]) for b in bot.buttons()] == [
        ("Use 'expense-policy'", "dt:use")
    ]
    replies = await bot.press("dt:use", user_id=ADMIN_ID)
    assert "added to the global documents" in replies[-1]
    doc = await bot.services.documents.get_document(doc_id_in(replies[-1]))
    assert doc.title == "expense-policy" and doc.proposal_id is None
    assert doc.source == "expense-policy.md" and doc.category == "global"
    assert doc.content == text
    assert doc.id in await doc_ids_found(bot, "deadline for filing travel receipts")


async def test_pdf_text_is_extracted_and_an_empty_pdf_refused(bot: BotHarness) -> None:
    await bot.send("/add_global_doc", user_id=ADMIN_ID)
    replies = await upload(bot, "scan.pdf", blank_pdf(), "application/pdf", ADMIN_ID)
    assert "found no text" in replies[-1]
    pdf = pdf_with_text("Remote work is allowed on Fridays")
    replies = await upload(bot, "handbook.pdf", pdf, "application/pdf", ADMIN_ID)
    assert "title" in replies[-1]
    replies = await bot.send("Handbook", user_id=ADMIN_ID)
    doc = await bot.services.documents.get_document(doc_id_in(replies[-1]))
    assert "Remote work is allowed on Fridays" in doc.content and doc.source == "handbook.pdf"


async def test_wrong_type_size_and_encoding_are_refused(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    await bot.send(f"/add_doc {pid}")
    replies = await upload(bot, "setup.exe", b"MZ\x90\x00", "application/octet-stream")
    assert "can't read .exe files" in replies[-1] and ".txt, .md or .pdf" in replies[-1]
    replies = await upload(bot, "huge.txt", b"x", size=6 * 1024 * 1024)
    assert "6.0 MB" in replies[-1] and "up to 5 MB" in replies[-1]
    assert bot.request.calls_to("getFile") == []  # refused before downloading
    replies = await upload(bot, "old.txt", "Café au lait".encode("cp1252"))
    assert "not UTF-8" in replies[-1]
    replies = await bot.send("/cancel")
    assert "Cancelled" in replies[-1]
    assert (await bot.services.documents.list_documents())[1] == 0
    replies = await bot.press("dt:done")  # an old button after the conversation ended
    assert "That step is over" in replies[-1]


async def test_view_docs_lists_with_buttons_and_opens(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    doc_id = await add_pasted(bot, pid)
    replies = await bot.send(f"/view_docs {pid}", user_id=OTHER)
    assert f"Documents of proposal #{pid}" in replies[-1] and "Pizza budget" in replies[-1]
    assert [(b["text"], b["callback_data"]) for b in bot.buttons()] == [
        ("📄 Pizza budget", f"vd:{doc_id}")
    ]
    replies = await bot.press(f"vd:{doc_id}", user_id=OTHER)
    assert "📄 <b>Pizza budget</b>" in replies[-1] and f"proposal #{pid}" in replies[-1]
    assert "twelve pizzas per party" in replies[-1]

    replies = await bot.send("/view_docs")
    assert "no global documents" in replies[-1]
    for n in range(11):
        await bot.services.documents.add_document(ADMIN_ID, None, f"Rule {n}", f"Rule number {n}.")
    replies = await bot.send("/view_global_docs")
    assert "Global documents" in replies[-1] and "(1–10 of 11)" in replies[-1]
    assert bot.buttons()[-1]["callback_data"] == "dl:g:1"
    replies = await bot.press("dl:g:1")
    assert "(11–11 of 11)" in replies[-1]
    assert bot.buttons("editMessageText")[-1]["callback_data"] == "dl:g:0"


async def test_long_document_arrives_in_three_messages(bot: BotHarness) -> None:
    lines = [
        f"Line {n:04d}: bikes & <racks> go by the north door, says the plan." for n in range(80)
    ]
    content = "\n".join(lines)
    content += "\n" + "x" * (9000 - len(content) - 1)  # one line longer than a message
    assert len(content) == 9000
    result = await bot.services.documents.add_document(ADMIN_ID, None, "Long plan", content)
    replies = await bot.send(f"/view_doc {result.document_id}")
    assert len(replies) == 3
    assert all(len(r) <= 4096 for r in replies)
    assert "Long plan" in replies[0] and "9,000 characters" in replies[0]
    body = html.unescape("\n".join(replies).split("\n\n", 1)[1])
    assert body.replace("\n", "") == content.replace("\n", "")


async def test_my_docs(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    await add_pasted(bot, pid)
    await bot.services.documents.add_document(ADMIN_ID, None, "Admin rules", "Be kind.")
    replies = await bot.send("/my_docs")
    assert "Documents you added" in replies[-1] and "(1–1 of 1)" in replies[-1]
    assert "Pizza budget" in replies[-1] and f"proposal #{pid}" in replies[-1]
    assert "Admin rules" not in replies[-1]
    replies = await bot.send("/my_docs", user_id=OTHER)
    assert "haven't added any documents" in replies[-1]


async def test_edit_title_and_content(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    doc_id = await add_pasted(bot, pid)
    replies = await bot.send(f"/edit_doc {doc_id}", user_id=OTHER)
    assert "Only the proposer (or an admin)" in replies[-1]

    replies = await bot.send(f"/edit_doc {doc_id}")
    assert "What would you like to change?" in replies[-1]
    assert [b["callback_data"] for b in bot.buttons()] == ["de:title", "de:content", "de:stop"]
    await bot.press("de:title")
    replies = await bot.send("Party food")
    assert "“Pizza budget” to “Party food”" in replies[-1]
    replies = await bot.press("dc:n")
    assert "Discarded" in replies[-1]
    await bot.send(f"/edit_doc {doc_id}")
    await bot.press("de:title")
    await bot.send("Party food")
    replies = await bot.press("dc:y")
    assert "Saved “Party food”" in replies[-1]

    await bot.send(f"/edit_doc {doc_id}")
    replies = await bot.press("de:content")
    assert "replaces the whole document" in replies[-1]
    new_text = "Bicycle parking: the racks by the north door are for staff bicycles only."
    replies = await upload(bot, "bikes.txt", new_text.encode())
    assert "Replace the text of “Party food”" in replies[-1]
    replies = await bot.press("dc:y")
    assert "Saved" in replies[-1]

    doc = await bot.services.documents.get_document(doc_id)
    assert doc.title == "Party food" and doc.content == new_text
    found = await bot.services.documents.knowledge_query("where can I park my bike", top_k=5)
    assert found["results"][0]["document"]["id"] == doc_id
    assert found["results"][0]["document"]["title"] == "Party food"
    assert all("pizza" not in r["content"] for r in found["results"])


async def test_delete_with_confirmation(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    doc_id = await add_pasted(bot, pid)
    assert doc_id in await doc_ids_found(bot, "pizza budget")
    replies = await bot.send(f"/delete_doc {doc_id}", user_id=OTHER)
    assert "Only the proposer (or an admin)" in replies[-1]
    replies = await bot.send(f"/delete_doc {doc_id}")
    assert "can't be undone" in replies[-1]
    assert [b["callback_data"] for b in bot.buttons()] == [f"dx:{doc_id}:y", f"dx:{doc_id}:n"]
    replies = await bot.press(f"dx:{doc_id}:n")
    assert "Kept" in replies[-1]
    replies = await bot.press(f"dx:{doc_id}:y", user_id=OTHER)  # the service checks too
    assert "Only the proposer" in replies[-1]
    replies = await bot.press(f"dx:{doc_id}:y")
    assert "is deleted" in replies[-1]

    with pytest.raises(NotFoundError):
        await bot.services.documents.get_document(doc_id)
    assert doc_id not in await doc_ids_found(bot, "pizza budget")
    replies = await bot.send(f"/view_doc {doc_id}")
    assert "does not exist" in replies[-1]


async def test_same_content_reports_the_existing_document(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)
    first = await add_pasted(bot, pid, title="First")
    await bot.send(f"/add_doc {pid}")
    await bot.send(PIZZA_TEXT)
    await bot.press("dt:done")
    replies = await bot.send("Second")
    assert "already in proposal" in replies[-1] and "“First”" in replies[-1]
    assert doc_id_in(replies[-1]) == first
    assert (await bot.services.documents.list_documents(proposal_id=pid))[1] == 1


async def test_missing_and_bad_ids_say_where_to_find_them(bot: BotHarness) -> None:
    replies = await bot.send("/view_doc")
    assert "Please tell me which document" in replies[-1] and "/my_docs" in replies[-1]
    replies = await bot.send("/delete_doc 12")
    assert "'12' is not a document id" in replies[-1] and "/view_docs" in replies[-1]
    replies = await bot.send("/edit_doc nope")
    assert "is not a document id" in replies[-1]
    replies = await bot.send("/view_doc 3f2b8c1e-0d4a-4c55-9a57-1c0e6a9d2b7f")
    assert "does not exist" in replies[-1]
    replies = await bot.send("/view_docs abc")
    assert "not a proposal id" in replies[-1]
    replies = await bot.send("/view_docs 77")
    assert "77" in replies[-1]
    replies = await bot.send("/edit_global_doc 3f2b8c1e-0d4a-4c55-9a57-1c0e6a9d2b7f", ADMIN_ID)
    assert "does not exist" in replies[-1]


def test_pages_never_cut_an_entity_or_pass_the_limit() -> None:
    content = ("Tom & Jerry <3 😀 " * 40 + "\n") * 5 + "&" * 300
    pages = paginate("<b>T</b>", content, limit=97)
    assert all(len(p.encode("utf-16-le")) // 2 <= 97 and p.strip() for p in pages)
    assert all(not re.search(r"&(?!amp;|lt;|gt;)", p) for p in pages)
    text = html.unescape("".join(pages)).removeprefix("<b>T</b>")
    assert "".join(text.split()) == "".join(content.split())
