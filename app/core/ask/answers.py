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

from app.core.ask.analysis import STOP_WORDS
from app.core.ask.models import CREATION, AskFilters, DocumentHit
from app.domain.messages import N_
from app.domain.models import Proposal, ProposalStatus, ProposalType, User
from app.i18n import Translator
from app.nlp.key_terms import word_forms

LIST_LIMIT = 25
EXCERPT = 300
MAX_SENTENCE = 280  # a "sentence" from a table or a list can run on
NOT_FOUND = N_(
    "I couldn't find any proposals matching your query: '{query}'. "
    "You can try rephrasing or broadening your search."
)
NO_ANSWER = N_(
    "Based on the available data, I cannot find an answer to your question in the knowledge base."
)
TYPE_WORDS = {
    ProposalType.MULTIPLE_CHOICE: N_("multiple-choice"),
    ProposalType.FREE_FORM: N_("free-form"),
}
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(])")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def day(moment: datetime, tr: Translator) -> str:
    """A calendar day in the reader's language and BOT_TIMEZONE: "1 Nov 2026"."""
    return tr.day(moment)


def quoted(words: Sequence[str], tr: Translator) -> str:
    """“boat”, or “boat” and “harbour” (in the reader's language)."""
    marked = [f"“{w}”" for w in words]
    if len(marked) == 1:
        return marked[0]
    return tr("{some} or {last}", some=", ".join(marked[:-1]), last=marked[-1])


def proposer_of(proposal: Proposal) -> str:
    return (proposal.proposer or User(telegram_id=proposal.proposer_id)).display_name


def describe_range(filters: AskFilters, tr: Translator, count: int = 2) -> str | None:
    """ "created between 1 Nov 2026 and 30 Nov 2026", "closing before 10 May 2026"...,
    agreeing with ``count`` proposals (Spanish "creada" for one, "creadas" for more)."""
    if not filters.has_range:
        return None
    created = filters.date_field == CREATION
    start, end = filters.start, filters.end
    last = end - timedelta(microseconds=1) if end else None
    if start and last:
        first, final = day(start, tr), day(last, tr)
        if first == final:
            if created:
                return tr.ngettext("created on {day}", "created on {day}", count, day=first)
            return tr.ngettext("closing on {day}", "closing on {day}", count, day=first)
        if created:
            return tr.ngettext(
                "created between {start} and {end}", "created between {start} and {end}",
                count, start=first, end=final,
            )  # fmt: skip
        return tr.ngettext(
            "closing between {start} and {end}", "closing between {start} and {end}",
            count, start=first, end=final,
        )  # fmt: skip
    if start:
        since = day(start, tr)
        if created:
            return tr.ngettext("created since {day}", "created since {day}", count, day=since)
        return tr.ngettext("closing since {day}", "closing since {day}", count, day=since)
    assert end is not None
    before = day(end, tr)
    if created:
        return tr.ngettext("created before {day}", "created before {day}", count, day=before)
    return tr.ngettext("closing before {day}", "closing before {day}", count, day=before)


def _head(filters: AskFilters, tr: Translator, count: int) -> str:
    """ "open multiple-choice proposals": status, type and noun agree in each language."""
    status, kind = filters.status, filters.proposal_type
    mc, ff = ProposalType.MULTIPLE_CHOICE, ProposalType.FREE_FORM
    if status is ProposalStatus.OPEN:
        if kind is mc:
            return tr.ngettext(
                "open multiple-choice proposal", "open multiple-choice proposals", count
            )
        if kind is ff:
            return tr.ngettext("open free-form proposal", "open free-form proposals", count)
        return tr.ngettext("open proposal", "open proposals", count)
    if status is ProposalStatus.CLOSED:
        if kind is mc:
            return tr.ngettext(
                "closed multiple-choice proposal", "closed multiple-choice proposals", count
            )
        if kind is ff:
            return tr.ngettext("closed free-form proposal", "closed free-form proposals", count)
        return tr.ngettext("closed proposal", "closed proposals", count)
    if status is ProposalStatus.CANCELLED:
        if kind is mc:
            return tr.ngettext(
                "cancelled multiple-choice proposal", "cancelled multiple-choice proposals", count
            )
        if kind is ff:
            return tr.ngettext(
                "cancelled free-form proposal", "cancelled free-form proposals", count
            )
        return tr.ngettext("cancelled proposal", "cancelled proposals", count)
    if kind is mc:
        return tr.ngettext("multiple-choice proposal", "multiple-choice proposals", count)
    if kind is ff:
        return tr.ngettext("free-form proposal", "free-form proposals", count)
    # The noun alone in the form for ``count`` (Russian has three): the counted phrase
    # without its number.
    counted = tr.ngettext("{n} proposal", "{n} proposals", count)
    return " ".join(counted.replace(str(count), "", 1).split())


def describe_filters(filters: AskFilters, tr: Translator, count: int = 2, about: str = "") -> str:
    """ "open multiple-choice proposals about “x” by @alice created between ..." """
    words = [_head(filters, tr, count)]
    if about:
        words.append(tr("about “{topic}”", topic=about))
    if filters.proposer_name:
        who = tr("you") if filters.proposer_name == "you" else filters.proposer_name
        words.append(tr("by {name}", name=who))
    if (when := describe_range(filters, tr, count)) is not None:
        words.append(when)
    return " ".join(words)


def proposal_line(proposal: Proposal, tr: Translator, now: datetime | None = None) -> str:
    """One proposal as a line; ``now``: a proposal whose deadline has passed before it
    was closed is told as ended, not as open until a day in the past."""
    if now is not None and proposal.awaits_close_at(now):
        state = tr(
            "voting ended {day}, results not yet published", day=day(proposal.deadline_at, tr)
        )
    elif proposal.status is ProposalStatus.OPEN:
        state = tr("open until {day}", day=day(proposal.deadline_at, tr))
    elif proposal.status is ProposalStatus.CLOSED:
        state = tr("closed {day}", day=day(proposal.deadline_at, tr))
        if proposal.is_multiple_choice and proposal.outcome:
            state += tr(", result: {outcome}", outcome=proposal.outcome)
    else:
        state = tr("cancelled")
    return tr(
        "#{id} {title} ({state}; {kind}; proposed by {proposer} on {day})",
        id=proposal.id,
        title=proposal.title,
        state=state,
        kind=tr(TYPE_WORDS[proposal.proposal_type]),
        proposer=proposer_of(proposal),
        day=day(proposal.created_at, tr),
    )


def proposal_evidence(proposal: Proposal, tr: Translator, now: datetime | None = None) -> str:
    """What a model may read about a proposal: public facts only. Never votes, voters or
    ideas (a free-form proposal's outcome is only a count)."""
    text = " ".join(proposal.description.split())[:EXCERPT]
    options = f" Options: {', '.join(proposal.options)}." if proposal.options else ""
    return f"{proposal_line(proposal, tr, now)}. {text}{options}"


VOTERS_UNSEEN = N_(
    "Votes are anonymous: nobody, admins included, can see who voted for what. "
    "Only the totals are shown, in the results."
)


def proposals_lead(
    question: str, filters: AskFilters, keywords: str | None, found: Sequence[Proposal],
    total: int, tr: Translator,
) -> str:  # fmt: skip
    """The listing's first line (each proposal's line names its proposer: "who proposed
    ...?" is answered there)."""
    if not found:
        return tr(NOT_FOUND, query=question)
    if not filters.active and not keywords:
        return tr.ngettext(
            "There is {n} proposal so far.", "There are {n} proposals so far.", total
        )
    return tr(
        "I found {count} {what}.",
        count=total,
        what=describe_filters(filters, tr, total, keywords or ""),
    )


def listing(
    found: Sequence[Proposal], total: int, tr: Translator, now: datetime | None = None
) -> list[str]:
    lines = [proposal_line(p, tr, now) for p in found[:LIST_LIMIT]]
    if total > len(lines):
        lines.append(
            tr(
                "…and {count} more. Add a date, a status or a topic to narrow it down.",
                count=total - len(lines),
            )
        )
    return lines


def proposals_how(
    filters: AskFilters, keywords: str | None, filtered_total: int | None, total: int,
    by_words: int, by_meaning: int, tr: Translator, meaning: bool = True,
) -> str:  # fmt: skip
    """``meaning``: whether the search used meaning too (not in a language the embedding
    model does not read)."""
    parts = []
    if filters.active:
        matches = tr.ngettext("{n} proposal", "{n} proposals", filtered_total or 0)
        parts.append(
            tr("I filtered for {what} ({matches})", what=describe_filters(filters, tr),
               matches=matches)
        )  # fmt: skip
    if keywords:
        where = tr("those") if filters.active else tr("all proposals")
        if not meaning:
            how = tr.ngettext(
                "searched {where} for “{words}” by words only (my search by meaning reads "
                "English only): {n} matched",
                "searched {where} for “{words}” by words only (my search by meaning reads "
                "English only): {n} matched",
                by_words,
                where=where, words=keywords,
            )  # fmt: skip
        elif total and by_meaning:
            how = tr.ngettext(
                "searched {where} for “{words}” by words and by meaning: {n} matched "
                "the words, {by_meaning} the meaning",
                "searched {where} for “{words}” by words and by meaning: {n} matched "
                "the words, {by_meaning} the meaning",
                by_words,
                where=where, words=keywords, by_meaning=by_meaning,
            )  # fmt: skip
        elif total:
            how = tr.ngettext(
                "searched {where} for “{words}” by words and by meaning: {n} matched "
                "the words",
                "searched {where} for “{words}” by words and by meaning: {n} matched "
                "the words",
                by_words,
                where=where, words=keywords,
            )  # fmt: skip
        else:
            how = tr(
                "searched {where} for “{words}” by words and by meaning",
                where=where, words=keywords,
            )  # fmt: skip
        parts.append(tr("then {step}", step=how) if parts else tr("I {step}", step=how))
    if not parts:
        return tr(
            "How I found this: no filters or topic in the question, so I listed every proposal."
        )
    return tr("How I found this: {steps}.", steps=", ".join(parts))


def _content_forms(text: str) -> set[str]:
    forms: set[str] = set()
    for word in _WORD.findall(text.casefold()):
        if word not in STOP_WORDS and len(word) > 2:
            forms |= word_forms(word)
    return forms


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


def about_proposal(proposal: Proposal, question: str, passages: Sequence[str] = ()) -> str:
    """What one proposal says about the question: "#12 “Title”: " and the sentences of its
    description and ``passages`` that share most words with it (its description when
    there is no question)."""
    details = [proposal.description, *passages]
    picked = best_sentences(question, details) if question else [proposal.description]
    return _titled(proposal, picked)


def proposal_detail(proposal: Proposal, question: str, extra: Sequence[str] = ()) -> str | None:
    """What a proposal's description (and ``extra``: its options) says that the question
    asks beyond naming it ("what would the washing machine cost": the sentence with the
    cost), after its number and title; None when no sentence says more than the title."""
    beyond = _content_forms(question) - _content_forms(proposal.title)
    picked = [
        s for s in best_sentences(question, [proposal.description, *extra])
        if _content_forms(s) & beyond
    ]  # fmt: skip
    return _titled(proposal, picked) if picked else None


def _titled(proposal: Proposal, sentences: Sequence[str]) -> str:
    """A proposal's sentences quoted after its number and title: "#12 “Title”: ..." """
    return f"#{proposal.id} “{proposal.title}”: " + " ".join(sentences)


def options_line(proposal: Proposal, tr: Translator) -> str:
    return tr("Options: {options}", options=", ".join(proposal.options))


def according_to(quoted: Sequence[tuple[DocumentHit, str]], tr: Translator) -> str:
    """A line per document quoted, each named: "According to “House rules”: ..." """
    return "\n".join(
        tr("According to “{title}”:", title=hit.title) + " " + said for hit, said in quoted
    )


def documents_lead(question: str, hits: Sequence[DocumentHit], tr: Translator) -> str:
    first = hits[0].title
    passages = [h.content for h in hits if h.title == first][:2]
    return according_to([(hits[0], " ".join(best_sentences(question, passages)))], tr)


def cited(hits: Sequence[DocumentHit], tr: Translator) -> str:
    seen: dict[str, str] = {}
    for hit in hits:
        seen.setdefault(hit.document_id, hit.title)
    return "; ".join(
        tr("“{title}” (document {id})", title=title, id=doc_id) for doc_id, title in seen.items()
    )


def sources(hits: Sequence[DocumentHit], tr: Translator) -> str:
    return tr("Sources: {documents}.", documents=cited(hits, tr))


def related_documents(hits: Sequence[DocumentHit], tr: Translator) -> str:
    return tr("Related documents: {documents}.", documents=cited(hits, tr))


def documents_how(hits: Sequence[DocumentHit], tr: Translator) -> str:
    titles = ", ".join(f"“{t}”" for t in dict.fromkeys(h.title for h in hits))
    return tr.ngettext(
        "How I found this: I searched the documents for passages close in meaning to your "
        "question; the {n} closest passage came from {titles}.",
        "How I found this: I searched the documents for passages close in meaning to your "
        "question; the {n} closest passages came from {titles}.",
        len(hits),
        titles=titles,
    )
