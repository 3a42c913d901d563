"""Reading a message's form: the question inside a chatty message, the property a
yes-or-no question asks, the doing a how-to asks, the measure or price asked for, and
the alternatives a topic offers (both outcomes of every reader)."""

from __future__ import annotations

from app.core.ask import answer_kinds as kinds
from app.core.ask import coverage
from app.core.ask import things_asked as things
from app.core.ask.answer_kinds import Kind
from app.core.ask.chatter import question_clause, standalone
from app.core.ask.context_service import _alternatives


def test_the_question_inside_a_chatty_message() -> None:
    said = "hey, random question, I was wondering who actually founded the hub?"
    assert question_clause(said) == "who actually founded the hub?"
    assert question_clause("locked out again... who holds the master keys?") == (
        "who holds the master keys?"
    )
    assert question_clause("hey can i bring my kid, school is closed") == (
        "can i bring my kid, school is closed"
    )
    assert question_clause("do you know if there is a sauna") == "is there a sauna"
    assert question_clause("I wondered whether we can park there") == "can we park there"
    assert question_clause("which proposals are open") == "which proposals are open"
    assert question_clause("gym lockers?") == "gym lockers?"  # no question form: as it is
    # a topic put first is read only where asked for (the answer checks)
    assert question_clause("solar panels how many kwh") == "solar panels how many kwh"
    assert question_clause("solar panels how many kwh", inner=True) == "how many kwh"


def test_a_clause_pointing_back_is_read_with_the_message() -> None:
    took = "I took a novel from the library corner, how long can I keep it?"
    assert standalone(took) == took  # "it" is the novel
    assert standalone("locked out of the closet, who holds the keys?") == "who holds the keys?"


def test_the_property_a_yes_or_no_question_asks() -> None:
    page = ["The fitness room is in the basement and open daily. Dogs in the lobby."]
    asked = things.property_asked("is the fitness room wheelchair accessible", page)
    assert asked == ["wheelchair", "accessible"]
    assert things.property_asked("is the lobby wheelchair accessible", page) == [
        "wheelchair",
        "accessible",
    ]
    assert things.property_asked("is the gym open on sundays", page) == []  # open: any rule
    assert things.property_asked("are dogs allowed in the lobby", page) == []
    assert things.property_asked("is the fitness room in the basement", page) == []
    assert things.property_asked("is it ok to smoke", page) == []  # no thing named
    assert things.property_asked("is the sauna hot", page) == []  # the page names no sauna


def test_the_doing_a_how_to_asks() -> None:
    assert things.how_doing("how do i book one of the phone booths") == ["book"]
    assert things.how_doing("How can we quickly reset the router?") == ["reset"]
    assert things.how_doing("how to register a bike") == ["register"]
    assert things.how_doing("how do I get a key card") == []  # a vague verb
    assert things.how_doing("how do I care for the plants?") == []  # "water them" will do
    assert things.how_doing("how does parking work") == []


def test_measures_asked_by_their_noun() -> None:
    assert kinds.asked_kind("minimum age for the sauna?") is Kind.NUMBER
    assert kinds.asked_kind("what temperature is the heating set to") is Kind.NUMBER
    assert kinds.asked_kind("how hot is the sauna") is Kind.NUMBER
    assert kinds.asked_kind("what is the sauna's opening time") is None
    age = "minimum age for the sauna?"
    assert kinds.passages_give(Kind.NUMBER, ["Children under 12 need an adult."], age)
    assert not kinds.passages_give(Kind.NUMBER, ["Open from 18:00 to 21:00."], age)
    heat = "what temperature is the sauna"
    assert kinds.passages_give(Kind.NUMBER, ["It is heated to 80 °C."], heat)
    assert kinds.passages_give(Kind.NUMBER, ["Kept at 21 degrees."], heat)
    assert not kinds.passages_give(Kind.NUMBER, ["Heated on Wednesdays from 18:00."], heat)


def test_a_price_paid_is_not_the_price_of_a_use() -> None:
    laundry = ["A wash costs 2 EUR and a dry 1.50 EUR, paid with tokens sold at reception."]
    assert coverage.unmet_quantity("how much did the dryer cost", laundry) == ["cost"]
    assert coverage.unmet_quantity("how much does a wash cost", laundry) == []
    quote = ["Supplier: Velostal. Price: 7,850 EUR including foundations."]
    assert coverage.unmet_quantity("how much did the bike shelter cost", quote) == []
    bought = ["The printer was bought in May for 300 EUR."]
    assert coverage.unmet_quantity("how much did the printer cost", bought) == []
    assert kinds.quantity_given("how much did it cost") is not None
    assert kinds.quantity_given("who cleans the kitchen") is None


def test_alternatives_are_groups_of_words() -> None:
    terms = ["childcare", "kids", "corner", "coworking"]
    asked = "any proposals about childcare or a kids corner in the coworking"
    assert _alternatives(asked, terms) == [["childcare"], ["kids", "corner", "coworking"]]
    assert _alternatives("wifi or internet", ["wifi", "internet"]) == [["wifi"], ["internet"]]
    assert _alternatives("proposals about the garden", ["garden"]) == []
    assert _alternatives("votes on sport or", ["sport"]) == []  # nothing after "or"


def test_relation_families() -> None:
    from app.core.graph.graph_answers import PredicateIndex, family_words

    assert {"look", "maintain", "curated"} <= family_words("curated by")
    assert {"chair", "head", "lead"} <= family_words("who's the head of the board")
    assert family_words("located in") == frozenset()
    index = PredicateIndex(["curated by", "chaired by", "located in"])
    assert index.match("looks") == {"curated by"}
    assert index.match("head") == {"chaired by"}
    assert index.match("responsible") == frozenset()  # a relation of its own
