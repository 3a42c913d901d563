"""/help <question>: the bot's manual (app/core/ask/command_reference.py) searched and
answered in the reader's language.

Each language gets its own index on first use (the bot builds its own language's and
English's at start): the entries as that catalog words them,
embedded, and their words reduced to stems (English keeps its crude suffix forms, which
the ranking was tuned with). A translated index also keeps the English words, so a
question that mixes in English command names still finds its entry.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import numpy as np

from app.core.ask.analysis import INTENT_DOCS
from app.core.ask.command_reference import REFERENCE, HelpEntry
from app.core.ask.cues import load
from app.core.ask.models import AskResponse
from app.i18n.catalogs import SOURCE_LANGUAGE, sentences
from app.i18n.translator import Translator, translator
from app.nlp.key_terms import STOP_WORDS, word_forms
from app.nlp.lexical import stemmer
from app.services.llm import AnswerContext, LLMService

HELP_FLOOR = 0.30  # combined score below which an entry does not answer the question
WEAK_MODEL = 0.5  # how much closeness in meaning counts for a language the model can't read
RARE_WORD = 0.3  # what a word found in one entry only adds there, in such a language

Embed = Callable[[Sequence[str]], Awaitable[np.ndarray]]


def _forms(text: str, language: str) -> set[str]:
    """The forms of ``text``'s words that a question and an entry can share: English's
    suffix forms, another language's stems, function words left out."""
    cues = None if language == SOURCE_LANGUAGE else load(language)
    stem = stemmer(language) or str
    out: set[str] = set()
    for word in re.findall(r"[^\W_]+", text.casefold()):
        if cues is None and word not in STOP_WORDS and len(word) > 2:
            out |= word_forms(word)
        elif cues is not None and word not in cues.stopwords and len(word) > 3:
            out.add(stem(word))  # short stems too: "voto" and "votar" meet
    return out


@dataclass(frozen=True)
class _Index:
    vectors: np.ndarray
    forms: list[set[str]]
    weights: dict[str, float]  # a word shared by every entry counts 0, a rare one 1


def _weights(language: str, entries: list[set[str]]) -> dict[str, float]:
    """Inverse document frequency, 0..1, over the entries and every sentence of the
    language's catalog: in a language the model does not read, shared rare words carry
    the ranking, and the language's common words ("how", "my", "proposal") little."""
    documents = [*entries, *(_forms(text, language) for text in sentences(language))]
    frequency = Counter(form for document in documents for form in document)
    top = math.log(len(documents))
    return {form: math.log(len(documents) / df) / top for form, df in frequency.items()}


# Built indexes by (embedding model, language, time zone): the manual is the same for
# every HelpIndex of the process, so a second application (tests) reuses the first's.
_built: dict[tuple[str, str, str], _Index] = {}


class HelpIndex:
    """Ranks the manual for a question: shared words plus closeness in meaning."""

    def __init__(self, embed: Embed, tz: ZoneInfo, model: str = "") -> None:
        self._embed = embed
        self._tz = tz
        self._model = model  # the embedding model's name; "" shares nothing
        self._indexes: dict[str, _Index] = {}

    def _tr(self, language: str) -> Translator:
        return translator(language, self._tz)

    async def _index(self, language: str) -> _Index:
        key = (self._model, language, str(self._tz))
        if self._model and language not in self._indexes and key in _built:
            self._indexes[language] = _built[key]
        if language not in self._indexes:
            tr = self._tr(language)
            worded = [e.searchable(tr(e.usage), tr(e.text)) for e in REFERENCE]
            forms = [_forms(text, language) for text in worded]
            if language != SOURCE_LANGUAGE:
                english = (e.searchable(e.usage, e.text) for e in REFERENCE)
                pairs = zip(forms, english, strict=True)
                forms = [own | _forms(en, SOURCE_LANGUAGE) for own, en in pairs]
            weights = (
                _weights(language, forms)
                if language != SOURCE_LANGUAGE
                else dict.fromkeys({form for entry in forms for form in entry}, 1.0)
            )
            self._indexes[language] = _Index(await self._embed(worded), forms, weights)
            if self._model:
                _built[key] = self._indexes[language]
        return self._indexes[language]

    async def warm(self, *languages: str) -> None:
        """Build these languages' indexes now (the bot's start), not on the first
        question that needs one."""
        for language in dict.fromkeys(self._tr(name).language for name in languages):
            await self._index(language)

    async def best(
        self, question: str, embedding: np.ndarray, language: str = SOURCE_LANGUAGE, limit: int = 3
    ) -> list[HelpEntry]:
        return [entry for _, entry in await self.scored(question, embedding, language, limit)]

    async def scored(
        self, question: str, embedding: np.ndarray, language: str = SOURCE_LANGUAGE, limit: int = 3
    ) -> list[tuple[float, HelpEntry]]:
        """The best entries with their scores, best first."""
        language = self._tr(language).language
        index = await self._index(language)
        asked = _forms(question, language)
        if language != SOURCE_LANGUAGE:
            asked |= _forms(question, SOURCE_LANGUAGE)
        similarity = index.vectors @ embedding
        if language != SOURCE_LANGUAGE:  # the model reads English: words lead elsewhere
            similarity = WEAK_MODEL * similarity
        scored = []
        for i, entry in enumerate(REFERENCE):
            shared = sum(index.weights.get(form, 0.0) for form in asked & index.forms[i])
            named = 0.3 if _names_command(question, entry.command) else 0.0
            words = 0.12 * min(shared, 3) if language == SOURCE_LANGUAGE else RARE_WORD * shared
            scored.append((float(similarity[i]) + words + named, i))
        scored.sort(reverse=True)
        top = scored[0][0] if scored else 0.0
        bar = max(HELP_FLOOR, top - 0.15)
        return [(score, REFERENCE[i]) for score, i in scored[:limit] if score >= bar]

    async def answer(
        self, question: str, entries: list[HelpEntry], llm: LLMService, language: str
    ) -> AskResponse:
        """The best entry as the answer, the next ones as related commands."""
        tr = self._tr(language)
        if not entries:
            text = tr("I couldn't find a command for that. Send /help for the full list, "
                      "or /ask to ask about proposals and documents.")  # fmt: skip
            return AskResponse(question=question, intent=INTENT_DOCS, answer=text)
        first = entries[0]
        context = AnswerContext(
            question=question,
            lead=tr("{text} Use: {usage}", text=tr(first.text), usage=tr(first.usage)),
            evidence=[f"/{e.command}: {tr(e.usage)}. {tr(e.text)}" for e in entries],
        )
        lines = [await llm.write_lead(context)]
        if len(entries) > 1:
            related = "; ".join(
                tr("{usage} ({summary})", usage=tr(e.usage), summary=_first_sentence(tr(e.text)))
                for e in entries[1:]
            )
            lines.append(tr("Related: {commands}", commands=related))
        lines.append(tr("How I found this: I looked your question up in my command reference."))
        return AskResponse(question=question, intent=INTENT_DOCS, answer="\n\n".join(lines))


def _first_sentence(text: str) -> str:
    """The first sentence, without its full stop, starting in lower case."""
    sentence = re.split(r"(?<=[.!?。])\s", text, maxsplit=1)[0].rstrip(".!?。")
    return sentence[:1].lower() + sentence[1:]


def _names_command(question: str, command: str) -> bool:
    """The question names the command: "/vote", or "my_votes" written as a command; "how
    do I change my vote?" and "how do I create a vote?" name none."""
    pattern = rf"/?\b{command}\b" if "_" in command else rf"/{command}\b"
    return bool(re.search(pattern, question.casefold()))
