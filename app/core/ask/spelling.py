"""Typos corrected against the community's own words: "evnts" -> "events", "gardn" -> "garden".

A misspelt word finds nothing: it is no keyword any proposal contains, and one
letter off is enough to move a short query's embedding far from its meaning. The
words a member is likely to mean are the community's own (its proposals, documents
and facts) and the words the bot reads for itself ("proposals", "cancelled").

A word is corrected only when it is no word at all: not one of those, and not a
word the local model's tokenizer knows whole (so "moon" or "dinosaurs" are never
turned into something of ours; an off-topic question stays off-topic). The correction
is the closest of the community's words one edit away, else a common English word one
edit away ("maintans" is "maintains", though the community says only "maintained";
"openning" is "opening", not our "pending"), else one of ours two edits away for words
of eight letters or more; each only when that word is unambiguous or clearly more
frequent. Two common words run together ("treadmill") are a word. The answer says
which words were read otherwise.

The same words tell what a community never mentions: a question about chess or a horse
in a community whose documents, proposals and facts never name either is one nothing
answers, however close its other words come (``Speller.unmentioned``, a signal of the
decision).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from app.core.ask.analysis import STOP_WORDS, status_names
from app.core.graph.proposal_facts import SOURCE_PREFIX
from app.i18n import Translator
from app.nlp.date_typos import VOCABULARY as DATE_WORDS
from app.nlp.edits import distance
from app.nlp.key_terms import normalize
from app.nlp.lexical import lexical_terms
from app.persistence.database import Database
from app.persistence.repositories.documents import DocumentRepository
from app.persistence.repositories.facts import FactRepository
from app.persistence.repositories.proposals import ProposalRepository
from app.persistence.repositories.users import UserRepository

log = logging.getLogger(__name__)

MIN_LENGTH = 3  # shorter words have too many neighbours one edit away
SHORT = 4  # a word shorter than this is corrected only by an added letter ("opn" -> "open")
LONG = 8  # words this long may be two edits off
COMPOUND_PART = 4  # "tread|mill": shorter parts ("props|als") make typos look like words
REFRESH_SECONDS = 1800.0  # a stale word list only misses new words (read in ~1 s at 100k facts)
CHUNK_LIMIT = 50_000
ENTITY_LIMIT = 50_000
USER_LIMIT = 50_000
# The bot's own words for proposals and their states, besides the filler words.
BOT_WORDS = (
    "proposal proposals poll polls vote votes voting ballot brainstorm brainstorms idea ideas "
    "suggestion suggestions cancelled canceled withdrawn closed closing deadline deadlines "
    "created opened multiple choice free form document documents policy policies rules "
    "guidelines facts graph"
).split()
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['-])*[^\W\d_]|[^\W\d_]")  # in any alphabet
# What members type for a word on a phone: read as the word ("sauna hrs", "wifi pw").
ABBREVIATIONS = {
    "hrs": "hours", "hr": "hour", "mins": "minutes", "pw": "password", "pwd": "password",
    "ppl": "people", "tmrw": "tomorrow", "tmr": "tomorrow", "wknd": "weekend",
    "bday": "birthday", "msg": "message", "mtg": "meeting", "thru": "through",
}  # fmt: skip
_LETTERS = re.compile(r"[^\W\d_]{3,}")


@dataclass(frozen=True, slots=True)
class Fix:
    typo: str
    word: str


@lru_cache(maxsize=1)
def _model_ranks() -> dict[str, int]:
    """Whole lower-case words of the bundled tokenizer's vocabulary, by their place in it
    (after its reserved entries it lists words about as often as English uses them)."""
    path = resources.files("app.services") / "assets" / "minilm" / "tokenizer.json"
    vocab = json.loads(path.read_text(encoding="utf-8"))["model"]["vocab"]
    return {w: int(i) for w, i in vocab.items() if w.isalpha() and w.islower()}


@lru_cache(maxsize=1)
def model_words() -> frozenset[str]:
    """Whole lower-case words of the bundled tokenizer's vocabulary: common English."""
    return frozenset(_model_ranks())


@lru_cache(maxsize=1)
def _common_index() -> dict[str, list[str]]:
    """The common English words by themselves and their one-letter deletions."""
    index: dict[str, list[str]] = {}
    for word in _model_ranks():
        for key in {word, *_deletes(word)}:
            index.setdefault(key, []).append(word)
    return index


def _common_near(word: str) -> list[str]:
    """The common English words one edit (a letter dropped, added, changed or two
    swapped) from ``word``, the most common first."""
    index = _common_index()
    near = {w for k in {word, *_deletes(word)} for w in index.get(k, ())}
    found = (w for w in near if w != word and distance(word, w) == 1)
    return sorted(found, key=_model_ranks().__getitem__)


def common_word(word: str) -> str | None:
    """The common English word one edit from ``word`` ("maintans" -> "maintains"), when
    one is much the likeliest: the only one, or three times as common as the next (its
    place in the tokenizer's list standing for how common it is)."""
    if len(word) < SHORT:  # too many neighbours one edit away
        return None
    found = [w for w in _common_near(word) if len(w) >= SHORT]  # nor read as a short one
    ranks = _model_ranks()
    if len(found) == 1 or (found and ranks[found[1]] > 3 * ranks[found[0]]):
        return found[0]
    return None


def _inflected(word: str) -> set[str]:
    """The word and what it may be an inflection of ("brainstorms", "scheduled")."""
    found = {word}
    for suffix, stems in (("s", ("",)), ("es", ("",)), ("ed", ("", "e")), ("ing", ("", "e"))):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            found |= {word[: -len(suffix)] + s for s in stems}
    return found


def _compound(word: str) -> bool:
    """Two common English words run together: "treadmill", "soundproof" are words."""
    words = model_words()
    return any(word[:i] in words and word[i:] in words for i in range(COMPOUND_PART, len(word) - 3))


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


class Lexicon:
    """Known words with their frequency, and an index of their one-letter deletions."""

    def __init__(
        self, texts: Iterable[str], entities: Iterable[str] = (), language: str = "en"
    ) -> None:
        counts: Counter[str] = Counter()
        terms: set[str] = set()
        names: Counter[str] = Counter()
        for text in texts:
            counts.update(_LETTERS.findall(text.lower()))
            terms.update(lexical_terms(text, language))
            names.update(status_names(text))
        for name in entities:  # the fact graph's entities by their words
            counts.update(_LETTERS.findall(normalize(name)))
            terms.update(lexical_terms(name.replace("_", " "), language))
        own = [*STOP_WORDS, *BOT_WORDS]  # with contractions as typed on a phone: "dont"
        counts.update({w: 1 for w in own})
        terms.update(lexical_terms(" ".join(own), language))
        # The words of dates ("wenesday", "febuary" are typos of them), not counted as
        # words the community mentions: a date says nothing about what a question is about.
        counts.update({w: 1 for w in DATE_WORDS if w not in counts})
        self.language = language
        # what the community writes with a word of state, more than once: "open source"
        # names a thing there, and asks for no open proposal (analysis.status_names)
        self.names = frozenset(n for n, count in names.items() if count > 1)
        self.terms = frozenset(terms)  # as the lexical index reads them (app/nlp/lexical.py)
        self.counts = counts
        self.index: dict[str, list[str]] = {}
        for word in counts:
            if len(word) >= MIN_LENGTH:
                for key in {word, *_deletes(word)}:
                    self.index.setdefault(key, []).append(word)

    def unmentioned(self, question: str, seen: Iterable[str] = ()) -> float:
        """The share of the question's terms that neither these texts nor ``seen`` hold
        (what was just retrieved for it: current, where these may be minutes old)."""
        asked = set(lexical_terms(question, self.language))
        unseen = asked - self.terms
        for text in seen:
            if not unseen:
                break
            unseen -= set(lexical_terms(text, self.language))
        return len(unseen) / len(asked) if asked else 0.0

    def known(self, word: str) -> bool:
        return any(f in self.counts or f in model_words() for f in _inflected(word)) or (
            _compound(word)
        )

    def correct(self, word: str) -> str | None:
        """The one known word this one is a misspelling of, or None."""
        low = word.lower()
        if len(low) < MIN_LENGTH or not low.isalpha() or self.known(low):
            return None
        allowed = 2 if len(low) >= LONG else 1
        if len(low) < SHORT:  # only a dropped letter: "opn", not "pet" for "pen"
            candidates = set(self.index.get(low, ())) - {low}
            found = sorted(candidates, key=lambda w: -self.counts[w])
            if len(found) == 1 or (found and self.counts[found[0]] > 3 * self.counts[found[1]]):
                return found[0]
            return None
        keys = {low, *_deletes(low)}
        if allowed == 2:
            keys |= {d for k in _deletes(low) for d in _deletes(k)}
        candidates = {w for k in keys for w in self.index.get(k, ())}
        scored = sorted(
            ((distance(low, w), -self.counts[w], w) for w in candidates),
            key=lambda t: (t[0], t[1]),
        )
        scored = [s for s in scored if s[0] <= allowed]
        if not scored or scored[0][0] > 1:  # none of ours one edit away: a common word?
            # "openning" is "opening" misspelt, not our "pending"; "maintans" is
            # "maintains", which the community says as "maintained"; but "elefant" is
            # not "elegant" where the community says "elephant", two edits off
            common = common_word(low)
            if common is not None and self._near(low) and not self._says(common):
                common = None
            if common is not None or not scored or _common_near(low):
                return common
        best = scored[0]
        rivals = [s for s in scored[1:] if s[0] == best[0]]
        if rivals and -rivals[0][1] * 3 > -best[1]:
            return None  # two words as close and about as common: no guess
        return best[2]

    def _near(self, word: str) -> bool:
        """Whether one of the community's words is at most two edits from ``word`` (read
        among those of its first letter and about its length: typos rarely hit the first)."""
        return any(
            w[:1] == word[:1] and abs(len(w) - len(word)) <= 2 and distance(word, w) <= 2
            for w in self.counts
        )

    def _says(self, word: str) -> bool:
        """Whether the community says ``word`` in some form ("maintains": "maintained")."""
        return set(lexical_terms(word, self.language)) <= self.terms


class Speller:
    """Corrects a question's typos against the community's words (read lazily, kept)."""

    def __init__(self, db: Database, language: str = "en") -> None:
        self.db = db
        self.language = language  # the community's: its words are stemmed in it
        self._lexicon: Lexicon | None = None
        self._loaded = 0.0
        self._lock = asyncio.Lock()
        self._refresh: asyncio.Task[None] | None = None

    async def correct(self, text: str) -> tuple[str, list[Fix]]:
        """The question with its typos corrected, and the corrections made."""
        unknown = [
            m for m in _WORD.finditer(text)
            if m.group(0).lower() in ABBREVIATIONS
            or (len(m.group(0)) >= MIN_LENGTH and m.group(0).isalpha()
                and m.group(0).lower() not in model_words())
        ]  # fmt: skip
        if not unknown:
            return text, []
        lexicon = await self._current()
        fixes: list[Fix] = []
        out, last = [], 0
        for match in unknown:
            low = match.group(0).lower()
            word = ABBREVIATIONS.get(low) or lexicon.correct(match.group(0))
            if word is None:
                continue
            if match.group(0)[:1].isupper():
                word = word[:1].upper() + word[1:]
            out.append(text[last : match.start()] + word)
            last = match.end()
            fixes.append(Fix(match.group(0), word))
        return "".join(out) + text[last:], fixes

    async def unmentioned(self, question: str, language: str, seen: Iterable[str] = ()) -> float:
        """The share of the question's terms that nothing in the community mentions: not
        its documents, proposals, facts or members, nor the bot's own words, nor ``seen``
        (the texts just retrieved for it, which hold what was added since the words were
        read). A question in another language than the community's is not measured."""
        if _base(language) != _base(self.language):
            return 0.0
        return (await self._current()).unmentioned(question, seen)

    async def names(self, language: str) -> frozenset[str]:
        """The phrases the community writes that begin with a word of state ("open
        source"), for reading a question in its language (none in another)."""
        if _base(language) != _base(self.language):
            return frozenset()
        return (await self._current()).names

    async def warm(self) -> None:
        """Read the community's words and index the common English ones now (at start),
        not at the first question."""
        await asyncio.gather(self._current(), asyncio.to_thread(_common_index))

    async def _current(self) -> Lexicon:
        """The community's words: read at start or at the first question, then again
        every REFRESH_SECONDS in the background, the words read last serving meanwhile
        (at 100k facts a read takes seconds: no question waits for it)."""
        if self._lexicon is None:
            async with self._lock:
                if self._lexicon is None:
                    self._lexicon = await self._read()
                    self._loaded = time.monotonic()
        elif time.monotonic() - self._loaded > REFRESH_SECONDS and self._refresh is None:
            self._refresh = asyncio.create_task(self._reread())
        return self._lexicon

    async def _reread(self) -> None:
        try:
            self._lexicon = await self._read()
        except Exception:  # the words read last keep serving; the next question retries
            log.warning("could not read the community's words again", exc_info=True)
        else:
            self._loaded = time.monotonic()
        finally:
            self._refresh = None

    async def _read(self) -> Lexicon:
        async with self.db.transaction() as session:
            texts = [
                *await ProposalRepository(session).all_texts(),
                *await DocumentRepository(session).chunk_texts(CHUNK_LIMIT),
                *await DocumentRepository(session).titles(CHUNK_LIMIT),
                *await FactRepository(session).predicate_vocabulary(),
                *await UserRepository(session).names(USER_LIMIT),
            ]
            entities = await FactRepository(session).entity_names(
                ENTITY_LIMIT, skip_source_prefix=SOURCE_PREFIX
            )  # the graph's own things, not proposal titles
        return await asyncio.to_thread(Lexicon, texts, entities, self.language)


def _base(language: str) -> str:
    return language.replace("_", "-").split("-")[0].lower()


def describe(fixes: list[Fix], tr: Translator) -> str:
    """“I read “evnts” as “events”.” for the answer's "How I found this"."""
    pairs = ", ".join(tr("“{typo}” as “{word}”", typo=f.typo, word=f.word) for f in fixes)
    return tr("I read {pairs}.", pairs=pairs)
