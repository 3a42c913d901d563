"""Reading /ask questions in any language with a cue table (``app.core.ask.cues``).

One code path for every table, in the order the English reader uses: the date phrase
first (so "cerradas la semana pasada" is a deadline range, not only a status), then the
proposer, the type, the status, the date field, the intent, and what is left as
topic words. Dates are found by rewriting the question into English date words
(``app.nlp.date_lexicon``) and running the English extractor; the words of the
question that made the phrase are then cut out of the original text.

English questions go to ``app.core.ask.analysis``, which knows many more forms.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import replace
from functools import cache

from app.core.ask.analysis import (
    INTENT_DOCS,
    INTENT_FACTS,
    INTENT_PROPOSALS,
    AskAnalysis,
    analyze_question,
    date_direction,
    first_match,
)
from app.core.ask.cues import Cues, load
from app.domain.models import ProposalStatus, ProposalType
from app.nlp.date_extract import counts_ahead, extract_date_phrase
from app.nlp.date_lexicon import from_now_until, to_english
from app.nlp.date_ranges import Direction

_WORD = re.compile(r"[^\W_][\w'-]*", re.UNICODE)
_EDGE = '¿¡?!.,;:"“”«»()'
MAX_DATE_WORDS = 10  # "entre el 16 de noviembre y el 22 de noviembre"


class _Compiled:
    """A table's patterns, compiled once."""

    def __init__(self, cues: Cues) -> None:
        def rx(pattern: str) -> re.Pattern[str] | None:
            return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.I) if pattern else None

        self.cues = cues
        self.proposal = rx(cues.proposal_words)
        self.docs = rx(cues.doc_words)
        self.how_to = re.compile(cues.how_to, re.I) if cues.how_to else None
        self.openers = re.compile(cues.question_openers, re.I) if cues.question_openers else None
        self.who = re.compile(cues.who, re.I) if cues.who else None
        self.status = [
            (p, s)
            for p, s in (
                (rx(cues.cancelled), ProposalStatus.CANCELLED),
                (rx(cues.open), ProposalStatus.OPEN),
                (rx(cues.closed), ProposalStatus.CLOSED),
            )
            if p is not None
        ]
        self.types = [
            (p, t)
            for p, t in (
                (rx(cues.free_form), ProposalType.FREE_FORM),
                (rx(cues.multiple_choice), ProposalType.MULTIPLE_CHOICE),
            )
            if p is not None
        ]
        self.creation = rx(cues.creation_words)
        self.deadline = rx(cues.deadline_words)
        self.future = rx(cues.future_words)
        self.past = rx(cues.past_words)
        self.proposer = [re.compile(p, re.I) for p in cues.proposer]
        self.self_proposer = re.compile(cues.self_proposer, re.I) if cues.self_proposer else None


@cache
def _compiled(language: str) -> _Compiled | None:
    cues = load(language)
    return _Compiled(cues) if cues is not None and language != "en" else None


def _search(pattern: re.Pattern[str] | None, text: str) -> re.Match[str] | None:
    return pattern.search(text) if pattern is not None else None


def english_words(phrase: str, language: str) -> str:
    """A date phrase in ``language`` rewritten word by word in English date words."""
    cues = load(language)
    if language == "en" or cues is None:
        return phrase
    for pattern, replacement in cues.date_rewrites:
        phrase = re.sub(pattern, replacement, phrase, flags=re.I)
    said = to_english(phrase, language)
    return re.sub(r"\bmay\b", "May", said)  # a lone month is only read capitalised


def english_phrase(phrase: str, language: str) -> str:
    """A date phrase in ``language`` as the English date reader wants it."""
    if language == "en" or load(language) is None:
        return phrase
    said = english_words(phrase, language)
    found, _ = extract_date_phrase(said)
    return found or said


def split_date(text: str, language: str) -> tuple[str | None, str]:
    """(the date phrase as written, the question without it)."""
    if language == "en":
        return extract_date_phrase(text)
    english = english_phrase(text, language)
    found, _ = extract_date_phrase(english)
    if found is None:
        return None, text
    wanted = found.casefold()
    words = text.split()
    for size in range(1, min(MAX_DATE_WORDS, len(words)) + 1):
        for start in range(len(words) - size + 1):
            window = " ".join(words[start : start + size]).strip(_EDGE)
            if wanted in english_phrase(window, language).casefold():
                rest = " ".join(words[:start] + words[start + size :])
                return window, rest
    return None, text


def _proposer(rules: _Compiled, text: str) -> str | None:
    if rules.self_proposer is not None and rules.self_proposer.search(text):
        return "me"
    for pattern in rules.proposer:
        for found in pattern.finditer(text):
            name = found.group(1).lstrip("@")
            if name.casefold() not in rules.cues.not_names and not _is_cue(rules, name):
                return name
    return None


def _is_cue(rules: _Compiled, word: str) -> bool:
    """A capitalised question word is not a name: "Propuestas de Ana" names Ana, not
    "Propuestas"."""
    pattern = rf"(?:{rules.cues.proposal_words})"
    return word.casefold() in rules.cues.stopwords or bool(re.fullmatch(pattern, word, re.I))


def _keywords(rules: _Compiled, text: str, drop: set[str]) -> str | None:
    cues = rules.cues
    cue_patterns = [rules.proposal, rules.creation, rules.deadline, rules.docs]
    words = []
    for match in _WORD.finditer(text):
        word = match.group(0).strip("'-")
        low = word.casefold()
        if not low or low in cues.stopwords or low in cues.filler or low in drop:
            continue
        if (low.isdigit() and len(low) < 3) or len(low) < 2:
            continue
        if any(p is not None and p.fullmatch(low) for p in cue_patterns):
            continue
        words.append(word)
    return " ".join(words) if words else None


def _intent(rules: _Compiled, text: str, for_proposals: bool) -> str:
    if _search(rules.how_to, text):
        return INTENT_DOCS
    if _search(rules.proposal, text) or for_proposals:
        return INTENT_PROPOSALS
    if _search(rules.docs, text):
        return INTENT_DOCS
    opener = _search(rules.openers, text)
    if opener and (
        _search(rules.who, text) or re.search(r"\b[^\W\d_a-zа-яё]", text[opener.end() :])
    ):
        return INTENT_FACTS
    return INTENT_DOCS


def read_question(question: str, language: str = "en", names: Collection[str] = ()) -> AskAnalysis:
    """The offline reading of a question in ``language``; never raises. ``names``: what
    the community writes with a word of state ("open source": analysis.status_names)."""
    rules = _compiled(language)
    if rules is None:
        return deadline_window(analyze_question(question, names))
    text = " ".join(question.split())
    phrase, rest = split_date(text, language)
    proposer = _proposer(rules, rest)
    kind = first_match(rules.types, rest)  # type: ignore[arg-type]
    topic = rest
    for pattern, _ in rules.types:
        topic = pattern.sub(" ", topic)
    status = first_match(rules.status, topic)  # type: ignore[arg-type]
    for pattern, _ in rules.status:
        topic = pattern.sub(" ", topic)
    date_field = None
    if phrase:
        deadline, creation = _search(rules.deadline, rest), _search(rules.creation, rest)
        late = deadline and (not creation or deadline.start() < creation.start())
        date_field = "deadline" if late else "creation"
    drop = {proposer.casefold()} if proposer else set()
    keywords = _keywords(rules, topic, drop)
    named = kind is not None or proposer is not None
    dated = phrase is not None and (
        _search(rules.deadline, rest) is not None or _search(rules.creation, rest) is not None
    )
    bare = (status is not None or phrase is not None) and keywords is None
    for_proposals = (named or dated or bare) and not _search(rules.docs, text)
    intent = _intent(rules, text, for_proposals)
    if intent != INTENT_PROPOSALS:  # filters only mean something for proposals
        return AskAnalysis(intent, _keywords(rules, text, set()), language=language)
    return deadline_window(AskAnalysis(
        intent, keywords, status, kind,  # type: ignore[arg-type]
        date_phrase=phrase, date_field=date_field, proposer=proposer, language=language,
    ))  # fmt: skip


def deadline_window(analysis: AskAnalysis) -> AskAnalysis:
    """A deadline counted ahead is every deadline from now until that day: "what closes
    in 2 weeks?", "¿qué cierra dentro de 3 días?" (a day counted back, "created 3 days
    ago", stays that day). The window is written in the question's language."""
    phrase, language = analysis.date_phrase, analysis.language
    if phrase is None or analysis.date_field != "deadline":
        return analysis
    if not counts_ahead(english_phrase(phrase, language)):
        return analysis
    return replace(analysis, date_phrase=from_now_until(phrase, language))


def asks_who(question: str, language: str) -> bool:
    """ "Who proposed ...?": a list of proposals answers with their proposers."""
    rules = _compiled(language)
    if rules is None:
        return bool(re.match(r"\s*(?:who|whose)\b", question, re.I))
    return _search(rules.who, question) is not None


# "who voted for ...?": a vote is seen by its voter only, so no answer names voters
_VOTED = re.compile(
    r"\b(?:vot(?:e|ed|es|ing)|vot[oó]|votaron|votou|votaram|проголосовал\w*|голосовал\w*)\b",
    re.I,
)
_PROPOSED = re.compile(r"propos|propus|propôs|предлож", re.I)


# "who can vote?", "who is allowed to vote?": who may, a rule of the community's, not
# who did (a verb after "to" or a modal is no vote that was cast)
_MAY_VOTE = re.compile(
    r"\b(?:to|can|could|may|might|must|should|shall|will|would)\s+(?:still\s+)?vote\b", re.I
)


def asks_who_voted(question: str, language: str) -> bool:
    """ "Who voted for the bike shelter?": a question about voters, never answered."""
    voted = _VOTED.search(question) and not _PROPOSED.search(question)
    return bool(voted) and not _MAY_VOTE.search(question) and asks_who(question, language)


# "what did I vote?", "my votes", "¿qué voté?", "meu voto", "как я проголосовал": the
# asker's own vote, which /ask never reads (it is seen by its voter only, with /my_vote)
_OWN_VOTE = re.compile(
    r"\b(?:did\s+i\s+vote|i\s+voted|have\s+i\s+voted|i've\s+voted|my\s+(?:own\s+)?(?:votes?|ballots?)"
    r"|voté|he\s+votado|mis?\s+votos?|votei|meus?\s+votos?|мо[йи]\s+голос\w*)\b"
    r"|\bя\s+(?:про)?голосовал",
    re.I,
)


# "can I change my vote?", "are votes secret or can others see how I voted?": how voting
# works, which the manual and the community's pages answer, not a vote to look up
_HOW_VOTING_WORKS = re.compile(
    r"^\W*(?:can|could|may|might|must|should|shall|will|would|is|are|am|do|does)\b", re.I
)


def asks_own_vote(question: str) -> bool:
    """ "How did I vote on the retreat?": about the asker's own vote, never read here."""
    return _OWN_VOTE.search(question) is not None and not _HOW_VOTING_WORKS.match(question)


def direction(question: str, analysis: AskAnalysis) -> Direction:
    """Which occurrence a year-less date or a bare weekday means (``date_direction``
    with the question's own words for closing and creating)."""
    rules = _compiled(analysis.language)
    if rules is None:
        return date_direction(question, analysis)
    return date_direction(question, analysis, rules.past, rules.future, rules.creation)
