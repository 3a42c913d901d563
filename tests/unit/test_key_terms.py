"""Pure pieces of the fact graph: normal forms, word forms, key terms, relevance,
answer templates, proposal facts and the context store. No database."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.core.graph.graph_answers import (
    PredicateIndex,
    analyze,
    generate_answer,
    predicate_matches,
    relevance,
)
from app.core.graph.graph_import import clean_fact, parse_tsv_line
from app.core.graph.graph_results import AskResult, FindFactsResult, ScoredFact
from app.core.graph.multihop import ContextStore, Hop, HopStep, plan
from app.core.graph.proposal_facts import proposal_facts, proposer_name
from app.domain.errors import ValidationError
from app.domain.models import Proposal, ProposalStatus, ProposalType, User
from app.nlp.key_terms import (
    candidate_ngrams,
    normalize,
    quoted_phrases,
    same_word,
    spec_terms,
    tokenize,
    word_forms,
)
from app.persistence.repositories.facts import Fact

_ids = iter(range(1, 10_000))


def fact(subject: str, predicate: str, obj: str, confidence: float = 1.0) -> Fact:
    return Fact(
        next(_ids), subject, predicate, obj, confidence, "manual",
        normalize(subject), normalize(predicate), normalize(obj),
    )  # fmt: skip


def analysis_for(question: str, facts: list[Fact]):  # type: ignore[no-untyped-def]
    """What GraphService does, with the graph given as a list."""
    names = {f.subject_norm for f in facts} | {f.object_norm for f in facts}
    ngrams = candidate_ngrams(question)
    existing = {n for g in ngrams for n in g.norms if n in names}
    return analyze(question, ngrams, existing, PredicateIndex({f.predicate_norm for f in facts}))


EINSTEIN = [
    fact("Einstein", "is", "scientist"),
    fact("Einstein", "invented", "relativity"),
    fact("Einstein", "born_in", "Germany"),
    fact("Einstein", "discovered", "photoelectric_effect"),
    fact("Edison", "invented", "light_bulb"),
    fact("Tesla", "invented", "AC_motor"),
    fact("Ulm", "located_in", "Germany"),
]


def test_normalize_drops_accents_as_members_type_without_them() -> None:
    assert normalize("Repair Café") == normalize("repair cafe") == "repair cafe"
    assert normalize("Zoë  Müller") == "zoe muller"
    assert normalize("Сергей") == normalize("Сергеи")  # й and и meet, as ё and е do


def test_normalize_is_case_space_and_underscore_insensitive() -> None:
    assert normalize("  Nobel_Prize ") == normalize("nobel   PRIZE") == "nobel prize"
    assert normalize("STRASSE") == normalize("straße")  # casefold, not lower


@pytest.mark.parametrize(
    ("a", "b"),
    [("invent", "invented"), ("invent", "inventor"), ("invent", "invention"),
     ("discover", "discovered"), ("proposals", "proposed"), ("die", "died"),
     ("treated", "treats"), ("parties", "party"), ("wrote", "write"), ("win", "winning")],
)  # fmt: skip
def test_simple_stemming_joins_word_families(a: str, b: str) -> None:
    assert same_word(a, b)


def test_stemming_does_not_overreach() -> None:
    assert not same_word("party", "part")
    assert not same_word("deadline", "dead")
    assert "inv" not in word_forms("invent")  # stems keep at least three letters


def test_tokens_drop_possessives_and_keep_offsets() -> None:
    tokens = tokenize("Who is Einstein's wife?")
    assert [t.text for t in tokens] == ["Who", "is", "Einstein", "wife"]
    assert tokens[2].begin == 7 and tokens[2].end == 15


def test_quotes_are_not_apostrophes() -> None:
    assert quoted_phrases("Is \"light bulb\" or 'AC motor' in Einstein's notes?") == [
        "light bulb", "AC motor",
    ]  # fmt: skip
    assert quoted_phrases("Einstein's and Tesla's work") == []


def test_spec_terms_capitals_quotes_and_word_after_question_word() -> None:
    assert spec_terms("What did Einstein invent or discover?") == ["Einstein"]
    assert spec_terms("Where is the Eiffel Tower?") == ["Eiffel", "Tower"]
    assert spec_terms("which telephone came first?") == ["telephone"]
    assert spec_terms("Tell me about 'light bulb'") == ["light bulb"]


def test_ngrams_keep_punctuated_names_and_skip_stop_word_edges() -> None:
    norms = [n for g in candidate_ngrams("Who derived E=mc² in the lab?") for n in g.norms]
    assert "e=mc²" in norms and "e mc²" in norms
    assert not any(n.startswith(("who", "in ", "the ")) for n in norms)


def test_key_terms_match_the_spec_example() -> None:
    analysis = analysis_for("What did Einstein invent or discover?", EINSTEIN)
    assert list(analysis.key_terms) == ["Einstein", "invent", "discover"]
    assert len(analysis.groups) == 1  # "invent or discover": alternatives, one relation
    assert analysis.predicates == {"invented", "discovered"}


def test_lowercase_names_known_to_the_graph_are_terms() -> None:
    analysis = analysis_for("where is ulm?", EINSTEIN)
    assert list(analysis.key_terms) == ["ulm"]
    assert [e.norm for e in analysis.entities] == ["ulm"]


def test_relevance_weights_whole_words_and_stems() -> None:
    a = analysis_for("What did Einstein invent?", EINSTEIN)
    scores = {(f.subject, f.object): relevance(f, a.words, a.forms) for f in EINSTEIN}
    assert scores["Einstein", "relativity"] == 0.6  # subject 0.4 + predicate (stemmed) 0.2
    assert scores["Einstein", "scientist"] == 0.4
    assert scores["Edison", "light_bulb"] == 0.2
    assert scores["Ulm", "Germany"] == 0.0
    whole = analysis_for("Einstein invented relativity", EINSTEIN)
    assert relevance(EINSTEIN[1], whole.words, whole.forms) == 1.0
    tiny = fact("a", "is", "b")
    assert relevance(tiny, analysis_for("a banana?", []).words, frozenset()) == 0.4


def test_predicate_matching() -> None:
    forms = analysis_for("which proposals did alice make?", []).forms
    assert predicate_matches("proposed by", (), forms)
    assert not predicate_matches("is", (), forms)  # no content words: only literally
    assert predicate_matches("is", ("what", "is", "x"), frozenset())


def _answer(question: str, facts: list[Fact]) -> str:
    a = analysis_for(question, facts)
    ranked = sorted(facts, key=lambda f: -relevance(f, a.words, a.forms))
    ranked = [f for f in ranked if relevance(f, a.words, a.forms) > 0]
    return generate_answer(ranked[:5], ranked, a)


def test_answer_templates() -> None:
    facts = [*EINSTEIN, fact("Bell", "invented", "telephone"), fact("Einstein", "died_in", "1955"),
             fact("Edison", "invented", "phonograph")]  # fmt: skip
    assert _answer("What is Einstein?", facts) == "Einstein is scientist"
    assert _answer("Who invented the telephone?", facts) == "Bell invented telephone"
    assert _answer("Where is Ulm?", facts) == "Ulm is located in Germany"
    assert _answer("Where was Einstein born?", facts) == "Einstein was born in Germany"
    assert _answer("When did Einstein die?", facts) == "Einstein died in 1955"
    assert _answer("How many things did Edison invent?", facts) == (
        "2: Edison invented light bulb and phonograph"
    )
    assert _answer("Which inventions did Edison make?", facts) == (
        "Edison invented light bulb and phonograph"
    )
    assert _answer("What did Einstein invent or discover?", facts) == (
        "Einstein invented relativity; Einstein discovered photoelectric effect"
    )
    assert _answer("Tesla", facts) == "Tesla invented AC motor"  # the top-3 default


def test_default_answer_skips_inverse_duplicates() -> None:
    facts = [fact("alice", "proposed", "Pizza party"), fact("Pizza party", "proposed by", "alice"),
             fact("Pizza party", "has status", "open")]  # fmt: skip
    assert _answer("pizza party alice", facts) == (
        "alice proposed Pizza party; Pizza party has status open"
    )


def test_messages_and_shapes() -> None:
    many = [fact("Einstein", "won", f"prize {i}") for i in range(7)]
    found = FindFactsResult(many, limit=10, query={"subject": "Einstein"})
    assert found.message.splitlines() == [
        "Found 7 facts:", *[f"{i + 1}. Einstein won prize {i}" for i in range(5)],
        "... and 2 more",
    ]  # fmt: skip
    assert found.as_dict()["query"] == {"subject": "Einstein", "predicate": None, "object": None}
    one = FindFactsResult(many[:1], limit=10, query={"object": "prize 0"})
    assert one.message == "Found 1 fact:\n1. Einstein won prize 0"
    empty = FindFactsResult([], limit=10, query={"object": "x"})
    assert empty.message == "No facts found matching your query"
    assert empty.suggestions[0] == "Try using fewer constraints in your query"
    asked = AskResult("q?", None, ["q"], [ScoredFact(many[0], 0.4)], "Einstein won prize 0")
    assert asked.message == (
        "Based on the knowledge graph:\n\nEinstein won prize 0\n\nFound 1 relevant fact"
    )
    assert set(asked.as_dict()) == {"question", "context", "key_terms", "relevant_facts", "answer"}
    assert AskResult("q?", None, ["q"], [], "").message == (
        "No relevant information found for your question"
    )


def test_fact_validation() -> None:
    assert clean_fact(" Einstein ", "invented", "relativity", "0.5").confidence == 0.5
    for bad, message in [
        (("", "is", "x"), "The subject is empty"),
        (("x", "is", "y" * 301), "The object is too long"),
        (("x", "is", "y", "1.5"), "Confidence must be a number between 0 and 1"),
        (("x", "is", "y", "nan"), "Confidence must be a number between 0 and 1"),
    ]:
        with pytest.raises(ValidationError, match=message):
            clean_fact(*bad)
    assert parse_tsv_line("# comment\n") is None
    assert parse_tsv_line("a\tb\tc\t0.25\n") == ("a", "b", "c", 0.25, "manual")
    with pytest.raises(ValidationError, match="expected 3 or 4 tab-separated fields"):
        parse_tsv_line("a\tb\n")


def _proposal(**changes: object) -> Proposal:
    values: dict[str, object] = dict(
        id=12, proposer_id=1001, title="Pizza party", description="Friday pizza",
        proposal_type=ProposalType.MULTIPLE_CHOICE, options=["Yes", "No"],
        created_at=datetime(2026, 5, 1, tzinfo=UTC), deadline_at=datetime(2026, 5, 8, tzinfo=UTC),
        status=ProposalStatus.OPEN, proposer=User(1001, "alice", "Alice"),
    )  # fmt: skip
    values.update(changes)
    return Proposal(**values)  # type: ignore[arg-type]


def test_proposal_facts_follow_the_proposal() -> None:
    opened = proposal_facts(_proposal(), "alice")
    assert ("Pizza party", "proposed by", "alice") in opened
    assert ("alice", "proposed", "Pizza party") in opened
    assert ("Pizza party", "has type", "multiple choice") in opened
    assert ("Pizza party", "has status", "open") in opened
    assert ("Pizza party", "has deadline in", "May 2026") in opened
    assert ("Pizza party", "has id", "#12") in opened
    assert not any(p == "has outcome" for _, p, _ in opened)
    closed = proposal_facts(
        _proposal(status=ProposalStatus.CLOSED, outcome="Yes", raw_results={"winners": ["Yes"]}),
        "alice",
    )
    assert ("Pizza party", "has status", "closed") in closed
    assert ("Pizza party", "has outcome", "Yes") in closed
    assert ("Pizza party", "has winning option", "Yes") in closed


def test_proposer_name_prefers_the_username() -> None:
    assert proposer_name(_proposal()) == "alice"
    assert proposer_name(_proposal(proposer=User(5, None, "Bob", "Stone"))) == "Bob Stone"
    assert proposer_name(_proposal(proposer=None, proposer_id=7)) == "user 7"


def test_chain_plan_follows_the_relation_nearest_the_anchor_first() -> None:
    facts = [fact("Aspirin", "treats", "Stroke"), fact("Stroke", "has symptom", "Paralysis")]
    planned = plan(analysis_for("What symptoms do diseases treated by Aspirin have?", facts))
    assert planned is not None
    anchor, hops = planned
    assert anchor.text == "Aspirin"
    assert [(h.word, set(h.predicates)) for h in hops] == [
        ("treated", {"treats"}), ("symptoms", {"has symptom"}),
    ]  # fmt: skip
    assert plan(analysis_for("What does Aspirin treat?", facts)) is None  # one relation


def test_context_store_keeps_steps_and_cuts_the_final_result_at_15() -> None:
    symptoms = [fact("Flu", "has symptom", f"S{i}") for i in range(20)]
    step1 = HopStep("step1_treated", Hop("treated", frozenset({"treats"})), ["Aspirin"], ["Flu"],
                    [fact("Aspirin", "treats", "Flu")])  # fmt: skip
    step2 = HopStep("step2_symptoms", Hop("symptoms", frozenset({"has symptom"})), ["Flu"],
                    [f.object for f in symptoms], symptoms)  # fmt: skip
    store = ContextStore("q", "Aspirin", [step1, step2], [f"S{i}" for i in range(15)], 5, True)
    assert list(store.as_dict()) == [
        "step1_treated", "step2_symptoms", "final_result", "final_result_omitted",
    ]  # fmt: skip
    assert store.as_dict()["final_result_omitted"] == 5
    text = store.explain()
    assert text.startswith("Aspirin treats Flu. Flu has symptom S0, S1")
    assert text.endswith("S13, S14 and 5 more.")
    assert ContextStore("q", "Aspirin").explain().startswith("Based on the available data")
    stuck = ContextStore("q", "Aspirin", [step1])
    assert stuck.explain().startswith("Based on the data, I followed the steps")
