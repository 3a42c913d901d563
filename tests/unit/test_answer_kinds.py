"""answer_kinds: the kind of answer a question's form asks for, and whether what was
found gives one (both outcomes of every check)."""

from __future__ import annotations

import numpy as np

from app.core.ask import answer_kinds as kinds
from app.core.ask import things_asked as things
from app.core.ask.answer_kinds import Kind
from app.core.ask.coverage import uncovered


def test_the_kind_asked_for() -> None:
    assert kinds.asked_kind("how old is bob") is Kind.NUMBER
    assert kinds.asked_kind("How tall is the tree?") is Kind.NUMBER
    assert kinds.asked_kind("when was alice born") is Kind.TIME
    assert kinds.asked_kind("how often is the fridge cleaned") is Kind.TIME
    assert kinds.asked_kind("where does hugo live") is Kind.PLACE
    assert kinds.asked_kind("who founded the hub") is Kind.PERSON
    assert kinds.asked_kind("what is the deposit") is None
    assert kinds.asked_kind("how does parking work") is None
    assert kinds.asked_kind("green committee meeting day") is Kind.TIME  # a keyword query
    assert kinds.asked_kind("which day does the cleaning company come") is Kind.TIME
    assert kinds.asked_kind("green committee meeting room") is None


def test_facts_give_a_time_a_place_a_number_or_someone() -> None:
    meets = [("Board", "meets on", "first Monday of the month")]
    assert kinds.facts_give(Kind.TIME, meets)
    assert not kinds.facts_give(Kind.TIME, [("Green Committee", "meets in", "Room 3")])
    assert kinds.facts_give(Kind.TIME, [("Hub", "founded in", "2019")])
    assert kinds.facts_give(Kind.PLACE, [("Board", "meets in", "Main Hall")])
    assert not kinds.facts_give(Kind.PLACE, meets)  # on a Monday is no place
    assert not kinds.facts_give(Kind.PLACE, [("Bike Cellar", "maintained by", "Hugo")])
    assert kinds.facts_give(Kind.NUMBER, [("Hub", "founded in", "2019")])
    assert not kinds.facts_give(Kind.NUMBER, [("Bob", "is", "Treasurer")])
    assert kinds.facts_give(Kind.PERSON, [("Events Team", "led by", "Emma")])
    assert not kinds.facts_give(Kind.PERSON, [("Hub", "founded in", "2019")])


def test_the_thing_asked_to_exist() -> None:
    assert things.thing_asked("Is there a microwave in the shared kitchen?") == ["microwave"]
    assert things.thing_asked("are there any lockers for bikes") == ["lockers"]
    assert things.thing_asked("does the gym have a treadmill") == ["treadmill"]
    assert things.thing_asked("is there a height limit for vans") == ["height", "limit"]
    assert things.thing_asked("do we have to bring our own detergent") == []  # no article
    assert things.thing_asked("is there a place to lock my bike") == []  # no thing named
    assert things.thing_asked("when is the sauna heated") == []
    assert things.thing_asked("is smoking allowed in the lounge") == ["smoking"]
    assert things.thing_asked("is it allowed to park here") == []


def test_which_thing() -> None:
    assert kinds.which_thing("which vet is closest to the building") == ["vet"]
    assert kinds.which_thing("At which bank does the association hold its account?") == ["bank"]
    assert kinds.which_thing("what brand is the dishwasher") == []  # an attribute, not "which"
    assert kinds.which_thing("which day is the bin collected") == []


def test_how_many_needs_a_number_by_the_thing_counted() -> None:
    pets = ["Dogs and cats are welcome in the flats. Dogs must be kept on a leash."]
    assert things.uncounted("How many dogs live in the building?", pets)
    permits = ["Each household can request up to 4 visitor permits per month."]
    assert not things.uncounted("how many visitor permits can we get", permits)
    assert not things.uncounted("how many bikes may I store", ["Each member may store two bikes."])
    # a page that does not name the thing is left to the other checks
    assert not things.uncounted("how many ppl need to vote", ["at least ten members voted"])
    assert not things.uncounted("how do dogs get in", pets)


def test_making_and_owning_need_their_own_verb() -> None:
    assert things.made_left("who built the lounge", ["Events Team meets in Lounge"]) == ["built"]
    page = ["The car park behind the building has 24 spaces."]
    assert things.made_left("when was the car park built", page) == ["built"]
    assert things.made_left("who paid for the terrace", ["Terrace managed by Events Team"])
    assert not things.made_left("when do I pay my fees", ["Pay by bank transfer by the 5th."])
    assert not things.made_left("when was the hub founded", ["Linden Street Hub founded in 2019"])
    assert not things.made_left("who manages the garden", ["Garden managed by Green Committee"])
    assert not things.made_left("how do I build a shelf", ["Tools are in the blue cabinet."])


def test_what_a_member_wants_to_do() -> None:
    assert things.wanted_doing("can I smoke in the fitness room") == ["smoke"]
    assert things.wanted_doing("can I have a party in the laundry room") == ["party"]
    assert things.wanted_doing("can I cook salmon at lunchtime") == ["cook", "salmon"]
    assert things.wanted_doing("can my friend come to the gym with me") == []  # who, vague verb
    assert things.wanted_doing("is it ok to park here") == ["park"]
    assert things.wanted_doing("where can I park") == []
    pets = ["If you want to bring your dog on a co-working day, it can stay with you."]
    assert not things.undone("can I bring my dog to the office", pets)
    assert things.undone("can I smoke in the office", pets) == ["smoke"]


def test_a_measure_needs_its_unit() -> None:
    noise = ["Quiet hours are from 22:00 to 07:00."]
    assert not kinds.passages_give(Kind.NUMBER, noise, "how loud is the rehearsal room")
    assert kinds.passages_give(Kind.NUMBER, ["Keep it under 40 dB."], "how loud can music be")
    kitchen = ["The kitchen is used by about 60 people every day."]
    assert not kinds.passages_give(Kind.NUMBER, kitchen, "how old is the coffee machine")
    assert kinds.passages_give(Kind.NUMBER, ["It is 12 years old."], "how old is the dryer")
    wifi = ["Guests get up to 50 Mbit/s."]
    assert kinds.passages_give(Kind.NUMBER, wifi, "how fast is the guest wifi")
    advance = ["Book it at least three days in advance."]
    assert kinds.passages_give(Kind.NUMBER, advance, "how far in advance do I book")
    assert kinds.passages_give(Kind.NUMBER, ["The room holds up to 50 people."], "how big is it")


def test_passages_are_checked_for_a_number_only() -> None:
    assert kinds.passages_give(Kind.NUMBER, ["The room holds up to 50 people."])
    assert not kinds.passages_give(Kind.NUMBER, ["Dogs are welcome in the flats."])
    assert kinds.passages_give(Kind.TIME, ["Dogs are welcome in the flats."])


def test_the_words_asked_about() -> None:
    assert kinds.attribute_words("what is greta's phone number") == ["phone", "number"]
    assert kinds.attribute_words("what's Kofi's favourite food") == ["favourite", "food"]
    assert kinds.attribute_words("what's the deposit") == []  # a contraction
    assert kinds.attribute_words("what is Bob's role in the association") == []
    assert kinds.focus_words("what brand is the dishwasher") == ["brand"]
    assert kinds.focus_words("what's the phone number of velostal") == ["phone", "number"]
    assert kinds.focus_words("which days is the sauna heated") == []  # any rule gives days
    assert kinds.focus_words("how many people fit in the main hall") == ["people"]
    assert kinds.doing_words("who looks after the laundry room") == ["looks"]
    assert kinds.doing_words("who is the treasurer") == []


def test_close_in_meaning_to_the_passage_counts_at_the_bar_given() -> None:
    passage = [np.array([1.0, 0.0], dtype=np.float32)]
    words = {"spot": np.array([0.6, 0.8], dtype=np.float32),
             "brand": np.array([0.1, 0.99], dtype=np.float32)}  # fmt: skip
    near = kinds.ATTRIBUTE_NEAR
    assert uncovered(["spot", "brand", "unseen"], [], words, passage, near=near) == [
        "brand",
        "unseen",
    ]
    assert uncovered(["spot"], [], words, passage, near=0.7) == ["spot"]
    assert uncovered(["phone", "committee"], ["Greta member of House Committee"], {}) == ["phone"]


def test_a_command_is_named_by_its_slash_or_its_underscore() -> None:
    from app.core.ask.help import _names_command

    assert _names_command("what does /vote do", "vote")
    assert not _names_command("how do I create a vote", "vote")
    assert _names_command("what is my_votes for", "my_votes")
    assert not _names_command("how do I change my vote", "my_vote")
