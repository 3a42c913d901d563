"""Per-language cue tables for reading /ask questions offline.

A table is data: the words and patterns that, in one language, name a status, a type,
a date field, a proposer, an intent, and the filler words that are not a topic. The
reader (``app.core.ask.multilingual``) is shared by every table, so adding a language is
adding a module here with a ``CUES`` table (found by itself). Patterns are
regular expressions matched case-insensitively on the question; ``NAME`` stands for a
person's name (a capitalised word or an @username).

English keeps its own, richer reader (``app.core.ask.analysis``); its table here only
serves language detection.
"""

from __future__ import annotations

import pkgutil
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module

# A person named in a question: an @username, or a capitalised name.
NAME = r"(@[^\W\d][\w.]{1,31}|(?-i:[A-ZÁÉÍÓÚÂÊÔÃÕÇÑА-ЯЁ])[\w.]{1,31})"


@dataclass(frozen=True)
class Cues:
    language: str  # the catalog name: "es", "ru", "pt_BR"
    stopwords: frozenset[str]  # function words: detection, and never a topic
    markers: str = ""  # characters only this language writes (detection)
    proposal_words: str = ""
    doc_words: str = ""
    how_to: str = ""  # "how do I ...": the manual and documents answer
    question_openers: str = ""  # who, what, where, when, which, how many
    who: str = ""  # "who ...": the proposer is the answer
    cancelled: str = ""
    open: str = ""
    closed: str = ""
    free_form: str = ""
    multiple_choice: str = ""
    creation_words: str = ""
    deadline_words: str = ""
    future_words: str = ""  # a deadline still ahead: "closes", "will end"
    past_words: str = ""  # a deadline behind: "closed", "ended"
    proposer: tuple[str, ...] = ()  # patterns whose first group is the name
    self_proposer: str = ""  # the asker means themselves
    not_names: frozenset[str] = field(default_factory=frozenset)
    filler: frozenset[str] = field(default_factory=frozenset)  # question words, not topics
    # Rewrites applied before the date lexicon (app/nlp/date_lexicon.py), for date
    # words the lexicon drops but the English reader needs: Russian "в мае" -> "in мае".
    date_rewrites: tuple[tuple[str, str], ...] = ()


@cache
def all_cues() -> dict[str, Cues]:
    """Every table in this package, by language: a new module is picked up by itself."""
    tables = {}
    for module in pkgutil.iter_modules(__path__):
        cues = getattr(import_module(f"{__name__}.{module.name}"), "CUES", None)
        if isinstance(cues, Cues):
            tables[cues.language] = cues
    return tables


def load(language: str) -> Cues | None:
    return all_cues().get(language)
