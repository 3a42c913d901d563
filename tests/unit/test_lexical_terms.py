"""The lexical normaliser: one form for what is indexed and what is searched."""

from __future__ import annotations

import pytest

from app.nlp.lexical import (
    fact_lexical,
    lexical_terms,
    lexical_text,
    proposal_lexical,
)


@pytest.mark.parametrize(
    ("written", "searched"),
    [
        ("Wi-Fi", "wifi"),
        ("wi-fi", "WiFi"),
        ("Wi\u2011Fi", "wifi"),  # a non-breaking hyphen
        ("e-mail", "email"),
        ("co-op", "coop"),
        ("Repair Café", "repair cafe"),
        ("REPAIR CAFÉ", "Repair Cafe"),
        ("naïve façade", "naive facade"),
        ("member's", "member"),
        ("member’s", "members"),  # a typographic apostrophe
        ("rules", "ruled"),
        ("meetings", "meeting"),
        ("ﬁre", "fire"),  # NFKC: a ligature
        ("Straße", "strasse"),
        ("in\u00adcredible", "incredible"),  # a soft hyphen
    ],
)
def test_spellings_of_one_word_meet(written: str, searched: str) -> None:
    assert lexical_terms(written) == lexical_terms(searched) != []


def test_the_terms_of_a_sentence() -> None:
    assert lexical_terms("How do visitors connect to the Wi-Fi?") == ["visitor", "connect", "wifi"]
    assert lexical_terms("Boxes hold 35 litres; members must be aged 18 or over.") == [
        "box", "hold", "35", "litr", "member", "age", "18", "over",
    ]  # fmt: skip
    assert lexical_text("The member's rules, ruled!") == "member rule rule"


def test_numbers_are_kept_and_split_at_hyphens() -> None:
    assert lexical_terms("open 10-12, from 2026-11-18") == ["open", "10", "12", "2026", "11", "18"]
    assert lexical_terms("covid-19 rules") == ["covid19", "rule"]
    assert lexical_terms("room 4B") == ["room", "4b"]


def test_function_words_and_punctuation_go() -> None:
    assert lexical_terms("What is the, uh... it?") == ["uh"]
    assert lexical_terms("don't, can't, we're") == []
    assert lexical_terms("") == []
    assert lexical_terms("!!! ??? --- ''' ___") == []
    # Query syntax of FTS5 and tsquery is punctuation here; "OR" a function word.
    assert lexical_terms('"wifi" OR * | & ! ( ) : NEAR') == ["wifi", "near"]
    # Only English drops a possessive; elsewhere an apostrophe joins.
    assert lexical_terms("d'água", "pt_BR") == lexical_terms("dagua", "pt_BR")


def test_may_and_other_words_that_name_things_stay() -> None:
    assert lexical_terms("meeting in May over the ID cards") == [
        "meet",
        "may",
        "over",
        "id",
        "card",
    ]


def test_spanish() -> None:
    assert lexical_terms("¿Dónde están las reuniones?", "es") == ["reunion"]
    assert lexical_terms("reunión", "es") == lexical_terms("reunion", "es")
    assert lexical_terms("organizaciones", "es") == lexical_terms("organización", "es")


def test_portuguese_accents_and_plurals_meet() -> None:
    forms = ["associação", "associacao", "associações", "associacoes"]
    assert len({tuple(lexical_terms(f, "pt_BR")) for f in forms}) == 1
    assert lexical_terms("reuniões", "pt") == lexical_terms("reuniao", "pt_BR")
    assert lexical_terms("as regras da bicicleta", "pt_BR") == lexical_terms(
        "regra bicicletas", "pt_BR"
    )


def test_russian_keeps_short_i_and_reads_yo_as_ye() -> None:
    assert lexical_terms("парковке", "ru") == lexical_terms("Парковка", "ru")
    assert lexical_terms("ёлка", "ru") == lexical_terms("елка", "ru")
    assert lexical_terms("мой новый", "ru") == ["нов"]  # "мой" is a function word
    assert lexical_text("район", "ru") == "район" != lexical_text("раион", "ru")


def test_a_language_without_a_stemmer_still_folds() -> None:
    assert lexical_terms("Crème Brûlée", "xx") == ["creme", "brulee"]


def test_terms_are_single_tokens_for_both_databases() -> None:
    text = "Wi-Fi, e-mail & co-op: 35 litres (aged 18+) – l'été, Zoë's café_bar/ru: ёлка"
    for term in lexical_terms(text, "en") + lexical_terms(text, "ru"):
        assert term.isalnum(), term


def test_what_each_source_is_found_by() -> None:
    assert proposal_lexical("Guest Wi-Fi", "A new router", ["Yes", "No"], "en") == (
        "guest wifi new router yes"
    )
    assert proposal_lexical("Picnic", None, None, "en") == "picnic"
    assert fact_lexical("Kofi", "runs", "Repair Café", "en") == "kofi run repair cafe"
