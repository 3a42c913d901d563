"""Deterministic English text about community life, for the knowledge benchmark.

Sentences are composed from word lists by a seeded generator, so every run imports, embeds
and queries the same corpus; documents are sized so that ``chunk_text`` cuts each into exactly
``CHUNKS_PER_DOCUMENT`` full chunks, which keeps the chunk counts in the report exact.
"""

from __future__ import annotations

import random

CHUNK_SIZE = 500
CHUNK_OVERLAP = 50
CHUNKS_PER_DOCUMENT = 10
CATEGORIES = ("governance", "events", "finance", "maintenance", "outreach")

TOPICS: dict[str, dict[str, list[str]]] = {
    "governance": {
        "things": "bylaws|voting rules|quorum requirement|steering committee|annual general "
        "meeting|code of conduct|membership register|election timetable|proposal template|"
        "conflict of interest policy|meeting minutes|working group charter".split("|"),
        "acts": "amend|ratify|review|publish|simplify|vote on|postpone|draft|clarify|"
        "reconsider".split("|"),
        "people": "the chair|the secretary|the steering committee|two board members|"
        "the governance working group|our facilitator".split("|"),
    },
    "events": {
        "things": "summer street party|film night|repair cafe|winter market|book swap|"
        "open mic evening|bike maintenance workshop|children's craft morning|harvest "
        "festival|language exchange|quiz night|neighbourhood walk".split("|"),
        "acts": "organise|promote|reschedule|cater for|set up|cancel|advertise|host|"
        "plan|staff".split("|"),
        "people": "the events team|a group of parents|the youth club|volunteers from the "
        "allotments|the music collective|our newest members".split("|"),
    },
    "finance": {
        "things": "annual budget|membership fees|grant application|insurance premium|"
        "bank account|expense claims|reserve fund|donation box|equipment purchase|"
        "hall rental income|audit report|treasurer's statement".split("|"),
        "acts": "approve|reduce|audit|increase|reallocate|report on|cap|reimburse|"
        "forecast|freeze".split("|"),
        "people": "the treasurer|the finance subgroup|an external auditor|the grants "
        "officer|the board|a retired accountant among us".split("|"),
    },
    "maintenance": {
        "things": "community hall roof|heating system|garden irrigation|broken fence|"
        "playground equipment|kitchen extractor fan|accessible ramp|storage shed|"
        "fire alarm panel|leaking gutter|tool library|solar panels".split("|"),
        "acts": "repair|inspect|replace|paint|clean|insulate|upgrade|secure|service|"
        "dismantle".split("|"),
        "people": "the caretaker|a local contractor|the maintenance rota|volunteers "
        "with building skills|the facilities lead|the landlord's surveyor".split("|"),
    },
    "outreach": {
        "things": "monthly newsletter|welcome pack|social media accounts|community "
        "noticeboard|door-to-door survey|partnership with the school|translation of "
        "leaflets|website|local radio slot|mailing list|press release|library stall".split("|"),
        "acts": "redesign|expand|translate|distribute|update|launch|evaluate|share|"
        "relaunch|coordinate".split("|"),
        "people": "the communications team|a volunteer designer|the outreach officer|"
        "students from the college|our translators|the welcome committee".split("|"),
    },
}
PLACES = (
    "community hall|library annexe|allotment gardens|primary school gym|parish room|"
    "town square|co-working space|riverside park|sports club bar|old fire station".split("|")
)
WHEN = (
    "next Tuesday evening|before the end of the month|at the spring meeting|over the "
    "summer holidays|within six weeks|after the council replies|on the first Saturday of "
    "March|by the autumn|during the half-term break|once the funding arrives".split("|")
)
REASONS = (
    "more residents can take part|costs stay predictable|nobody is left out|the workload "
    "is shared fairly|we meet the insurer's conditions|the space stays safe for children|"
    "newcomers understand how decisions are made|we keep our promise to the funders|"
    "older members can attend|the neighbours are not disturbed".split("|")
)
OUTCOMES = (
    "went better than expected|caused some confusion|saved a noticeable amount of money|"
    "brought in several new volunteers|needs a follow-up discussion|was delayed by the "
    "weather|received mostly positive feedback|showed where the gaps are".split("|")
)
NAMES = "Amira|Ben|Chloe|Dariusz|Esther|Farid|Grace|Hiroshi|Ines|Jonas|Kemi|Lars".split("|")
ADJECTIVES = "simple|temporary|shared|cheaper|clearer|permanent|volunteer-run|weekly".split("|")

SENTENCES = [
    "{People} agreed to {act} the {thing} at the {place} {when}.",
    "Several members worried that the {thing} would become a problem unless we {act} it {when}.",
    "Last year {n} households were involved with the {thing}, and the work {outcome}.",
    "{Name} proposed that we {act} the {thing} so that {reason}.",
    "A short survey found that {pct} percent of respondents want us to {act} the {thing} "
    "rather than the {thing2}.",
    "Questions about the {thing} should go to {people} before {when}.",
    "The previous attempt to {act} the {thing2} {outcome}, so {people} suggested a "
    "{adj} approach this time.",
    "We estimate that it will take {n} volunteer hours to {act} the {thing}, which is "
    "realistic if {reason2}.",
    "{Name} reminded everyone that the {thing} is discussed at the {place} {when}.",
    "Until {people} report back, nobody should {act} the {thing2} on their own.",
    "The notes from the {place} show that the {thing} {outcome} and that {reason}.",
    "If the proposal passes, {people} will {act} the {thing} and publish a summary {when}.",
]


class TextGenerator:
    """Seeded generator of varied, readable paragraphs about one community topic."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def sentence(self, category: str) -> str:
        r = self.rng
        topic = TOPICS[category]
        thing, thing2 = r.sample(topic["things"], 2)
        people = r.choice(topic["people"])
        return r.choice(SENTENCES).format(
            People=people[0].upper() + people[1:],
            people=people,
            act=r.choice(topic["acts"]),
            thing=thing,
            thing2=thing2,
            place=r.choice(PLACES),
            when=r.choice(WHEN),
            reason=r.choice(REASONS),
            reason2=r.choice(REASONS),
            outcome=r.choice(OUTCOMES),
            Name=r.choice(NAMES),
            n=r.randint(3, 240),
            pct=r.randint(12, 91),
            adj=r.choice(ADJECTIVES),
        )

    def document(self, category: str, chunks: int = CHUNKS_PER_DOCUMENT) -> str:
        """Text that chunk_text cuts into exactly ``chunks`` chunks (the last one full too)."""
        from app.nlp.chunking import chunk_text

        sentences: list[str] = []
        while True:
            sentence = self.sentence(category)
            if self.rng.random() < 0.18:
                sentence += "\n\n"  # paragraph breaks
            candidate = " ".join([*sentences, sentence]).strip()
            approx_full = len(candidate) > (CHUNK_SIZE - CHUNK_OVERLAP) * (chunks - 1) + 300
            if approx_full and len(chunk_text(candidate, CHUNK_SIZE, CHUNK_OVERLAP)) > chunks:
                return " ".join(sentences).strip()
            sentences.append(sentence)

    def query(self, category: str) -> str:
        r = self.rng
        topic = TOPICS[category]
        thing = r.choice(topic["things"])
        return r.choice(
            [
                f"How do we {r.choice(topic['acts'])} the {thing}?",
                f"What did {r.choice(topic['people'])} decide about the {thing}?",
                f"Who is responsible for the {thing}?",
                f"When will the {thing} be discussed at the {r.choice(PLACES)}?",
                f"{thing} {r.choice(topic['acts'])} {r.choice(WHEN)}",
                f"Why should we {r.choice(topic['acts'])} the {thing} so that {r.choice(REASONS)}?",
                f"is there a plan for the {thing} and what did it cost",
            ]
        )


def make_documents(gen: TextGenerator, count: int, start: int) -> list[tuple[str, str, str]]:
    """(title, category, content) for ``count`` documents numbered from ``start``."""
    out = []
    for i in range(start, start + count):
        category = CATEGORIES[i % len(CATEGORIES)]
        title = f"{category.capitalize()} notes #{i}: {gen.sentence(category)[:60].rstrip()}"
        out.append((title, category, gen.document(category)))
    return out
