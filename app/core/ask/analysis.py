"""Rule-based reading of an /ask question: intent, filters and content keywords.

This is how /ask reads an English question, with or without a model (other
languages: ``multilingual``). It is deliberately plain: word lists and a few
patterns, applied in an order that lets the more specific reading win (a date phrase
is taken out before status words are looked for, so "closed last week" is a deadline
range, not a status).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from app.domain.models import ProposalStatus, ProposalType
from app.nlp.date_extract import extract_date_phrase
from app.nlp.date_lexicon import CHAT_WORDS
from app.nlp.date_ranges import Direction
from app.nlp.stopwords import STOPWORDS

INTENT_PROPOSALS = "query_proposals"
INTENT_DOCS = "query_general_docs"
INTENT_FACTS = "query_facts"


@dataclass(frozen=True, slots=True)
class AskAnalysis:
    intent: str
    content_keywords: str | None = None
    status: ProposalStatus | None = None
    proposal_type: ProposalType | None = None
    date_phrase: str | None = None
    date_field: str | None = None  # "creation" | "deadline"
    proposer: str | None = None
    language: str = "en"  # the catalog name of the question's language


PROPOSAL_WORDS = re.compile(
    r"\b(proposals?|propos(?:e|ed|es|ing)|polls?|votes?|voting|voted|ballots?|motions?|"
    r"initiatives?|suggestions?|suggest(?:ed|s|ing)?|ideas?|decisions?|decide[ds]?|deadlines?|upcoming)\b",
    re.I,
)
# The words naming a rule: a question with one asks about the rules, which facts never state.
RULE_NOUNS = r"polic(?:y|ies)|rules?|regulations?|guidelines?"
DOC_WORDS = re.compile(
    rf"\b({RULE_NOUNS}|handbook|manual|documents?|docs?|procedures?|"
    r"faq|instructions?|how (?:do|does|can|should|to)|what is the process)\b",
    re.I,
)
FACT_OPENERS = re.compile(r"^\s*(who|what|where|when|which|how many)\b", re.I)

STATUS_PATTERNS: list[tuple[re.Pattern[str], ProposalStatus]] = [
    (re.compile(r"\b(cancell?ed|withdrawn|called off|scrapped)\b", re.I), ProposalStatus.CANCELLED),
    (
        re.compile(
            r"\b(open|active|ongoing|running|current(?:ly)?|live|pending|"
            r"still (?:open|(?!\w*thing\b)\w+ing)|"  # "still taking ideas", not "still nothing"
            r"accepting votes|in progress|can (?:i|we) (?:still )?vote|(?:i|we) can still vote|"
            r"going on|right now|rn|"
            r"at the moment|upcoming|coming up|unfinished|undecided)\b",
            re.I,
        ),
        ProposalStatus.OPEN,
    ),
    (
        re.compile(
            r"\b(closed|finished|ended|completed|concluded|wrapped up|decided|past|expired|over|"
            r"already (?:closed|decided)|results?|outcomes?|passed|won|approved|rejected)\b",
            re.I,
        ),
        ProposalStatus.CLOSED,
    ),
]
TYPE_PATTERNS: list[tuple[re.Pattern[str], ProposalType]] = [
    (
        re.compile(
            r"\b(free[- ]?form|open[- ]ended|brainstorm\w*|ideas?(?: collections?)?|"
            r"suggestions?)\b",
            re.I,
        ),
        ProposalType.FREE_FORM,
    ),
    (
        re.compile(r"\b(multiple[- ]choice|multi[- ]choice|polls?|votes|options?|yes/no)\b", re.I),
        ProposalType.MULTIPLE_CHOICE,
    ),
]
CREATION_WORDS = re.compile(
    r"\b(created|proposed|suggested|made|started|submitted|posted|opened|launched|new|added|raised|"
    r"put forward|filed)\b",
    re.I,
)
DEADLINE_WORDS = re.compile(
    r"\b(clos(?:e|es|ing|ed)|due|ends?|ending|ended|deadlines?|expir(?:e|es|ing|ed)|"
    r"finish(?:es|ed|ing)?|complet(?:e|es|ed|ing)|conclud(?:e|es|ed|ing)|decid(?:e|es|ed|ing)|"
    r"wrap(?:s|ped|ping)? up|vote ends)\b",
    re.I,
)
PROPOSER_PATTERNS = [
    re.compile(r"\b(?:proposed|created|made|submitted|started|posted|put forward|raised|filed)"
               r"\s+by\s+@?([^\W\d_][\w.]{1,31})", re.I),
    re.compile(r"\bby\s+@([^\W\d_][\w.]{1,31})", re.I),
    re.compile(r"\b(?:proposals?|polls?|ideas?|votes?|suggestions?|anything|everything|ones|"
               r"something)\s+(?:(?:that\s+)?(?:was|were)\s+)?(?:made\s+|created\s+|"
               r"submitted\s+|started\s+|posted\s+)?(?:by|from)\s+@?([^\W\d_][\w.]{1,31})", re.I),
    re.compile(r"\b(?:did|has|have)\s+@?([^\W\d_][\w.]{1,31})\s+"
               r"(?:make|made|propose|proposed|create|created|submit|submitted|start|started|post)",
               re.I),
    re.compile(r"@?\b([^\W\d_][\w.]{1,31})'s\s+(?:proposals?|polls?|ideas?)", re.I),
    re.compile(r"\bfrom\s+@([^\W\d_][\w.]{1,31})", re.I),
    # "@felix open proposals": a mention leading the proposals asked for (mentions.py)
    re.compile(r"@([^\W\d_][\w.]{1,31}?)(?:'s)?\s+(?:[\w-]+\s+){0,2}(?:proposals?|polls?|ideas?)\b",
               re.I),
]  # fmt: skip
NOT_NAMES = {
    "the", "a", "an", "me", "us", "you", "them", "someone", "anyone", "whom", "who", "members",
    "people", "everyone", "admins", "admin", "members'", "community", "it", "this", "that",
    "i", "we", "they", "he", "she",
}  # fmt: skip

STOP_WORDS = (
    frozenset(
        """
    a an the and or but if of to in on at by for with about from into onto over under as is are
    was were be been being am do does did done doing have has had having can could will would
    shall should may might must what which who whom whose where when why how whats any some all
    there here this that these those it its they them their we us our you your i me my he she
    his her him please show list tell give find get see know let lets look looking want need
    related relating regarding concerning around re topic topics subject about anything
    something nothing stuff thing things kind sort type types one ones many much more most other
    currently still already yet ever now just also only really very so than then such proposal
    proposals propose proposed proposes proposing poll polls vote votes voting voted ballot
    ballots motion motions initiative initiatives decision decisions decided created made
    started submitted posted opened launched new added raised filed put forward closing closes
    close closed due end ends ending ended deadline deadlines expire expires expiring expired
    finish finishes finishing finished completed concluded wrap wraps up open active ongoing
    running current live pending progress cancelled canceled withdrawn past over passed result
    results outcome outcomes won approved rejected multiple choice free form freeform options
    option yes no during within between since until before after last next this week weeks
    month months year years day days today yesterday tomorrow recently lately ago people
    someone anyone everyone community members member idea ideas suggestion suggestions make
    makes create creates submit submits start starts post posts raise raises everything right
    mention mentions mentioning contain contains containing include includes discuss discusses
    discussing suggest suggested suggests decide decides getting gets got happen happened
    happening going go goes went status state upcoming collect collected collecting latest
    newest
    """.split()
    )
    | set(STOPWORDS["en"].split())
    | {
        # the lexical index's function words, with "dont" as phones type it; and date
        # shorthand, which is no topic and no typo: "tdy", "eow", "2moro" (read as "moro")
        letters
        for short, word in CHAT_WORDS.items()
        if len(letters := re.sub(r"[^a-z]", "", short)) >= 3
        and not word.startswith(("hour", "before"))
    }
)
# a word in any alphabet ("Chloé", "Paekākāriki", "Müller"): letters and digits, joined
# by an apostrophe, "&", "+" or a hyphen
WORD = re.compile(r"[^\W_](?:[^\W_]|['&+-])*")


def first_match(patterns: list[tuple[re.Pattern[str], object]], text: str) -> object | None:
    best: tuple[int, object] | None = None
    for pattern, value in patterns:
        found = pattern.search(text)
        if found and (best is None or found.start() < best[0]):
            best = (found.start(), value)
    return best[1] if best else None


SELF_PATTERN = re.compile(
    r"\b(?:my\s+(?:own\s+)?(?:proposals?|polls?|ideas?)|"
    r"(?:did|have|has)\s+i\s+(?:propose|create|make|made|submit|start|post)\w*|"
    r"i\s+(?:proposed|created|made|submitted|started|posted)|(?:proposed|created|made) by me)\b",
    re.I,
)


def _proposer(text: str) -> str | None:
    """The person named as proposer; "me" when the asker means themselves."""
    if SELF_PATTERN.search(text):
        return "me"
    for pattern in PROPOSER_PATTERNS:
        found = pattern.search(text)
        if found and found.group(1).lower() not in NOT_NAMES:
            return found.group(1).lstrip("@")
    return None


def _keywords(text: str, drop: set[str]) -> str | None:
    words = []
    for match in WORD.finditer(text):
        word = match.group(0).strip("'-")
        low = word.lower()
        if low.endswith("'s"):
            low, word = low[:-2], word[:-2]
        if not low or low in STOP_WORDS or low in drop or (low.isdigit() and len(low) < 3):
            continue
        words.append(word)
    return " ".join(words) if words else None


HOW_TO = re.compile(r"^\s*how (?:do|can|should|would|could) (?:i|we|you|one)\b|^\s*how to\b", re.I)


def _intent(question: str, proposal_filters: bool) -> str:
    """Documents (and the bot's manual) for how-to questions, even about proposals ("how
    do I submit an idea?"); proposals when they are named or filtered for; documents for
    policy questions; facts for who/what/where/when questions about a named thing."""
    if HOW_TO.match(question):
        return INTENT_DOCS
    if PROPOSAL_WORDS.search(question) or proposal_filters:
        return INTENT_PROPOSALS
    if DOC_WORDS.search(question):
        return INTENT_DOCS
    opener = FACT_OPENERS.match(question)
    if opener and (
        opener.group(1).lower() == "who" or re.search(r"\b[A-Z][a-z]+", question[opener.end() :])
    ):
        return INTENT_FACTS
    return INTENT_DOCS


# The tenses of DEADLINE_WORDS' verbs: which way a deadline lies ("did" asks after one past)
FUTURE_DEADLINE = re.compile(
    r"\b(clos(?:e|es|ing)|due|ends?|ending|expir(?:e|es|ing)|finish(?:es|ing)?|"
    r"complet(?:e|es|ing)|conclud(?:e|es|ing)|decid(?:e|es|ing)|wrap(?:s|ping)? up|"
    r"will|going to|coming up|upcoming)\b",
    re.I,
)
PAST_DEADLINE = re.compile(
    r"\b(closed|ended|expired|finished|completed|concluded|decided|wrapped up|was due|did)\b",
    re.I,
)


def date_direction(
    question: str,
    analysis: AskAnalysis,
    past: re.Pattern[str] | None = PAST_DEADLINE,
    future: re.Pattern[str] | None = FUTURE_DEADLINE,
    creation: re.Pattern[str] | None = CREATION_WORDS,
) -> Direction:
    """Which occurrence a year-less date or a bare weekday means in this question (the
    patterns: a language's words for a deadline behind or ahead, and for creating).

    Creation dates and closed proposals lie behind us; deadlines of open proposals and
    "what closes on ..." lie ahead; anything else takes the nearest occurrence.
    """
    if analysis.status == ProposalStatus.CLOSED:
        return "past"
    if analysis.date_field == "deadline":
        if analysis.status == ProposalStatus.OPEN:
            return "future"
        if past is not None and past.search(question):
            return "past"
        if future is not None and future.search(question):
            return "future"
    elif creation is not None and creation.search(question):
        return "past"
    return "nearest"


def _filters_for_proposals(
    rest: str, status: object, kind: object, phrase: str | None, proposer: str | None,
    keywords: str | None,
) -> bool:  # fmt: skip
    """Whether the filters read make this a question about proposals: a status, a type
    or a proposer always does; a date does with a word for creating or closing ("created
    last week", "what closes on Friday") or with nothing else to ask about ("anything
    from last week?")."""
    if status is not None or kind is not None or proposer is not None:
        return True
    if phrase and (DEADLINE_WORDS.search(rest) or CREATION_WORDS.search(rest)):
        return True
    return phrase is not None and keywords is None


def status_names(text: str) -> list[str]:
    """The phrases of ``text`` that start with a word of state and go on with a word of
    content ("open source", "live captions", "closed meetings"): in a community that
    writes them, they name a thing, not a proposal's state."""
    found = []
    for pattern, _ in STATUS_PATTERNS:
        for match in pattern.finditer(text):
            after = _NEXT_WORD.match(text, match.end())
            if after is None:
                continue
            word = after.group(1).lower()
            if word in STOP_WORDS or PROPOSAL_WORDS.fullmatch(word) or len(word) < 3:
                continue
            found.append(f"{match.group(0).lower()} {word}")
    return found


_NEXT_WORD = re.compile(r"[ \t-]+([^\W\d_]+)")


def _unnamed(text: str, names: Collection[str]) -> str:
    """``text`` with the words of state inside the community's ``names`` blanked: what
    the filters are read from ("will the code be open source?" asks for no open one)."""
    for name in status_names(text):
        if name in names:
            state, word = name.rsplit(" ", 1)
            text = re.sub(rf"\b{re.escape(state)}(?=[ \t-]+{re.escape(word)}\b)",
                          lambda m: " " * len(m.group(0)), text, flags=re.I)  # fmt: skip
    return text


def analyze_question(question: str, names: Collection[str] = ()) -> AskAnalysis:
    """Read intent, filters and keywords from a question; never raises. ``names``: the
    phrases the community writes that begin with a word of state (status_names)."""
    text = " ".join(question.split())
    phrase, rest = extract_date_phrase(text)
    proposer = _proposer(rest)
    states = _unnamed(rest, names) if names else rest
    status = first_match(STATUS_PATTERNS, states)  # type: ignore[arg-type]
    if STATUS_PATTERNS[0][0].search(states):  # the narrower state: "ended up cancelled"
        status = STATUS_PATTERNS[0][1]
    kind = first_match(TYPE_PATTERNS, rest)  # type: ignore[arg-type]
    date_field = None
    if phrase:
        deadline_hit = DEADLINE_WORDS.search(rest)
        creation_hit = CREATION_WORDS.search(rest)
        if deadline_hit and (not creation_hit or deadline_hit.start() < creation_hit.start()):
            date_field = "deadline"
        else:
            date_field = "creation"
    drop = {proposer.lower()} if proposer else set()
    topic = rest
    for pattern, _ in [*STATUS_PATTERNS, *TYPE_PATTERNS]:
        topic = pattern.sub(" ", topic)
    keywords = _keywords(topic, drop)
    for_proposals = _filters_for_proposals(rest, status, kind, phrase, proposer, keywords)
    intent = _intent(text, for_proposals and not DOC_WORDS.search(text))
    if intent != INTENT_PROPOSALS:  # filters only mean something for proposals
        return AskAnalysis(intent, _keywords(text, set()))
    return AskAnalysis(
        intent, keywords, status, kind,  # type: ignore[arg-type]
        date_phrase=phrase, date_field=date_field, proposer=proposer,
    )  # fmt: skip
