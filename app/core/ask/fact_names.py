"""Which of the graph's entities a question names: by their words, or by their initials.

Members name things loosely. "Who chairs the board?" names "Board of Directors" by one
of its words; "when does the SSC meet?" names "Software Steering Council" by its
initials. Both are read the same way for every community, from the entities' own names:

- **Words.** An entity's name and the question are both reduced to the lexical index's
  terms (app.nlp.lexical: case, accents, stems, no function words); the share of the
  name's terms the question holds says how fully it is named.
- **Initials.** A name of two or more words is also known by its initials, with and
  without its function words ("Board of Directors": "bod" and "bd"); a word of the
  question that is one of them names it in full. Hyphens split words for this
  ("Sub-Committee" gives "sc").

The result is where paths through the graph start (fact_search); nothing here is a
verdict on the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.nlp.key_terms import normalize
from app.nlp.lexical import lexical_terms

MIN_INITIALS = 2
MAX_INITIALS = 8
_PARTS = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class Named:
    """An entity the question names: how fully, and by which of the question's terms."""

    norm: str
    name: str
    share: float  # the share of the name's terms the question holds (1.0 by initials)
    terms: frozenset[str]  # the question's terms that name it
    by_initials: bool = False


@dataclass
class EntityIndex:
    """The graph's entities by their terms and their initials, built once per change."""

    language: str = "en"
    names: dict[str, str] = field(default_factory=dict)  # norm -> name as written
    terms: dict[str, frozenset[str]] = field(default_factory=dict)  # norm -> its terms
    by_term: dict[str, set[str]] = field(default_factory=dict)  # term -> norms
    by_initials: dict[str, set[str]] = field(default_factory=dict)  # initials -> norms
    vocabulary: set[str] = field(default_factory=set)  # every term of names and relations
    frequency: dict[str, int] = field(default_factory=dict)  # term -> names and relations
    documents: int = 0  # names and relations counted in ``frequency``

    @classmethod
    def build(
        cls, names: Iterable[str], language: str = "en", relations: Iterable[set[str]] = ()
    ) -> EntityIndex:
        """The index of these entity names; ``relations`` (the predicates' terms) only
        add to the vocabulary."""
        index = cls(language)
        for relation in relations:
            index.vocabulary |= relation
            index._count(relation)
        for name in names:
            norm = normalize(name)
            if not norm or norm in index.names:
                continue
            index.names[norm] = name
            terms = frozenset(lexical_terms(name, language))
            index.terms[norm] = terms
            index.vocabulary |= terms
            index._count(terms)
            for term in terms:
                index.by_term.setdefault(term, set()).add(norm)
            for short in initials(name, language):
                index.by_initials.setdefault(short, set()).add(norm)
        return index

    def _count(self, terms: Iterable[str]) -> None:
        self.documents += 1
        for term in terms:
            self.frequency[term] = self.frequency.get(term, 0) + 1

    def named(self, question: str) -> list[Named]:
        """The entities the question names at all, the most fully named first."""
        asked = set(lexical_terms(question, self.language))
        found: dict[str, Named] = {}
        for word in dict.fromkeys(_PARTS.findall(question.casefold())):
            term = next(iter(lexical_terms(word, self.language)), "")
            if not term:  # a function word ("it", "us") is no abbreviation
                continue
            for norm in self.by_initials.get(word, ()):
                found[norm] = Named(norm, self.names[norm], 1.0, frozenset({term}), True)
        for term in asked:
            for norm in self.by_term.get(term, ()):
                if norm in found:
                    continue
                held = self.terms[norm] & asked
                found[norm] = Named(norm, self.names[norm], len(held) / len(self.terms[norm]),
                                    frozenset(held))  # fmt: skip
        return sorted(found.values(), key=lambda n: (-n.share, -len(n.terms), n.norm))

    def share(self, norm: str, asked: set[str]) -> float:
        """How much of an entity's name the question's terms hold."""
        terms = self.terms.get(norm) or frozenset(lexical_terms(norm, self.language))
        return len(terms & asked) / len(terms) if terms else 0.0


def initials(name: str, language: str = "en") -> set[str]:
    """The abbreviations a multi-word name is known by: the initials of all its words,
    and of its content words only."""
    words = _PARTS.findall(name.casefold())
    if len(words) < MIN_INITIALS:
        return set()
    content = [w for w in words if lexical_terms(w, language)]
    found = {"".join(w[0] for w in words), "".join(w[0] for w in content)}
    return {s for s in found if MIN_INITIALS <= len(s) <= MAX_INITIALS and s.isalpha()}
