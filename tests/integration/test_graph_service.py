"""GraphService on SQLite and PostgreSQL: the specs' examples (Einstein, Edison, Tesla),
ranking before truncation, limits, stemming, multi-hop with the context store, bulk
loads, and proposal facts that follow the proposal through its close."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.core.closing.closing_service import ClosingService
from app.core.closing.themes import KeywordThemeSummarizer
from app.core.graph.graph_service import GraphService
from app.core.graph.proposal_facts import (
    ProposalFactsSync,
    proposal_source,
    sync_proposal_facts,
    sync_proposal_facts_by_ids,
)
from app.domain.errors import NotFoundError, PermissionDeniedError, ValidationError
from app.domain.interfaces import NullScheduler
from app.domain.models import User
from app.persistence.database import Database
from app.persistence.repositories.facts import NewFact
from app.persistence.repositories.proposals import ProposalRepository
from app.persistence.repositories.submissions import SubmissionRepository
from app.persistence.repositories.users import UserRepository
from tests.conftest import NOW

ADMIN = 1
SPEC_FACTS = [
    ("Einstein", "is", "scientist"), ("Einstein", "invented", "relativity"),
    ("Einstein", "born_in", "Germany"), ("Einstein", "won", "Nobel_Prize"),
    ("Einstein", "died_in", "1955"), ("Einstein", "discovered", "photoelectric_effect"),
    ("Edison", "invented", "light_bulb"), ("Tesla", "invented", "AC_motor"),
    ("Edison", "is", "inventor"), ("Tesla", "is", "inventor"),
    ("Bell", "invented", "telephone"), ("Ulm", "located_in", "Germany"),
]  # fmt: skip
MEDICINE = [
    ("Aspirin", "treats", "Heart Disease"), ("Aspirin", "treats", "Stroke"),
    ("Heart Disease", "has symptom", "Chest Pain"), ("Heart Disease", "has symptom", "Fatigue"),
    ("Stroke", "has symptom", "Paralysis"), ("Ibuprofen", "treats", "Arthritis"),
    ("Arthritis", "has symptom", "Joint Pain"), ("Bayer", "makes", "Aspirin"),
    ("Friedrich Bayer", "founded", "Bayer"), ("Friedrich Bayer", "born in", "Barmen"),
]  # fmt: skip


@pytest.fixture
async def graph(database: Database, clock: object) -> GraphService:
    service = GraphService(database, clock, admin_ids=frozenset({ADMIN}))  # type: ignore[arg-type]
    await service.store_facts(NewFact(*f) for f in SPEC_FACTS + MEDICINE)
    return service


def triples(result: object) -> list[tuple[str, str, str]]:
    facts = result.as_dict()["facts"]  # type: ignore[attr-defined]
    return [(f["subject"], f["predicate"], f["object"]) for f in facts]


async def test_find_facts_by_subject_matches_the_spec(graph: GraphService) -> None:
    result = await graph.find_facts({"subject": "Einstein"}, 5)
    assert result.as_dict() == {
        "facts": [
            {"subject": "Einstein", "predicate": "is", "object": "scientist", "confidence": 1.0},
            {"subject": "Einstein", "predicate": "invented", "object": "relativity",
             "confidence": 1.0},
            {"subject": "Einstein", "predicate": "born_in", "object": "Germany", "confidence": 1.0},
            {"subject": "Einstein", "predicate": "won", "object": "Nobel_Prize", "confidence": 1.0},
            {"subject": "Einstein", "predicate": "died_in", "object": "1955", "confidence": 1.0},
        ],
        "count": 5,
        "limit": 5,
        "query": {"subject": "Einstein", "predicate": None, "object": None},
    }  # fmt: skip
    assert result.message == (
        "Found 5 facts:\n1. Einstein is scientist\n2. Einstein invented relativity\n"
        "3. Einstein born_in Germany\n4. Einstein won Nobel_Prize\n5. Einstein died_in 1955"
    )
    assert result.suggestions == [
        "Use 'explore_connections' to find related entities",
        "Try 'ask_question' to understand these facts in context",
    ]
    by_predicate = await graph.find_facts({"predicate": "invented"}, 3)
    assert by_predicate.message == (
        "Found 3 facts:\n1. Einstein invented relativity\n2. Edison invented light_bulb\n"
        "3. Tesla invented AC_motor"
    )


async def test_find_facts_limits_and_case_insensitivity(graph: GraphService) -> None:
    everything = await graph.find_facts({"subject": "EINSTEIN"})
    assert everything.limit == 10 and everything.count == 6  # default limit, all found
    assert "... and 1 more" in everything.message
    assert (await graph.find_facts({"subject": "einstein"}, 2)).count == 2  # limit applied
    assert (await graph.find_facts({"subject": "einstein"}, 500)).limit == 100
    both = await graph.find_facts({"predicate": "is", "object": "INVENTOR"})
    assert triples(both) == [("Edison", "is", "inventor"), ("Tesla", "is", "inventor")]
    underscores = await graph.find_facts({"object": "nobel prize"})
    assert triples(underscores) == [("Einstein", "won", "Nobel_Prize")]
    none = await graph.find_facts({"subject": "Newton"})
    assert none.message == "No facts found matching your query"
    assert none.suggestions == [
        "Try using fewer constraints in your query",
        "Check spelling and capitalization of entity names",
        "Use 'ask_question' for natural language queries",
    ]
    for query, limit, message in [
        (None, None, "Missing required 'query' parameter"),
        ({}, None, "At least one of subject, predicate, or object must be specified in the query"),
        ({"subject": "  "}, None, "At least one of subject, predicate, or object must be"),
        ({"topic": "x"}, None, "Unknown query field 'topic'"),
        ({"subject": "x"}, 0, "'limit' must be at least 1"),
    ]:
        with pytest.raises(ValidationError, match=message):
            await graph.find_facts(query, limit)


async def test_one_row_per_triple_with_the_stored_confidence(graph: GraphService) -> None:
    first = await graph.add_fact(ADMIN, "Newton", "discovered", "gravity", "0.7")
    assert first.created and first.fact.confidence == 0.7
    again = await graph.add_fact(ADMIN, "  newton ", "DISCOVERED", "Gravity", 0.9)
    assert not again.created and again.fact.id == first.fact.id
    found = await graph.find_facts({"subject": "Newton"})
    assert found.as_dict()["facts"] == [
        {"subject": "Newton", "predicate": "discovered", "object": "gravity", "confidence": 0.9}
    ]
    with pytest.raises(PermissionDeniedError, match="Only admins can add facts"):
        await graph.add_fact(2, "Newton", "is", "physicist")
    with pytest.raises(PermissionDeniedError, match="Only admins can delete facts"):
        await graph.delete_fact(2, "Newton", "discovered", "gravity")
    deleted = await graph.delete_fact(ADMIN, "NEWTON", "discovered", "gravity")
    assert deleted.id == first.fact.id
    with pytest.raises(NotFoundError):
        await graph.delete_fact(ADMIN, "Newton", "discovered", "gravity")


async def test_ask_question_spec_example(graph: GraphService) -> None:
    result = await graph.ask_question("What did Einstein invent or discover?")
    data = result.as_dict()
    assert data["question"] == "What did Einstein invent or discover?"
    assert data["context"] is None
    assert data["key_terms"] == ["Einstein", "invent", "discover"]
    assert data["relevant_facts"][:2] == [
        {"subject": "Einstein", "predicate": "invented", "object": "relativity", "relevance": 0.6},
        {"subject": "Einstein", "predicate": "discovered", "object": "photoelectric_effect",
         "relevance": 0.6},
    ]  # fmt: skip
    assert len(data["relevant_facts"]) == 5  # max_results defaults to 5
    assert data["answer"] == (
        "Based on the knowledge graph:\n\n"
        "Einstein invented relativity; Einstein discovered photoelectric effect"
    )
    assert result.message.endswith("\n\nFound 5 relevant facts")
    assert result.suggestions == [
        "Try rephrasing your question for different results",
        "Use 'find_facts' for more specific searches",
        "Add context to disambiguate entities",
    ]


async def test_ranking_happens_before_truncation(graph: GraphService) -> None:
    # Alphabetically first and found by the predicate: the original sorted by subject and cut.
    await graph.store_facts(NewFact(f"Aaron {i}", "invented", f"gadget {i}") for i in range(30))
    result = await graph.ask_question("Who invented the telephone?", max_results=3)
    assert [f.fact.subject for f in result.relevant_facts] == ["Bell", "Einstein", "Edison"]
    assert result.relevant_facts[0].relevance == 0.6
    assert result.answer == "Based on the knowledge graph:\n\nBell invented telephone"
    ids = [
        f.fact.id for f in (await graph.ask_question("Edison Edison invented", 20)).relevant_facts
    ]
    assert len(ids) == len(set(ids))  # found as subject and via predicate: listed once
    assert (
        len((await graph.ask_question("Who invented things?", max_results=99)).relevant_facts) == 20
    )


async def test_context_breaks_ties(graph: GraphService) -> None:
    question = "Who is an inventor?"
    plain = await graph.ask_question(question)
    assert [f.fact.subject for f in plain.relevant_facts[:2]] == ["Edison", "Tesla"]
    hinted = await graph.ask_question(question, context="AC motor and Tesla")
    assert [f.fact.subject for f in hinted.relevant_facts[:2]] == ["Tesla", "Edison"]
    assert hinted.as_dict()["context"] == "AC motor and Tesla"


async def test_templates_stemming_and_lowercase_names(graph: GraphService) -> None:
    async def answer(question: str) -> str:
        return (await graph.ask_question(question)).answer_text

    assert await answer("What is Einstein?") == "Einstein is scientist"
    assert await answer("where was einstein born?") == "Einstein was born in Germany"
    assert await answer("Where is Ulm?") == "Ulm is located in Germany"
    assert await answer("When did Einstein die?") == "Einstein died in 1955"
    assert await answer("How many inventors are there?") == "2: Edison and Tesla is inventor"
    assert await answer("who won the nobel prize?") == "Einstein won Nobel Prize"
    await graph.store_fact("Edison", "inventor of", "phonograph")
    assert await answer("Which inventions did Edison make?") == "Edison invented light bulb"
    stemmed = await graph.ask_question("what is edison the inventor of?")
    assert "inventor" in stemmed.key_terms
    assert ("Edison", "inventor of", "phonograph") in [
        (f.fact.subject, f.fact.predicate, f.fact.object) for f in stemmed.relevant_facts
    ]


async def test_ask_question_errors_and_no_results(graph: GraphService) -> None:
    for question, message in [
        ("", "Question cannot be empty"),
        ("   ", "Question cannot be empty"),
        ("x" * 501, "at most 500 characters"),
        ("what is the?", "Could not extract meaningful terms from the question"),
    ]:
        with pytest.raises(ValidationError, match=message):
            await graph.ask_question(question)
    with pytest.raises(ValidationError, match="'max_results' must be at least 1"):
        await graph.ask_question("Einstein?", max_results=0)
    nothing = await graph.ask_question("What about Newton?")
    assert nothing.as_dict()["relevant_facts"] == []
    assert nothing.answer == nothing.message == "No relevant information found for your question"


async def test_two_and_three_hop_questions_keep_a_context_store(graph: GraphService) -> None:
    two = await graph.ask_question("What symptoms do diseases treated by Aspirin have?")
    assert two.chain is not None and two.chain.complete
    assert two.chain.as_dict() == {
        "step1_treated": ["Heart Disease", "Stroke"],
        "step2_symptoms": ["Chest Pain", "Fatigue", "Paralysis"],
        "final_result": ["Chest Pain", "Fatigue", "Paralysis"],
        "final_result_omitted": 0,
    }
    assert two.answer_text == (
        "Aspirin treats Heart Disease and Stroke. Heart Disease has symptom Chest Pain and "
        "Fatigue; Stroke has symptom Paralysis. So the answer is: Chest Pain, Fatigue and "
        "Paralysis."
    )
    assert [f.fact.object for f in two.relevant_facts] == [
        "Heart Disease", "Stroke", "Chest Pain", "Fatigue", "Paralysis",
    ]  # fmt: skip
    three = await graph.answer_chain("Where were the founders of the makers of Aspirin born?")
    assert three is not None
    assert three.as_dict() == {
        "step1_makers": ["Bayer"],
        "step2_founders": ["Friedrich Bayer"],
        "step3_born": ["Barmen"],
        "final_result": ["Barmen"],
        "final_result_omitted": 0,
    }
    assert three.explain() == (
        "Bayer makes Aspirin. Friedrich Bayer founded Bayer. Friedrich Bayer born in Barmen. "
        "So the answer is: Barmen."
    )
    assert await graph.answer_chain("What does Aspirin treat?") is None  # not a chain


async def test_chain_final_result_is_cut_at_15(graph: GraphService) -> None:
    await graph.store_facts(NewFact("Placebo", "treats", f"Disease {d}") for d in range(4))
    await graph.store_facts(
        NewFact(f"Disease {d}", "has symptom", f"Symptom {d}.{s}")
        for d in range(4)
        for s in range(5)
    )
    store = await graph.follow_path("placebo", ["treats", "symptom"])
    assert store.complete and len(store.steps[1].results) == 20
    assert len(store.final_result) == 15 and store.omitted == 5
    assert store.explain().endswith("and 5 more.")
    stuck = await graph.follow_path("Placebo", ["treats", "makes"])
    assert not stuck.complete and stuck.final_result == []
    assert stuck.explain().startswith("Based on the data, I followed the steps")


async def test_explore_connections(graph: GraphService) -> None:
    one = await graph.explore_connections("aspirin", max_depth=1)
    assert [(c.fact.subject, c.fact.object, c.depth) for c in one.connections] == [
        ("Aspirin", "Heart Disease", 1), ("Aspirin", "Stroke", 1), ("Bayer", "Aspirin", 1),
    ]  # fmt: skip
    deep = await graph.explore_connections("Aspirin", max_depth=9)
    assert deep.max_depth == 4
    barmen = next(c for c in deep.connections if c.fact.object == "Barmen")
    assert barmen.depth == 3
    assert [f.object for f in barmen.path] == ["Aspirin", "Bayer", "Barmen"]
    assert deep.as_dict()["count"] == len(deep.connections)


async def test_import_tsv_batches_upserts_and_reports_bad_lines(graph: GraphService) -> None:
    lines = [f"Thing {i}\tis\tgadget\t0.5\n" for i in range(25)]
    lines += ["# a comment\n", "\n", "Thing 3\tis\tgadget\t0.8\n", "broken line\n",
              "x\ty\tz\t7\n", "Thing_25\tIS\tGadget\n"]  # fmt: skip
    seen = []
    report = await graph.import_tsv(
        lines, batch_size=10, progress=lambda r: seen.append(r.committed)
    )
    assert report.lines == 31 and report.skipped == 2
    assert report.errors == [
        "line 29: expected 3 or 4 tab-separated fields (subject, predicate, object[, confidence]), "
        "got 1",
        "line 30: Confidence must be a number between 0 and 1, like 0.9 (got '7').",
    ]
    assert seen == [10, 20, 30, 31]
    found = await graph.find_facts({"object": "gadget"}, 100)
    assert found.count == 26
    assert found.as_dict()["facts"][3]["confidence"] == 0.8  # a later line wins
    assert triples(found)[-1] == ("Thing_25", "IS", "Gadget")


async def test_delete_by_source_leaves_other_facts(graph: GraphService) -> None:
    await graph.replace_sources({"document:abc": [("Policy", "allows", "dogs")]})
    await graph.store_fact("Policy", "allows", "cats")
    assert await graph.delete_by_source("document:abc") == 1
    assert triples(await graph.find_facts({"subject": "policy"})) == [("Policy", "allows", "cats")]
    with pytest.raises(ValueError, match="manual"):
        await graph.delete_by_source("manual")


async def test_a_manual_fact_survives_a_source_deriving_the_same_triple(
    graph: GraphService,
) -> None:
    await graph.store_fact("Policy", "allows", "dogs", 0.7)
    await graph.replace_sources({"document:abc": [("policy", "ALLOWS", "Dogs")]})
    await graph.replace_sources({"document:abc": []})  # the document changed
    found = (await graph.find_facts({"subject": "policy"})).as_dict()["facts"]
    assert [(f["object"], f["confidence"]) for f in found] == [("dogs", 0.7)]


async def _proposal(db: Database, title: str, username: str, user_id: int) -> int:
    async with db.transaction() as session:
        await UserRepository(session).upsert(User(user_id, username), NOW)
        proposal = await ProposalRepository(session).add(
            language="en", proposer_id=user_id, title=title, description="", proposal_type="multiple_choice",
            options=["Yes", "No"], created_at=NOW, deadline_at=NOW + timedelta(days=3),
            status="open",
        )  # fmt: skip
    return proposal.id


async def test_proposal_facts_follow_the_close(
    database: Database, graph: GraphService, clock: object
) -> None:
    pizza = await _proposal(database, "Pizza party", "alice", 1001)
    rooms = await _proposal(database, "Room plants", "alice", 1001)
    picnic = await _proposal(database, "Picnic", "bob", 1002)
    await sync_proposal_facts_by_ids(graph, [pizza, rooms, picnic])
    who = await graph.ask_question("who proposed the pizza party?")
    assert who.answer_text == "alice proposed Pizza party"
    which = await graph.ask_question("which proposals did alice make?")
    assert which.answer_text == "alice proposed Pizza party and Room plants"

    async with database.transaction() as session:
        for voter in (2001, 2002):
            await UserRepository(session).ensure_exists(voter, NOW)
            await SubmissionRepository(session).upsert(pizza, voter, "Yes", NOW)
    closing = ClosingService(
        database, clock, NullScheduler(), KeywordThemeSummarizer(),  # type: ignore[arg-type]
        ProposalFactsSync(graph), admin_ids=frozenset({ADMIN}),
    )  # fmt: skip
    await closing.close_early(ADMIN, pizza)  # the indexer hook refreshes the facts
    facts = triples(await graph.find_facts({"subject": "pizza party"}, 100))
    assert ("Pizza party", "has status", "closed") in facts
    assert ("Pizza party", "has status", "open") not in facts
    assert ("Pizza party", "has outcome", "Yes") in facts
    chained = await graph.ask_question("who proposed the proposals that closed with outcome Yes?")
    assert chained.chain is not None and chained.chain.final_result == ["alice"]
    assert chained.answer_text == (
        "Pizza party has outcome Yes. Pizza party proposed by alice. So the answer is: alice."
    )

    async with database.transaction() as session:
        renamed = await ProposalRepository(session).update_fields(
            picnic, language="en", title="Beach picnic"
        )
    await sync_proposal_facts(graph, renamed)
    assert (await graph.find_facts({"subject": "Picnic"})).count == 0
    async with database.transaction() as session:
        from app.persistence.repositories.facts import FactRepository

        assert await FactRepository(session).count(proposal_source(picnic)) == 9


async def test_each_entitys_neighbours_come_in_one_query(
    graph: GraphService, database: Database
) -> None:
    from app.persistence.repositories.facts import FactRepository

    async with database.transaction() as session:
        repo = FactRepository(session)
        einstein = (await repo.neighbours_each(["einstein"], 100))[0]
        norms = [einstein.subject_norm, "aspirin", "germany", "heart disease", "nobody"]
        for limit in (1, 3, 100):
            together = await repo.neighbours_each(norms, limit)
            apart = {f.id for n in norms for f in await repo.neighbours([n], limit)}
            # the same facts as asking for each entity in turn, none twice
            assert sorted(f.id for f in together) == sorted(apart)
        # a busy entity (Einstein has six facts) does not crowd out the others: its
        # first two, and "born in Germany" as one of Germany's
        few = await repo.neighbours_each(norms, 2)
        mine = [f for f in few if f.subject_norm == einstein.subject_norm]
        assert [f.object_norm for f in mine] == ["scientist", "relativity", "germany"]
        assert any("aspirin" in (f.subject_norm, f.object_norm) for f in few)
        assert await repo.neighbours_each([], 5) == []
