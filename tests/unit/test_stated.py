"""What a page states of the thing asked about, sentence by sentence (stated): a time, a
price or a code given for something else on the same page does not answer."""

from __future__ import annotations

from app.core.ask import stated
from app.core.ask import things_asked as things
from app.core.ask.answer_kinds import HOW_IT_WORKS

WASTE = [
    "Waste and recycling\n\nGlass goes in the container at the entrance (white, green and brown"
    " glass separately).\n\nOld batteries and light bulbs go in the red box at reception,"
    " which is emptied monthly.",
    "in the hallway.\n\nThe bins are collected on Tuesday (general waste).",
]
KITCHEN = [
    "Kitchen rules\n\n1. Label your food. Everything in the fridge needs your name. Unlabelled"
    " food is thrown out on the last working day of each month.\n\n3. The coffee machine is a"
    " bean-to-cup machine. It is descaled on the first Monday of every month.",
]
WIFI = [
    'Guest wifi\n\nVisitors use the separate network "LindenGuest". Never give the members\''
    " network password to guests.\n\nThe guest password changes on the first day of every"
    " month. It is written on the board at reception and in the pinned message of the"
    " members' chat.",
]


def test_a_time_given_for_another_thing_on_the_page() -> None:
    assert stated.untimed("when is the glass container emptied", "Waste", WASTE) == [
        "glass", "container",
    ]  # fmt: skip
    assert stated.untimed("when are the bins collected", "Waste", WASTE) == []
    # a sentence pointing back ("It is descaled") speaks of the one before it
    assert stated.untimed("when is the coffee machine descaled?", "Kitchen rules", KITCHEN) == []
    # most of the question's words in the sentence will do: "the fridge" is the one before
    question = "when does unlabelled food get thrown out of the fridge"
    assert stated.untimed(question, "Kitchen rules", KITCHEN) == []
    # a sentence cut off by the passage's start may have its subject in a passage not read
    cut = ["next door is heated on Wednesday evenings from 18:00 to 21:00."]
    assert stated.untimed("when is the sauna heated", "Fitness room", cut) == []
    assert stated.untimed("where is the glass container", "Waste", WASTE) == []  # no "when"


def test_a_code_or_number_given_for_the_thing_asked() -> None:
    # where the guest password is written gives the guest password, not the members' one
    none, left = stated.unvalued("what's the password for the members' wifi?", "Guest wifi", WIFI)
    assert none and left == []
    assert stated.unvalued("whats the guest wifi password", "Guest wifi", WIFI) == (False, [])
    assert stated.unvalued("what is the wifi password", "Guest wifi", WIFI) == (False, [])
    # a quoted network name is no password; a phone number is a number
    shelter = ["Supplier: Velostal (quote of 2 November 2026). Price: 7,850 EUR."]
    assert stated.unvalued("velostal phone number?", "Bike shelter quote", shelter)[0]
    called = ["Questions: call Velostal on +49 30 1234567."]
    assert stated.unvalued("velostal phone number?", "Bike shelter quote", called) == (False, [])
    # asking whether one is needed, or "phone calls", asks for no value
    keys = ["The co-working floors need the card plus a PIN."]
    assert stated.unvalued("do I need a PIN for the co-working floors", "Keys", keys) == (
        False, [],
    )  # fmt: skip
    assert stated.unvalued("what is the PIN code for the co-working floors", "Keys", keys)[0]
    assert stated.unvalued("where should I take phone calls", "Quiet hours", keys) == (False, [])


def test_a_price_given_for_another_thing_on_the_page() -> None:
    fitness = ["Fitness room\n\nGuests may train with a member for 5 EUR per visit.",
               "The sauna next door is heated on Wednesday evenings."]  # fmt: skip
    assert stated.unmeasured("how much did the sauna cost", "Fitness room", fitness) == ["sauna"]
    booking = ["Book it in the calendar; private parties pay a 50 EUR deposit."]
    question = "how much is the deposit for the event room"
    assert stated.unmeasured(question, "Event room booking", booking) == []


def test_what_a_rule_or_a_place_question_names() -> None:
    assert things.rule_topic("what is our policy on pet birds") == ["pet", "birds"]
    assert things.rule_topic("what are the rules for visitors at night?") == ["visitors"]
    assert things.rule_topic("is the gym open on sundays") == []
    assert things.owned("where can I wash my car?") == ["car"]
    assert things.owned("where can my brother park") == []  # who it is for, not a thing


def test_how_a_thing_works_asks_for_a_process() -> None:
    assert HOW_IT_WORKS.match("how do solar panels generate electricity")
    assert HOW_IT_WORKS.match("how does parking work?")
    assert not HOW_IT_WORKS.match("how do I book the event room")
