"""The data set's content, made in memory: proposals, documents and facts from real sentences.

Embedding 30,000 texts with the real model would take minutes, so about 2,000 distinct
sentences (proposal titles, proposal description sentences and document sentences over ten
community topics) are embedded once by the real all-MiniLM-L6-v2 int8 model. A proposal's
text is its title plus three of those sentences, a chunk's text three of them, and each
entry's vector is the L2-normalised mean of its sentences' vectors, so both the lexical and
the semantic search find real words and meanings.

Proposals get types, statuses, options, outcomes and dates spread over two years; documents
have 10 chunks (15% attached to a proposal). Facts are those the app derives from proposals
(ProposalFactsSync's ``proposal_facts``, newest proposals first, at most 60% of --facts) and
community facts (who manages, maintains or lives where; events and venues).
"""

from __future__ import annotations

import hashlib
import random
import uuid
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import numpy as np

from bench.ask_community import (
    COMPANIES,
    DESCRIPTION,
    FIRST,
    GUIDE,
    GUIDE_TITLES,
    HOBBIES,
    LAST,
    MONTHS,
    NOW,
    OPTION_SETS,
    PEOPLE,
    QUALIFIERS,
    SEASONS,
    STREETS,
    TOPICS,
    VENUES,
)
from bench.common import CHANNEL_ID

CHUNKS_PER_DOCUMENT = 10
PROPOSAL_FACT_SHARE = 0.6


def _fill(template: str, rnd: random.Random, **values: str) -> str:
    people = rnd.choice(PEOPLE)
    return template.format(
        people=people, People=people[0].upper() + people[1:], season=rnd.choice(SEASONS),
        amount=str(rnd.randrange(2, 60) * 50), hour=f"{rnd.randrange(7, 11)} am",
        month=f"{rnd.choice(MONTHS)} {rnd.choice((2024, 2025, 2026))}", **values,
    )  # fmt: skip


@dataclass
class Texts:
    """Every distinct sentence the data set is built from, and its real embedding."""

    sentences: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    vectors: np.ndarray | None = None

    def add(self, text: str) -> int:
        if text not in self.index:
            self.index[text] = len(self.sentences)
            self.sentences.append(text)
        return self.index[text]

    def mean(self, ids: list[int]) -> np.ndarray:
        assert self.vectors is not None
        v = self.vectors[ids].mean(axis=0)
        return v / np.linalg.norm(v)


@dataclass
class Pools:
    titles: dict[tuple[str, str, str], int]  # (topic, act, thing) -> sentence id
    description: dict[tuple[str, str], list[int]]  # (topic, thing) -> sentence ids
    guide: dict[tuple[str, str], list[int]]


def make_pools(texts: Texts, rnd: random.Random) -> Pools:
    titles, description, guide = {}, defaultdict(list), defaultdict(list)
    for topic, (things, acts) in TOPICS.items():
        for thing in things:
            for act in acts:
                titles[topic, act, thing] = texts.add(f"{act.capitalize()} the {thing}")
            for template in DESCRIPTION:
                sentence = _fill(template, rnd, thing=thing, act=rnd.choice(acts))
                description[topic, thing].append(texts.add(sentence))
            for template in GUIDE:
                guide[topic, thing].append(texts.add(_fill(template, rnd, thing=thing)))
    return Pools(titles, dict(description), dict(guide))


def make_proposals(n: int, people: list[Any], texts: Texts, pools: Pools, rnd: random.Random):
    """Proposals (domain objects) and each one's sentence ids, oldest first."""
    from app.domain.models import Proposal, ProposalStatus, ProposalType

    weights = [1 / (k + 1) ** 0.8 for k in range(len(people))]  # a few very active members
    created = sorted(NOW - timedelta(minutes=rnd.randrange(60, 730 * 24 * 60)) for _ in range(n))
    proposals, sentences = [], []
    for i, created_at in enumerate(created, start=1):
        topic = rnd.choice(list(TOPICS))
        things, acts = TOPICS[topic]
        thing, act = rnd.choice(things), rnd.choice(acts)
        other = rnd.choice([t for t in things if t != thing])
        said = [
            *rnd.sample(pools.description[topic, thing], 2),
            rnd.choice(pools.description[topic, other]),
        ]
        deadline = created_at + timedelta(hours=rnd.randrange(2 * 24, 21 * 24))
        kind = ProposalType.MULTIPLE_CHOICE if rnd.random() < 0.7 else ProposalType.FREE_FORM
        options = list(rnd.choice(OPTION_SETS)) if kind is ProposalType.MULTIPLE_CHOICE else []
        if rnd.random() < 0.06:
            status = ProposalStatus.CANCELLED
        else:
            status = ProposalStatus.OPEN if deadline > NOW else ProposalStatus.CLOSED
        outcome = raw = None
        if status is ProposalStatus.CLOSED and options:
            winner, votes = rnd.choice(options), rnd.randrange(5, 60)
            outcome = (
                f"{winner} won with {rnd.randrange(votes // 2 + 1, votes + 1)} of {votes} votes."
            )
            raw = {"winners": [winner], "total_votes": votes}
        elif status is ProposalStatus.CLOSED:
            outcome = f"{rnd.randrange(3, 30)} ideas were collected about the {thing}."
        proposer = rnd.choices(people, weights)[0]
        proposals.append(
            Proposal(
                id=i, proposer_id=proposer.telegram_id,
                title=f"{act.capitalize()} the {thing}{rnd.choice(QUALIFIERS)}",
                description=" ".join(texts.sentences[s] for s in said),
                proposal_type=kind, options=options, created_at=created_at,
                deadline_at=deadline, status=status, target_channel_id=CHANNEL_ID,
                channel_message_id=1000 + i,
                closed_at=deadline if status is ProposalStatus.CLOSED else None,
                outcome=outcome, raw_results=raw, proposer=proposer,
            )
        )  # fmt: skip
        sentences.append([pools.titles[topic, act, thing], *said])
    return proposals, sentences


@dataclass
class Chunk:
    id: str
    document_id: str
    index: int
    sentences: list[int]
    content: str


def make_documents(n_chunks: int, proposals: list[Any], texts: Texts, pools: Pools, rnd: Any):
    """Documents of 10 chunks; each chunk is three sentences, two about the document's thing."""
    keys = list(pools.guide)
    ids = random.Random(rnd.random())
    documents, chunks = [], []
    for d in range(-(-n_chunks // CHUNKS_PER_DOCUMENT)):
        topic, thing = keys[d % len(keys)]
        doc_id = str(uuid.UUID(int=ids.getrandbits(128), version=4))
        title = rnd.choice(GUIDE_TITLES).format(thing=thing) + f" (v{d // len(keys) + 1})"
        attached = rnd.choice(proposals).id if rnd.random() < 0.15 else None
        pieces = []
        for k in range(min(CHUNKS_PER_DOCUMENT, n_chunks - len(chunks))):
            other = rnd.choice(TOPICS[topic][0])
            said = [
                *rnd.sample(pools.guide[topic, thing], 2),
                rnd.choice(pools.guide[topic, other]),
            ]
            rnd.shuffle(said)
            content = " ".join(texts.sentences[s] for s in said)
            pieces.append(content)
            chunk_id = str(uuid.UUID(int=ids.getrandbits(128), version=4))
            chunks.append(Chunk(chunk_id, doc_id, k, said, content))
        content = f"{title}\n\n" + "\n\n".join(pieces)
        documents.append(
            {
                "id": doc_id, "title": title, "content": content, "source": None,
                "category": topic, "scope": f"proposal:{attached}" if attached else "global",
                "proposal_id": attached, "owner_id": None,
                "content_hash": hashlib.sha256(content.encode()).hexdigest(),
                "chunk_size": 500, "chunk_overlap": 50, "extra": {},
                "created_at": NOW - timedelta(days=rnd.randrange(1, 700)), "updated_at": NOW,
            }
        )  # fmt: skip
    return documents, chunks


def community_facts(
    n: int, people: list[Any], rnd: random.Random
) -> Iterator[tuple[str, str, str]]:
    """Who manages, maintains and hosts what; then facts about people until ``n``."""
    names = [f"{u.first_name} {u.last_name}" for u in people]
    names += [f"{f} {last}" for f in FIRST for last in LAST if f"{f} {last}" not in names]
    made = 0
    for topic, (things, _) in TOPICS.items():
        for thing in things:
            for person in rnd.sample(names, 2):
                yield person, "manages", thing
            yield rnd.choice(names), "maintains", thing
            yield thing, "located at", rnd.choice(VENUES)
            if topic == "events":
                yield thing, "held at", rnd.choice(VENUES)
                yield rnd.choice(names), "organises", thing
            made += 5
    for venue in VENUES:
        yield venue, "managed by", rnd.choice(names)
        yield venue, "located on", rnd.choice(STREETS)
        made += 2
    for user in people[:60]:  # the people questions ask about
        name = f"{user.first_name} {user.last_name}"
        yield name, "enjoys", rnd.choice(HOBBIES)
        yield name, "works for", rnd.choice(COMPANIES)
        made += 2
    groups = [f"{topic} working group" for topic in TOPICS]
    while made < n:
        person, r = rnd.choice(names), rnd.random()
        if r < 0.2:
            fact = (person, "lives on", rnd.choice(STREETS))
        elif r < 0.35:
            fact = (person, "works for", rnd.choice(COMPANIES))
        elif r < 0.5:
            fact = (person, "member of", rnd.choice(groups))
        elif r < 0.65:
            fact = (person, "enjoys", rnd.choice(HOBBIES))
        elif r < 0.75:
            fact = (person, "volunteers at", rnd.choice(TOPICS["events"][0]))
        else:
            fact = (person, "knows", rnd.choice(names))
        yield fact
        made += 1


def fact_rows(proposals: list[Any], n: int, people: list[Any], rnd: random.Random):
    """LoadRows for ``FactRepository.bulk_upsert``: unique by normal form, sorted."""
    from app.core.graph.proposal_facts import proposal_facts, proposal_source, proposer_name
    from app.nlp.key_terms import normalize
    from app.nlp.lexical import fact_lexical

    rows: dict[tuple[str, str, str], tuple[Any, ...]] = {}

    def add(s: str, p: str, o: str, confidence: float, source: str) -> None:
        key = (normalize(s), normalize(p), normalize(o))
        rows[key] = (s, p, o, *key, confidence, source, fact_lexical(s, p, o, "en"))

    budget = int(n * PROPOSAL_FACT_SHARE)
    with_facts = 0
    for proposal in reversed(proposals):  # the newest first
        triples = proposal_facts(proposal, proposer_name(proposal))
        if len(rows) + len(triples) > budget:
            break
        for s, p, o in triples:
            add(s, p, o, 1.0, proposal_source(proposal.id))
        with_facts += 1
    for s, p, o in community_facts(n, people, rnd):
        if len(rows) >= n:
            break
        add(s, p, o, rnd.randint(60, 100) / 100, "manual")
    return sorted(rows.values(), key=lambda r: r[3:6]), with_facts
