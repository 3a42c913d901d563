"""The words of an /ask answer, built only from what was retrieved.

Every answer has the same shape: the direct answer first (the lead, which a model
may rephrase), then what was found (proposal lines, sources), then how it was
found (filters, words, documents), then where to look next. Everything after the
lead is composed here from the data, so citations are always real.

Plain text: the bot escapes it for Telegram, the CLI prints it as is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from app.core.ask.analysis import STOP_WORDS
from app.core.ask.models import CREATION, AskFilters, DocumentHit
from app.domain.models import Proposal, ProposalStatus, ProposalType, User
from app.nlp.key_terms import word_forms

LIST_LIMIT = 25
EXCERPT = 300
MAX_SENTENCE = 280  # a "sentence" from a table or a list can run on
NOT_FOUND = (
    "I couldn't find any proposals matching your query: '{query}'. "
    "You can try rephrasing or broadening your search."
)
NO_ANSWER = (
    "Based on the available data, I cannot find an answer to your question in the knowledge base."
)
KNOWLEDGE_HINT = (
    "I searched the documents and the knowledge graph. Try other words, ask about "
    "proposals (/ask which proposals are open?), or browse documents with /view_global_docs."
)
TYPE_WORDS = {ProposalType.MULTIPLE_CHOICE: "multiple-choice", ProposalType.FREE_FORM: "free-form"}
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(])")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def quoted(words: Sequence[str]) -> str:
    """“boat”, or “boat” and “harbour”."""
    marked = [f"“{w}”" for w in words]
    return marked[0] if len(marked) == 1 else ", ".join(marked[:-1]) + " or " + marked[-1]


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def day(moment: datetime, tz: ZoneInfo) -> str:
    return f"{moment.astimezone(tz):%-d %b %Y}"


def proposer_of(proposal: Proposal) -> str:
    return (proposal.proposer or User(telegram_id=proposal.proposer_id)).display_name


def describe_range(filters: AskFilters, tz: ZoneInfo) -> str | None:
    """ "created between 1 Nov 2026 and 30 Nov 2026", "closing before 10 May 2026"..."""
    if not filters.has_range:
        return None
    verb = "created" if filters.date_field == CREATION else "closing"
    start, end = filters.start, filters.end
    last = end - timedelta(microseconds=1) if end else None
    if start and last:
        if day(start, tz) == day(last, tz):
            return f"{verb} on {day(start, tz)}"
        return f"{verb} between {day(start, tz)} and {day(last, tz)}"
    if start:
        return f"{verb} since {day(start, tz)}"
    assert end is not None
    return f"{verb} before {day(end, tz)}"


def describe_filters(filters: AskFilters, tz: ZoneInfo, count: int = 2, about: str = "") -> str:
    """ "open multiple-choice proposals about “x” by @alice created between ..." """
    words = []
    if filters.status:
        words.append(filters.status.value)
    if filters.proposal_type:
        words.append(TYPE_WORDS[filters.proposal_type])
    words.append("proposal" if count == 1 else "proposals")
    if about:
        words.append(f"about “{about}”")
    if filters.proposer_name:
        words.append(f"by {filters.proposer_name}")
    if (when := describe_range(filters, tz)) is not None:
        words.append(when)
    return " ".join(words)


def proposal_line(proposal: Proposal, tz: ZoneInfo) -> str:
    if proposal.status is ProposalStatus.OPEN:
        state = f"open until {day(proposal.deadline_at, tz)}"
    elif proposal.status is ProposalStatus.CLOSED:
        state = f"closed {day(proposal.deadline_at, tz)}"
        if proposal.is_multiple_choice and proposal.outcome:
            state += f", result: {proposal.outcome}"
    else:
        state = "cancelled"
    return (
        f"#{proposal.id} {proposal.title} ({state}; {TYPE_WORDS[proposal.proposal_type]}; "
        f"proposed by {proposer_of(proposal)} on {day(proposal.created_at, tz)})"
    )


def proposal_evidence(proposal: Proposal, tz: ZoneInfo) -> str:
    """What a model may read about a proposal: public facts only. Never votes, voters or
    ideas (a free-form proposal's outcome is only a count)."""
    text = " ".join(proposal.description.split())[:EXCERPT]
    options = f" Options: {', '.join(proposal.options)}." if proposal.options else ""
    return f"{proposal_line(proposal, tz)}. {text}{options}"


def proposals_lead(
    question: str, filters: AskFilters, keywords: str | None, found: Sequence[Proposal],
    total: int, tz: ZoneInfo,
) -> str:  # fmt: skip
    if not found:
        return NOT_FOUND.format(query=question)
    first = found[0]
    if re.match(r"\s*who\b", question, re.I) and (total == 1 or keywords):
        lead = f"“{first.title}” (#{first.id}) was proposed by {proposer_of(first)}."
        if total > 1:
            lead += f" {plural(total - 1, 'other proposal')} also matched."
        return lead
    if not filters.active and not keywords:
        return f"There {'is' if total == 1 else 'are'} {plural(total, 'proposal')} so far."
    return f"I found {total} {describe_filters(filters, tz, total, keywords or '')}."


def listing(found: Sequence[Proposal], total: int, tz: ZoneInfo) -> list[str]:
    lines = [proposal_line(p, tz) for p in found[:LIST_LIMIT]]
    if total > len(lines):
        lines.append(
            f"…and {total - len(lines)} more. Add a date, a status or a topic to narrow it down."
        )
    return lines


def proposals_how(
    filters: AskFilters, keywords: str | None, filtered_total: int | None, total: int,
    by_words: int, by_meaning: int, tz: ZoneInfo, category: tuple[str, int] | None = None,
) -> str:  # fmt: skip
    parts = []
    if filters.active:
        matches = plural(filtered_total or 0, "proposal")
        parts.append(f"I filtered for {describe_filters(filters, tz)} ({matches})")
    if keywords:
        where = "those" if filters.active else "all proposals"
        how = f"searched {where} for “{keywords}” by words and by meaning"
        if total:
            how += f": {by_words} matched the words"
            if by_meaning:
                how += f", {by_meaning} the meaning"
            if category and category[1]:
                how += f", {category[1]} are about {category[0]} in other words"
        parts.append(("then " if parts else "I ") + how)
    if not parts:
        return "How I found this: no filters or topic in the question, so I listed every proposal."
    return "How I found this: " + ", ".join(parts) + "."


def proposal_hints(found: Sequence[Proposal]) -> str:
    if not found:
        return "Try /proposals to browse everything, or ask about a topic, a status or a date."
    example = found[0].id
    hint = f"To see your own vote on one of these, send /my_vote <id> (e.g. /my_vote {example})."
    closed = [p.id for p in found if p.status is ProposalStatus.CLOSED]
    if closed:
        hint += (
            " For the results of a closed one, send /view_results <id> "
            f"(e.g. /view_results {closed[0]})."
        )
    return hint


def _content_forms(text: str) -> set[str]:
    forms: set[str] = set()
    for word in _WORD.findall(text.casefold()):
        if word not in STOP_WORDS and len(word) > 2:
            forms |= word_forms(word)
    return forms


# Words that name a kind of document, not a subject: "policy on dragons" is not about
# the parking policy.
_GENERIC = frozenset(
    "policy policies rule rules document documents doc docs guideline guidelines process "
    "procedure procedures regulation regulations handbook manual faq work works".split()
)


def shares_words(question: str, text: str) -> bool:
    """Whether the text contains a subject word of the question (any form of it)."""
    wanted = {f for f in _content_forms(question) if f not in _GENERIC}
    return bool(wanted & _content_forms(text))


def best_sentences(question: str, passages: Sequence[str], limit: int = 2) -> list[str]:
    """The sentences of the passages that share the most words with the question, in
    their original order: an extractive answer needs no model."""
    wanted = _content_forms(question)
    scored = []
    order = 0
    for passage in passages:
        sentences = _SENTENCE.split(" ".join(passage.split()))
        if len(sentences) > 1 and sentences[0][:1].islower():
            sentences = sentences[1:]  # the chunk starts mid-sentence: skip the fragment
        if len(sentences) > 1 and sentences[-1][-1:] not in ".!?":
            sentences = sentences[:-1]  # and ends mid-sentence
        for sentence in sentences:
            overlap = len(wanted & _content_forms(sentence))
            scored.append((overlap, -order, sentence.strip()))
            order += 1
    top = sorted(scored, reverse=True)[:limit]
    chosen = [s for o, _, s in sorted(top, key=lambda t: -t[1]) if s and (o or not wanted)]
    chosen = chosen or ([scored[0][2]] if scored else [])
    return [c if len(c) <= MAX_SENTENCE else c[: MAX_SENTENCE - 1].rstrip() + "…" for c in chosen]


def documents_lead(question: str, hits: Sequence[DocumentHit]) -> str:
    first = hits[0].title
    passages = [h.content for h in hits if h.title == first][:2]
    return f"According to “{first}”: " + " ".join(best_sentences(question, passages))


def sources(hits: Sequence[DocumentHit]) -> str:
    seen: dict[str, str] = {}
    for hit in hits:
        seen.setdefault(hit.document_id, hit.title)
    cited = "; ".join(f"“{title}” (document {doc_id})" for doc_id, title in seen.items())
    return f"Sources: {cited}."


def documents_how(hits: Sequence[DocumentHit]) -> str:
    titles = list(dict.fromkeys(h.title for h in hits))
    return (
        f"How I found this: I searched the documents for passages close in meaning to your "
        f"question; the {plural(len(hits), 'closest passage')} came from "
        + ", ".join(f"“{t}”" for t in titles)
        + "."
    )
