"""Words of conversation, not of the topic: "hi! could you tell me whether ...".

Members write to the bot as to a person. Greetings, hedges and asides around the
question are no search words: left in, "hi ... whether ... garden" asks every proposal
to contain "hi" and "whether" too, and a chatty question finds nothing. The analysis'
stop words cover the question words; these are the conversation around them.
"""

from __future__ import annotations

import re

CHATTER = frozenset(
    """
    hi hello hey hiya howdy greetings morning evening thanks thank thx cheers pls plz
    please sorry excuse quick quickly question questions wondering wonder wondered curious
    whether tell telling told know knows knew knowing think thinking thought guess guys
    folks everybody somebody anybody im i'm ive i've id i'd youre you're dont don't didnt
    didn't isnt isn't arent aren't wasnt wasn't cant can't couldnt couldn't wouldnt
    wouldn't theres there's whats what's whos who's hows how's wanna gonna gotta kinda
    sorta maybe perhaps actually basically honestly literally probably possibly
    remember reminded recall heard hear hearing saw seen noticed mentioned lol btw fyi
    oh ok okay yeah yep nope well anyway anyways though although like exactly ppl pple
    isn aren wasn weren doesn didn couldn wouldn shouldn hasn haven hadn
    """.split()
)  # the last line: what is left of "isn't" when words are read as letters only


# Greetings and asides before the question itself: "hey, random question, I was
# wondering who founded the hub?", "locked out again... who holds the master keys?".
_GREETING = re.compile(
    r"^(?:(?:hi+|hello|hey+|hiya|yo|ok(?:ay)?|so|um+|oh|well|sorry|please|pls|btw|"
    r"good (?:morning|afternoon|evening)|(?:quick|random|silly|dumb|short) (?:question|one)|"
    r"one more thing|question)\b[\s,!.:;-]*)+",
    re.I,
)
_ASIDE = re.compile(
    r"^(?:i\s*(?:was|am|'m|m)\s+(?:just\s+)?(?:wondering|curious)|i\s+wonder(?:ed)?|"
    r"(?:do|does)\s+(?:you|anyone|anybody|someone)\s+know|"
    r"(?:can|could|would)\s+(?:you|someone|anyone|somebody)\s+(?:please\s+)?tell\s+me|"
    r"i(?:'d|\s+would)\s+like\s+to\s+know|i\s+want\s+to\s+know|any\s+idea|"
    r"tell\s+me|please\s+tell\s+me)\b[\s,:]*",
    re.I,
)
# "... wondering if we have a guest room", "whether I can park": the question it asks
_INDIRECT = (
    (re.compile(r"^(?:if|whether)\s+(i|we|you|one)\s+(can|could|may|should|must)\b", re.I),
     r"\2 \1"),
    (re.compile(r"^(?:if|whether)\s+there\s+(is|are|was|were)\b", re.I), r"\1 there"),
    (re.compile(r"^(?:if|whether)\s+(i|we|you)\s+(have|need)\b", re.I), r"do \1 \2"),
)  # fmt: skip
_OPENER = re.compile(
    r"^(?:who|whom|whose|what|when|where|which|why|how|is|are|was|were|do|does|did|can|"
    r"could|should|will|would|may|has|have|am)\b",
    re.I,
)
_INNER = re.compile(r"(?<=[a-z0-9] )(?:how|what|when|where|who|which)\b", re.I)
_CLAUSE = re.compile(r"(?<=[,.!?;:])\s+|\s+-+\s+|\.{2,}\s*")


def question_clause(text: str, inner: bool = False) -> str:
    """The question itself, from where it starts to the end, without the greetings and
    asides around it ("hey, I was wondering who founded the hub?" -> "who founded the
    hub?"); the text as it is when no part of it reads as a question. ``inner``: also
    after a topic put first ("solar panels how many kwh ..." -> "how many kwh ...")."""
    start = _bare(text)
    if _OPENER.match(start):
        return start
    for clause in _CLAUSE.split(text)[1:]:
        bare = _bare(text[text.index(clause) :])
        if _OPENER.match(bare):
            return bare
    found = _INNER.search(start) if inner else None
    return start[found.start() :] if found else text


def _bare(text: str) -> str:
    text = _GREETING.sub("", text.strip())
    text = _ASIDE.sub("", text)
    for pattern, asked in _INDIRECT:
        text = pattern.sub(asked, text)
    return text


_BACK = re.compile(
    r"\b(?:it|its|they|them|their|this|that|these|those|there|he|she|him|her)\b", re.I
)


def standalone(text: str) -> str:
    """The question clause when it reads on its own, the whole message when it points
    back into it ("I took a novel from the library corner, how long can I keep it?")."""
    clause = question_clause(text)
    return text if _BACK.search(clause) else clause
