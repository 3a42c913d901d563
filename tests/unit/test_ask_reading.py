"""The pure parts of /ask's reading: typos, topics after "about", loose names."""

from __future__ import annotations

from app.core.ask.spelling import Lexicon
from app.nlp.edits import distance

TEXTS = [
    "Monthly board game night in the event room",
    "Compost bins for the community garden",
    "Install solar panels on the roof",
    "Close the space between Christmas and New Year",
    "Bikes go in the bike cellar",
    "The guest password changes every month",
]
LEXICON = Lexicon(TEXTS, ["Community Garden", "Green Committee", "House Committee", "Board"])


def test_edit_distance_counts_a_swap_as_one() -> None:
    assert distance("propsals", "proposals") == 1
    assert distance("gardn", "garden") == 1
    assert distance("abuot", "about") == 1
    assert distance("wine", "wind") == 1


def test_typos_are_corrected_to_the_communitys_words() -> None:
    assert LEXICON.correct("gardn") == "garden"
    assert LEXICON.correct("propsals") == "proposals"  # the bot's own word
    assert LEXICON.correct("opn") == "open"  # three letters: an added letter only


def test_real_words_and_far_words_stay() -> None:
    assert LEXICON.correct("moon") is None  # an English word, even if one letter off "room"
    assert LEXICON.correct("dinosaurs") is None
    assert LEXICON.correct("garden") is None
    assert LEXICON.correct("zqxwv") is None  # nothing close
    assert LEXICON.correct("pls") is None  # conversation, not a typo
    assert LEXICON.correct("treadmill") is None  # two common words run together
    assert LEXICON.correct("soundproof") is None


def test_a_typo_of_a_common_word_is_read_as_that_word() -> None:
    lexicon = Lexicon([*TEXTS, "Two proposals are pending", "Cargo bike maintained by Karim"])
    assert lexicon.correct("pendng") == "pending"  # one edit from ours
    assert lexicon.correct("openning") == "opening"  # two from "pending", one from "opening"
    # one edit from a common word the community never writes in this form
    assert lexicon.correct("maintans") == "maintains"
    assert lexicon.correct("wheelchiar") == "wheelchair"  # two letters swapped
    # a common word one edit away that the community never says, where one of its own
    # words is two edits away: no guess ("elegant" for the Elephant room)
    rooms = Lexicon(["The Elephant room is the music room"])
    assert rooms.correct("elefant") is None
    # two common words one edit away and about as common: no guess
    assert lexicon.correct("creatd") is None  # "created" or "create"


def test_what_the_community_never_mentions() -> None:
    # every term is in the texts, the graph's names or the bot's own words
    assert LEXICON.unmentioned("Which proposals did the Green Committee close?") == 0.0
    assert LEXICON.unmentioned("rules for chess") == 0.5  # "rule" is ours, "chess" is not
    assert LEXICON.unmentioned("the of and") == 0.0  # no term to measure
    # the terms are read as the lexical index reads them: stemmed, hyphens joined
    stemmed = Lexicon(["The gardens are watered daily; Wi-Fi in the shed."])
    assert stemmed.unmentioned("who waters the garden") == 0.0
    assert stemmed.unmentioned("wifi password") == 0.5
    # what was just retrieved counts too: the words may have been read before it was added
    assert stemmed.unmentioned("wifi password", seen=["The password is on the fridge"]) == 0.0
