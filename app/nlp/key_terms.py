"""Key terms of a question, and the normal form facts are looked up by.

Pure text work, no database: ``spec_terms`` is the extraction spec 000
describes (capitalised words, quoted phrases, the word after a question word,
stop words removed); ``candidate_ngrams`` and ``content_words`` are what the
graph service checks against the stored facts (lowercase entity names,
predicate words), since only the graph knows which of them mean something.

``normalize`` is shared with the repository: a fact and a question meet only
if both went through the same function.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from itertools import pairwise

# The spec's list, plus question words, auxiliaries and pronouns: none of them name a thing.
STOP_WORDS = frozenset(
    """
    is are was were the a an and or but in on at to for of with by from about
    what who whom whose where when which why how many much
    do does did done doing has have had having be been being am
    can could will would should shall may might must
    that this these those it its they them their there here then than so as into onto
    i me my we us our you your he him his she her
    tell show give list find please any some all
    """.split()
)
QUESTION_WORDS = frozenset({"who", "what", "where", "when", "which"})

_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*(?:[-.][^\W_]+)*", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s$")
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|(?<![\w'’])['‘]([^'’]+)['’](?![\w'’])")
# Suffix -> replacement; every one that applies gives a form (stem at least MIN_STEM long).
_SUFFIXES = (
    ("ations", ""), ("ation", ""), ("ments", ""), ("ment", ""), ("ings", ""), ("ions", ""),
    ("ing", ""), ("ion", ""), ("ers", ""), ("ors", ""), ("als", ""), ("ies", "y"), ("ied", "y"),
    ("es", ""), ("ed", ""), ("er", ""), ("or", ""), ("al", ""), ("ly", ""), ("s", ""),
    ("e", ""), ("d", ""),
)  # fmt: skip
_IRREGULAR = {
    "wrote": "write", "written": "write", "won": "win", "made": "make", "built": "build",
    "began": "begin", "begun": "begin", "led": "lead", "taught": "teach", "bought": "buy",
    "sold": "sell", "held": "hold", "gave": "give", "given": "give", "took": "take",
    "taken": "take", "chose": "choose", "chosen": "choose", "ran": "run", "met": "meet",
}  # fmt: skip
MIN_STEM = 3
MAX_NGRAM = 5


def normalize(text: str) -> str:
    """The lookup form: casefolded, underscores as spaces, one space between words,
    accents dropped.

    "Nobel_Prize", "nobel prize" and "  NOBEL   Prize " are the same entity; so are
    "Repair Café" and "repair cafe", as members type it. Migration 0010 applies the
    same folding to the stored facts (keep the two in step).
    """
    folded = " ".join(text.replace("_", " ").split()).casefold()
    return folded if folded.isascii() else without_accents(folded)


def without_accents(text: str) -> str:
    """The text with its combining marks dropped: "café" -> "cafe", "ё" -> "е"."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def base_form(word: str) -> str:
    """An irregular English verb form's base ("led" -> "lead"); any other word as given."""
    return _IRREGULAR.get(word.casefold(), word)


def word_forms(word: str) -> frozenset[str]:
    """The word and what a crude suffix stripper makes of it.

    Two words are taken as one when their forms meet: invent ~ invented ~ inventor ~
    invention, discover ~ discovered, proposed ~ proposals, die ~ died. Good enough
    to match a question against a small predicate vocabulary; not a linguistic stemmer.
    """
    word = word.casefold()
    forms = {word}
    if word in _IRREGULAR:
        forms.add(_IRREGULAR[word])
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            base = word[: -len(suffix)]
            forms.add(base + replacement)
            if len(base) > MIN_STEM and base[-1] == base[-2] and base[-1] not in "aeiouls":
                forms.add(base[:-1])  # admitted -> admitt -> admit
    return frozenset(forms)


def singular(word: str) -> str:
    """English plural to singular, roughly: inventors -> inventor, parties -> party."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "zes", "sses")):
        return word[:-2]
    return word[:-1]


def same_word(a: str, b: str) -> bool:
    return bool(word_forms(a) & word_forms(b))


@dataclass(frozen=True, slots=True)
class Token:
    text: str  # as written, possessive removed ("Einstein's" -> "Einstein")
    norm: str
    position: int  # index among the question's tokens
    begin: int  # character offsets in the text
    end: int


def tokenize(text: str) -> list[Token]:
    tokens = []
    for index, match in enumerate(_TOKEN.finditer(text.replace("_", " "))):
        word = _POSSESSIVE.sub("", match.group(0))
        tokens.append(Token(word, normalize(word), index, match.start(), match.start() + len(word)))
    return tokens


def is_stop_word(word: str) -> bool:
    return normalize(word) in STOP_WORDS


def quoted_phrases(text: str) -> list[str]:
    """Phrases in double or single quotes; an apostrophe inside a word is not a quote."""
    phrases = []
    for match in _QUOTED.finditer(text):
        phrase = next(g for g in match.groups() if g is not None).strip()
        if phrase:
            phrases.append(phrase)
    return phrases


def spec_terms(question: str) -> list[str]:
    """Spec 000's extraction: capitalised words, quoted phrases, the word after a question
    word; stop words removed, duplicates (case-insensitive) dropped, in order of appearance."""
    tokens = tokenize(question)
    found: list[tuple[int, str]] = []
    for token in tokens:
        if token.text[:1].isupper() and token.norm not in STOP_WORDS:
            found.append((token.position, token.text))
    for phrase in quoted_phrases(question):
        first = tokenize(phrase)
        position = _position_of(tokens, first[0].norm) if first else len(tokens)
        found.append((position, phrase))
    for token, following in pairwise(tokens):
        if token.norm in QUESTION_WORDS and following.norm not in STOP_WORDS:
            found.append((following.position, following.text))
    return unique(text for _, text in sorted(found, key=lambda item: item[0]))


def _position_of(tokens: list[Token], norm: str) -> int:
    return next((t.position for t in tokens if t.norm == norm), len(tokens))


def unique(terms: object) -> list[str]:
    """Keep the first of each case-insensitive duplicate."""
    seen: set[str] = set()
    out = []
    for term in terms:  # type: ignore[attr-defined]
        key = normalize(term)
        if key and key not in seen:
            seen.add(key)
            out.append(term)
    return out


@dataclass(frozen=True, slots=True)
class Ngram:
    text: str  # as written in the question, punctuation inside kept ("E=mc²")
    norms: tuple[str, ...]  # the words joined, and the text as written, normalised
    start: int  # token positions [start, end)
    end: int


def candidate_ngrams(question: str, max_n: int = MAX_NGRAM, limit: int = 200) -> list[Ngram]:
    """Word sequences that could name an entity (neither end a stop word), longest first.

    "who proposed the pizza party" -> proposed, pizza, party, pizza party, ...;
    the graph decides which of them exist.
    """
    tokens = tokenize(question)
    text = question.replace("_", " ")
    grams: list[Ngram] = []
    for n in range(1, max_n + 1):  # shortest first, so a cut keeps single words
        for start in range(len(tokens) - n + 1):
            words = tokens[start : start + n]
            if words[0].norm in STOP_WORDS or words[-1].norm in STOP_WORDS:
                continue
            written = text[words[0].begin : words[-1].end]
            joined = " ".join(t.norm for t in words)
            plural = " ".join([*(t.norm for t in words[:-1]), singular(words[-1].norm)])
            norms = tuple(dict.fromkeys((joined, normalize(written), plural)))
            grams.append(Ngram(written, norms, start, start + n))
    return sorted(grams[:limit], key=lambda g: (g.start - g.end, g.start))  # longest first


def content_words(question: str) -> list[Token]:
    """The question's tokens that are not stop words (candidates for predicate words)."""
    return [t for t in tokenize(question) if t.norm not in STOP_WORDS]


def predicate_words(predicate_norm: str) -> list[str]:
    """A predicate's content words: "has symptom" -> ["symptom"], "is" -> []."""
    return [w for w in predicate_norm.split() if w not in STOP_WORDS]


def contains_phrase(haystack: list[str], needle: list[str]) -> bool:
    """True if ``needle`` occurs as consecutive words of ``haystack``."""
    n = len(needle)
    if n == 0 or n > len(haystack):
        return False
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))
