"""/add_fact, /facts and /delete_fact through the Application; proposals as facts."""

from __future__ import annotations

from tests.conftest import ADMIN_ID, BotHarness
from tests.telegram.helpers import create_via_bot


async def test_admins_add_facts_and_everyone_reads_them(bot: BotHarness) -> None:
    replies = await bot.send("/add_fact Einstein | invented | relativity", user_id=ADMIN_ID)
    assert replies == ["✅ Stored: <b>Einstein</b> invented <b>relativity</b> (confidence 1)"]
    replies = await bot.send("/add_fact  einstein |INVENTED| Relativity | 0.9", user_id=ADMIN_ID)
    assert replies == [
        "✅ Already known; updated: <b>Einstein</b> invented <b>relativity</b> (confidence 0.9)"
    ]
    await bot.send("/add_fact Bell | invented | telephone & fax <1876>", user_id=ADMIN_ID)
    replies = await bot.send("/facts EINSTEIN")
    assert replies == ["Found 1 fact:\n1. Einstein invented relativity"]
    assert bot.buttons() == []  # members read; only admins get delete buttons
    replies = await bot.send("/facts telephone & fax <1876>")
    assert replies == ["Found 1 fact:\n1. Bell invented telephone &amp; fax &lt;1876&gt;"]
    await bot.send("/facts Einstein", user_id=ADMIN_ID)
    [button] = bot.buttons()
    assert button["text"] == "🗑 1" and button["callback_data"].startswith("fd:")


async def test_rules_and_help_for_bad_input(bot: BotHarness) -> None:
    replies = await bot.send("/add_fact Einstein | invented | relativity")
    assert replies == ["Only admins can add facts."]
    replies = await bot.send("/add_fact Einstein invented relativity", user_id=ADMIN_ID)
    assert replies[0].startswith("Please write the fact as: /add_fact Subject | predicate | Object")
    replies = await bot.send("/add_fact A | b | C | 2", user_id=ADMIN_ID)
    assert replies == ["Confidence must be a number between 0 and 1, like 0.9 (got '2')."]
    replies = await bot.send("/facts")
    assert replies == ["Which name? For example: /facts Einstein"]
    replies = await bot.send("/facts Newton")
    assert replies == [
        "No facts found matching your query about “Newton”.\nCheck the spelling of the name "
        "(capitals don't matter), or ask in plain words with /ask."
    ]
    replies = await bot.send("/delete_fact Einstein | invented | relativity")
    assert replies == ["Only admins can delete facts."]


async def test_delete_by_button_with_confirmation_and_by_triple(bot: BotHarness) -> None:
    await bot.send("/add_fact Einstein | invented | relativity", user_id=ADMIN_ID)
    await bot.send("/add_fact Einstein | won | Nobel_Prize", user_id=ADMIN_ID)
    await bot.send("/facts Einstein", user_id=ADMIN_ID)
    first = bot.buttons()[0]["callback_data"]
    replies = await bot.press(first, user_id=ADMIN_ID)
    assert replies[-1] == "Delete the fact <b>Einstein</b> invented <b>relativity</b>?"
    assert [b["callback_data"] for b in bot.buttons()] == [f"{first}:y", f"{first}:n"]
    assert await bot.press(f"{first}:y", user_id=1001) == ["Only admins can delete facts."]
    assert await bot.press(f"{first}:n", user_id=ADMIN_ID) == ["Kept. Nothing changed."]
    replies = await bot.press(f"{first}:y", user_id=ADMIN_ID)
    assert replies == ["Deleted.", "🗑 Deleted: <b>Einstein</b> invented <b>relativity</b>"]
    assert await bot.press(f"{first}:y", user_id=ADMIN_ID) == ["That fact is already gone."]
    replies = await bot.send("/delete_fact einstein | won | Nobel Prize", user_id=ADMIN_ID)
    assert replies == ["🗑 Deleted: <b>Einstein</b> won <b>Nobel_Prize</b>"]
    replies = await bot.send("/delete_fact Einstein | won | Nobel Prize", user_id=ADMIN_ID)
    assert replies[0].startswith("There is no fact “Einstein won Nobel Prize”.")
    assert await bot.send("/facts Einstein") == ["No facts found matching your query about "
        "“Einstein”.\nCheck the spelling of the name (capitals don't matter), or ask in plain "
        "words with /ask."]  # fmt: skip


async def test_proposals_become_facts_that_follow_the_close(bot: BotHarness) -> None:
    pid = await create_via_bot(bot)  # "Pizza party" by @alice
    replies = await bot.send("/facts pizza party")
    assert replies[0].startswith(
        "Found 9 facts:\n1. Pizza party is a proposal\n2. Pizza party has id #"
        f"{pid}\n3. Pizza party proposed by alice\n4. alice proposed Pizza party\n"
    )
    assert await bot.send("/facts open") == ["Found 1 fact:\n1. Pizza party has status open"]
    graph = bot.services.graph
    who = await graph.ask_question("who proposed the pizza party?")
    assert who.answer_text == "alice proposed Pizza party"

    await bot.press(f"v:{pid}:0", user_id=2001)
    await bot.send(f"/close_proposal {pid}", user_id=ADMIN_ID)
    await bot.press(f"cl:{pid}:y", user_id=ADMIN_ID)
    assert await bot.send("/facts closed") == ["Found 1 fact:\n1. Pizza party has status closed"]
    assert (await bot.send("/facts open"))[0].startswith("No facts found")
    outcome = await graph.find_facts({"subject": "Pizza party", "predicate": "has outcome"})
    assert [f["object"] for f in outcome.as_dict()["facts"]] == ["Yes"]


async def test_a_corrected_fact_is_asked_about_as_it_now_reads(bot: BotHarness) -> None:
    """An admin deletes a wrong fact and adds the right one: /ask reads the new fact, not
    the old one under its id. (On SQLite the new fact took the freed id back, and the
    facts' count and highest id, which told /ask's indexes that the graph changed, were
    the same as before: the old fact's vector and names stayed.)"""
    await bot.send("/add_fact Kofi | runs | Repair Café", user_id=ADMIN_ID)
    [before] = await bot.send("/ask who runs the repair café?")
    assert before.startswith("Kofi runs Repair Café")
    await bot.send("/delete_fact Kofi | runs | Repair Café", user_id=ADMIN_ID)
    await bot.send("/add_fact Amara | teaches | pottery classes", user_id=ADMIN_ID)
    [gone] = await bot.send("/ask who runs the repair café?")
    assert "Amara" not in gone and "Kofi" not in gone
    [now] = await bot.send("/ask who teaches pottery?")
    assert now.startswith("Amara teaches pottery classes")
