"""Reading a question against the graph, scoring facts, and phrasing the answer.

The graph decides what a word means here: a word sequence is an entity if some
fact has it as subject or object, a word is a predicate word if it shares a
form (invent ~ invented ~ inventor) with a stored predicate. Relevance keeps
spec 000's weights (subject 0.4, predicate 0.2, object 0.4) but matches whole
words, so "a" no longer matches every question containing the letter a.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from app.core.graph.graph_results import ScoredFact
from app.nlp.key_terms import (
    STOP_WORDS,
    Ngram,
    Token,
    contains_phrase,
    predicate_words,
    quoted_phrases,
    singular,
    spec_terms,
    tokenize,
    unique,
    word_forms,
)
from app.persistence.repositories.facts import Fact

SUBJECT_WEIGHT, PREDICATE_WEIGHT, OBJECT_WEIGHT = 0.4, 0.2, 0.4
WHAT_IS = frozenset({"is", "is a", "is an", "are", "was", "were"})
WHO_PREDICATES = frozenset({"created", "invented", "wrote", "discovered", "founded", "proposed"})
WHERE_IS = frozenset({"located in", "from", "in"})  # spec 000: "{s} is {p} {o}"
WHERE_OTHER = frozenset({"born in", "lives in", "based in", "situated in", "died in"})
_TEMPORAL = re.compile(
    r"\b(1[0-9]{3}|20[0-9]{2}|january|february|march|april|may|june|july|august|september"
    r"|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|weekdays?|weekends?|daily|weekly|monthly|yearly|every|\d{1,2}[:.]\d{2})\b",
    re.IGNORECASE,
)
_ALTERNATIVES = frozenset({"or", "and"})
# Relations said in other words: a question "who looks after ...?" asks for what a fact
# records as "curated by" or "maintained by"; "the head of" for "chaired by". Each word of
# a family also matches the stored predicates of the others.
RELATION_FAMILIES = (
    frozenset("look looks looked care cares maintain maintains maintained curate curates "
              "curated manage manages managed coordinate coordinates coordinated".split()),
    frozenset("head heads headed lead leads led chair chairs chaired president boss "
              "leader".split()),
)  # fmt: skip


def family_words(text: str) -> frozenset[str]:
    """The words of the relation families the text's words belong to ("curated by" ->
    look, care, maintain, ...): other ways to say its relation."""
    words = {f for w in re.findall(r"[a-z]+", text.lower()) for f in word_forms(w)}
    return frozenset(w for family in RELATION_FAMILIES if words & family for w in family)


def said_every_way(text: str, relation: str) -> str:
    """The text with the other ways to say the relation after it ("Board chaired by Greta"
    + head, lead, ...): words to compare a question with."""
    return f"{text} {' '.join(sorted(family_words(relation)))}".rstrip()


def said(fact: Fact) -> str:
    """The fact as words to compare a question with, its relation said every way."""
    return said_every_way(f"{fact.subject} {fact.predicate} {fact.object}", fact.predicate)


class PredicateIndex:
    """The stored predicates by the forms of their content words."""

    def __init__(self, vocabulary: Iterable[str]) -> None:
        self.vocabulary = list(vocabulary)
        self._by_form: dict[str, set[str]] = {}
        for predicate in self.vocabulary:
            for word in predicate_words(predicate):
                for form in word_forms(word):
                    self._by_form.setdefault(form, set()).add(predicate)

    def match(self, word: str) -> frozenset[str]:
        found: set[str] = set()
        for form in word_forms(word):
            found |= self._by_form.get(form, set())
        for family in RELATION_FAMILIES:
            if word in family:
                for other in family - {word}:
                    found |= self._by_form.get(other, set())
        return frozenset(found)


@dataclass(frozen=True)
class PredicateGroup:
    """Question words naming one relation ("invent or discover", "proposed ... proposals")."""

    words: tuple[str, ...]
    positions: tuple[int, ...]
    predicates: frozenset[str]


@dataclass(frozen=True)
class Entity:
    text: str  # as written in the question
    norm: str  # as stored
    start: int
    end: int
    named: bool  # capitalised or quoted in the question: a deliberate name


@dataclass(frozen=True)
class Analysis:
    question: str
    qtype: str  # what, who, where, when, which, how_many or other
    be_question: bool  # "what is/are/was ..."
    words: tuple[str, ...]  # the question's normalised tokens
    singulars: tuple[str, ...]  # the same, plurals made singular ("inventors" -> "inventor")
    forms: frozenset[str]  # word forms of its content words
    entities: tuple[Entity, ...]
    groups: tuple[PredicateGroup, ...]
    key_terms: tuple[str, ...]

    @property
    def entity_norms(self) -> frozenset[str]:
        return frozenset(e.norm for e in self.entities)

    @property
    def predicates(self) -> frozenset[str]:
        return frozenset(p for g in self.groups for p in g.predicates)


def _question_type(tokens: Sequence[Token]) -> tuple[str, bool]:
    for i, token in enumerate(tokens):
        following = tokens[i + 1].norm if i + 1 < len(tokens) else ""
        if token.norm == "how" and following in ("many", "much"):
            return "how_many", False
        if token.norm in ("what", "who", "where", "when", "which"):
            return token.norm, following in ("is", "are", "was", "were")
    return "other", False


def choose_entities(ngrams: Sequence[Ngram], existing: set[str], question: str) -> list[Entity]:
    """Longest non-overlapping word sequences the graph knows, in question order."""
    named = {t.casefold() for t in quoted_phrases(question)}
    chosen: list[Entity] = []
    taken: set[int] = set()
    for gram in ngrams:  # longest first
        span = set(range(gram.start, gram.end))
        norm = next((n for n in gram.norms if n in existing), None)
        if norm is None or span & taken:
            continue
        taken |= span
        deliberate = gram.text[:1].isupper() or gram.text.casefold() in named
        chosen.append(Entity(gram.text, norm, gram.start, gram.end, deliberate))
    return sorted(chosen, key=lambda e: e.start)


def _groups(
    tokens: Sequence[Token], covered: set[int], index: PredicateIndex
) -> list[PredicateGroup]:
    found: list[tuple[Token, frozenset[str]]] = []
    for token in tokens:
        if token.position in covered or token.norm in STOP_WORDS:
            continue
        predicates = index.match(token.norm)
        if predicates:
            found.append((token, predicates))
    groups: list[list[tuple[Token, frozenset[str]]]] = []
    for token, predicates in found:
        for group in groups:
            last = group[-1][0]
            between = {t.norm for t in tokens[last.position + 1 : token.position]}
            if predicates & group[0][1] or (between and between <= _ALTERNATIVES):
                group.append((token, predicates))
                break
        else:
            groups.append([(token, predicates)])
    return [
        PredicateGroup(
            words=tuple(t.text for t, _ in g),
            positions=tuple(t.position for t, _ in g),
            predicates=frozenset().union(*(p for _, p in g)),
        )
        for g in groups
    ]


# "who is on the house committee besides Greta?": who is left out is not what is asked
_BESIDES = re.compile(
    r"\s*,?\s*\b(?:besides|apart from|other than|except(?: for)?|aside from|excluding)\s+"
    r"[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]*)?",  # a surname only with its capital
    re.I,
)


# A relation said in a phrase inside a chain: "the team in charge of the terrace" is the
# one that manages it (only after a group: "who is in charge of the wifi?" asks anyone).
_IN_CHARGE = re.compile(r"\b(team|committee|group|crew|club) in charge of\b", re.I)


def analyze(
    question: str, ngrams: Sequence[Ngram], existing: set[str], index: PredicateIndex
) -> Analysis:
    question = _IN_CHARGE.sub(r"\1 that manages", _BESIDES.sub("", question))
    tokens = tokenize(question)
    qtype, be_question = _question_type(tokens)
    entities = choose_entities(ngrams, existing, question)
    covered = {p for e in entities for p in range(e.start, e.end)}
    groups = _groups(tokens, covered, index)
    terms: list[tuple[int, str]] = [(e.start, e.text) for e in entities]
    terms += [(pos, word) for g in groups for pos, word in zip(g.positions, g.words, strict=True)]
    for term in spec_terms(question):  # a lone word inside a longer known name adds nothing
        words = [t.norm for t in tokenize(term)]
        position = next((t.position for t in tokens if words and t.norm == words[0]), len(tokens))
        inside = any(e.start <= position < e.end and e.end - e.start > len(words) for e in entities)
        if not inside:
            terms.append((position, term))
    key_terms = unique(text for _, text in sorted(terms, key=lambda item: item[0]))
    forms = frozenset(f for t in tokens if t.norm not in STOP_WORDS for f in word_forms(t.norm))
    forms |= {f for w in family_words(question) for f in word_forms(w)}  # "looks after"
    return Analysis(
        question=question,
        qtype=qtype,
        be_question=be_question,
        words=tuple(t.norm for t in tokens),
        singulars=tuple(singular(t.norm) for t in tokens),
        forms=forms,
        entities=tuple(entities),
        groups=tuple(groups),
        key_terms=tuple(key_terms),
    )


@lru_cache(maxsize=65536)
def _words(norm: str) -> tuple[str, ...]:
    return tuple(t.norm for t in tokenize(norm))


def predicate_matches(predicate_norm: str, words: Sequence[str], forms: frozenset[str]) -> bool:
    """The predicate is in the question word for word, or all its content words are there
    in some form ("invent" matches "invented", "proposals" matches "proposed by")."""
    if contains_phrase(list(words), list(_words(predicate_norm))):
        return True
    content = predicate_words(predicate_norm)
    return bool(content) and all(word_forms(w) & forms for w in content)


def mentions(name_norm: str, words: Sequence[str], singulars: Sequence[str] = ()) -> bool:
    """The name occurs in the text as whole words (a plural in the text counts too)."""
    name = list(_words(name_norm))
    return contains_phrase(list(words), name) or contains_phrase(list(singulars), name)


def relevance(
    fact: Fact, words: Sequence[str], forms: frozenset[str], singulars: Sequence[str] = ()
) -> float:
    score = 0.0
    if mentions(fact.subject_norm, words, singulars):
        score += SUBJECT_WEIGHT
    if predicate_matches(fact.predicate_norm, words, forms):
        score += PREDICATE_WEIGHT
    if mentions(fact.object_norm, words, singulars):
        score += OBJECT_WEIGHT
    return round(min(score, 1.0), 2)


def rank(facts: Iterable[Fact], analysis: Analysis, context: str | None) -> list[ScoredFact]:
    """Every candidate scored, then sorted: relevance, then how well it fits the context,
    then facts about a named entity, then confidence, then age."""
    context_words = tuple(t.norm for t in tokenize(context or ""))
    context_singulars = tuple(singular(w) for w in context_words)
    context_forms = frozenset(
        f for w in context_words if w not in STOP_WORDS for f in word_forms(w)
    )
    names = analysis.entity_norms
    scored = [
        ScoredFact(
            fact,
            relevance(fact, analysis.words, analysis.forms, analysis.singulars),
            relevance(fact, context_words, context_forms, context_singulars)
            if context_words
            else 0.0,
        )
        for fact in facts
    ]
    scored.sort(
        key=lambda s: (
            -s.relevance,
            -s.context_score,
            s.fact.subject_norm not in names,
            -s.fact.confidence,
            s.fact.id,
        )
    )
    return scored


# -- phrasing -----------------------------------------------------------------------------


def human(text: str) -> str:
    return text.replace("_", " ")


def say(fact: Fact) -> str:
    return human(f"{fact.subject} {fact.predicate} {fact.object}")


def join_names(names: Sequence[str], limit: int = 10) -> str:
    names = [human(n) for n in names]
    if len(names) > limit:
        return f"{', '.join(names[:limit])} and {len(names) - limit} more"
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def without_inverses(facts: Iterable[Fact]) -> list[Fact]:
    """Drop "Pizza party proposed by alice" once "alice proposed Pizza party" is listed."""
    seen: set[frozenset[str]] = set()
    kept = []
    for fact in facts:
        pair = frozenset((fact.subject_norm, fact.object_norm))
        if pair not in seen:
            seen.add(pair)
            kept.append(fact)
    return kept


def _listing(pool: Sequence[Fact]) -> tuple[int, str] | None:
    """Facts sharing the top fact's subject and predicate (or predicate and object)."""
    if not pool:
        return None
    top = pool[0]
    by_subject = [f for f in pool if (f.subject_norm, f.predicate_norm) == top.key[:2]]
    by_object = [f for f in pool if (f.predicate_norm, f.object_norm) == top.key[1:]]
    if len(by_object) > len(by_subject):
        names = [f.subject for f in by_object]
        return len(names), f"{join_names(names)} {human(top.predicate)} {human(top.object)}"
    names = [f.object for f in by_subject]
    return len(names), f"{human(top.subject)} {human(top.predicate)} {join_names(names)}"


def generate_answer(top: Sequence[Fact], pool: Sequence[Fact], analysis: Analysis) -> str:
    """Spec 000's templates (what/who/where), plus when, how many and which; otherwise the
    top three facts. ``top`` is what the user is shown; ``pool`` every ranked candidate."""
    question_predicates = analysis.predicates
    focus = [f for f in top if f.predicate_norm in question_predicates]
    words = list(analysis.words)
    kind = analysis.qtype
    if kind == "what" and analysis.be_question:
        fact = next((f for f in top if f.predicate_norm in WHAT_IS), None)
        if fact is not None:
            return human(f"{fact.subject} is {fact.object}")
    elif kind == "who":
        names = analysis.entity_norms
        if names and any({f.subject_norm, f.object_norm} & names for f in focus):
            # "who looks after the library corner?": not who looks after another room
            focus = [f for f in focus if {f.subject_norm, f.object_norm} & names]
        unknown_subject = [f for f in focus if mentions(f.object_norm, words)]
        spec_fact = next((f for f in top if f.predicate_norm in WHO_PREDICATES), None)
        fact = next(iter(unknown_subject or focus), None) or spec_fact
        if fact is not None:
            return say(fact)
    elif kind == "where":
        fact = next((f for f in top if f.predicate_norm in WHERE_IS), None)
        if fact is not None:
            return human(f"{fact.subject} is {fact.predicate} {fact.object}")
        fact = next((f for f in top if f.predicate_norm in WHERE_OTHER), None)
        if fact is not None:
            verb = "was " if fact.predicate_norm == "born in" else ""
            return human(f"{fact.subject} {verb}{fact.predicate} {fact.object}")
    elif kind == "when":
        # a time of what the question names before a time of anything else
        named = [f for f in top if {f.subject_norm, f.object_norm} & analysis.entity_norms]
        temporal = [f for f in named or top if _TEMPORAL.search(f.object)]
        fact = next(iter([f for f in focus if f in temporal] or focus or temporal), None)
        if fact is not None:
            return say(fact)
    elif kind in ("how_many", "which"):
        listing = _listing(
            without_inverses([f for f in pool if f.predicate_norm in question_predicates] or pool)
        )
        if listing is not None:
            count, text = listing
            return f"{count}: {text}" if kind == "how_many" else text
    chosen = without_inverses(focus if kind == "what" and focus else top)[:3]
    return "; ".join(say(f) for f in chosen)


def answer_from(
    candidates: Iterable[Fact], analysis: Analysis, context: str | None, wanted: int
) -> tuple[list[ScoredFact], str]:
    """Rank every candidate, keep the ``wanted`` best with some relevance, phrase the answer."""
    ranked = [s for s in rank(candidates, analysis, context) if s.relevance > 0]
    top = ranked[:wanted]
    if not top:
        return [], ""
    return top, generate_answer([s.fact for s in top], [s.fact for s in ranked], analysis)
