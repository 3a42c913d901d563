"""Group free-form submissions into a few named themes, deterministically and offline.

Submissions are anonymous; this module only counts them and never logs their text.
Keywords are lowercase words (stop words dropped, lightly stemmed). A greedy single
pass lets each submission join the group covering most of its keywords (a weighted
overlap coefficient, so "ping pong table" finds "table tennis in the lobby"); groups
sharing their core terms are then merged and named by their most common words. The
pass visits submissions in a canonical order (most widely shared keywords first), not
input order, and every tie is broken by counts or the alphabet, never by set or hash
order: the same submissions in any order give the same themes. :class:`ThemeSummarizer`
lets a model (``themes_llm``) or the embedding model (``themes_semantic``, which reuses
the keywords and naming here) replace :class:`KeywordThemeSummarizer`; this grouping
is what they fall back to.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

JOIN_THRESHOLD = 0.25
MERGE_THRESHOLD = 0.5
NO_KEYWORDS = "other"
OVERFLOW = "other ideas"

_STOP_WORDS_TEXT = """
    about above after again against all also and any are aren arent because been before
    being below between both but can cannot cant could couldnt did didnt does doesnt
    doing dont down during each few for from further had has have having her here hers
    herself him himself his how into isnt its itself just let lets more most much must
    myself nor not now off once only other our ours ourselves out over own same she
    should shouldnt some such than that thats the their theirs them themselves then there
    these they this those through too under until very was wasnt were what when where
    which while who whom why will with wont would wouldnt you your yours yourself ive
    youre theyre maybe perhaps think thought like really please thank thanks want wanted
    need needs get got make made add idea ideas suggest suggestion suggestions propose
    new better good great nice lot lots many every everyone everything everywhere
    something anything someone thing things way even still yes yeah okay well one two
    use using able sure kind quite bit day time people team instead else another near
    next behind inside outside around within without across along among upon via per
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())
_WORD = re.compile(r"[^\W_]+")
_VOWEL = re.compile("[aeiouy]")


def _stem(word: str) -> str:
    """Light suffix stripping: plurals, -ing, -ed, -ly, keeping at least 3 letters."""
    if word.endswith("ies") and len(word) >= 6:
        return word[:-3] + "y"  # parties -> party
    if word.endswith(("sses", "shes", "ches", "xes")) and len(word) >= 5:
        return word[:-2]  # classes, dishes, beaches, boxes
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) >= 4:
        return word[:-1]  # plants; not glass, bus, tennis
    for suffix in ("ing", "ed"):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3 and _VOWEL.search(stem):
            if suffix == "ed" and stem.endswith("e"):
                return word  # speed, freed
            if len(stem) >= 4 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                stem = stem[:-1]  # running -> run
            return stem
    if word.endswith("ly") and len(word) >= 5 and word[-3] not in "ilp":
        return word[:-2]  # weekly; not family, silly, apply
    return word


def _keywords(text: str, surfaces: dict[str, Counter[str]]) -> list[str]:
    """Distinct keyword stems of a text, in first-seen order; records surface forms."""
    stems: list[str] = []
    for word in _WORD.findall(text.lower().replace("'", "").replace("\u2019", "")):
        if len(word) < 3 or word.isdigit() or word in STOP_WORDS:
            continue
        stem = _stem(word)
        if stem in STOP_WORDS:
            continue
        surfaces.setdefault(stem, Counter())[word] += 1
        if stem not in stems:
            stems.append(stem)
    return stems


@dataclass
class _Group:
    terms: Counter[str] = field(default_factory=Counter)  # stem -> submissions using it
    size: int = 0

    def add(self, stems: list[str] | Counter[str], size: int = 1) -> None:
        self.terms.update(stems)
        self.size += size

    def core(self) -> set[str]:
        """Terms used by at least half the group (all terms of a single submission)."""
        return {t for t, n in self.terms.items() if 2 * n >= self.size}

    def affinity(self, words: set[str]) -> tuple[float, float]:
        """(Weighted overlap coefficient, Jaccard) of a submission's keywords and the group.

        Shared terms count by the share of members using them, so a big group does not
        grow by incidental words; for a group of one it is the plain overlap coefficient.
        """
        shared = [t for t in words if t in self.terms]
        if not words or not shared:
            return (0.0, 0.0)
        weight = sum(self.terms[t] for t in shared) / self.size
        mean_len = self.terms.total() / self.size
        jaccard = len(shared) / (len(words) + len(self.terms) - len(shared))
        return (weight / min(len(words), mean_len), jaccard)


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def _cluster(keyword_lists: list[list[str]]) -> list[_Group]:
    # Seed with the submissions whose keywords most others share; equal keys mean equal
    # keyword sets, so the result does not depend on the order of the input.
    shared = Counter(stem for stems in keyword_lists for stem in stems)
    ordered = sorted(
        keyword_lists, key=lambda stems: (-sum(shared[t] for t in stems), sorted(stems))
    )
    groups: list[_Group] = []
    for stems in ordered:  # greedy, single pass
        words = set(stems)
        best, chosen = (JOIN_THRESHOLD, -1.0), None  # type: tuple[float, float], _Group | None
        for group in groups:  # in creation order, so ties go to the older group
            score = group.affinity(words)
            if score[0] >= JOIN_THRESHOLD and score > best:
                best, chosen = score, group
        if chosen is None:
            chosen = _Group()
            groups.append(chosen)
        chosen.add(stems)
    cores = [group.core() for group in groups]
    merged = True
    while merged:  # merge groups whose core terms overlap strongly, until stable
        merged = False
        for i in range(len(groups)):
            j = i + 1
            while j < len(groups):
                if _overlap(cores[i], cores[j]) >= MERGE_THRESHOLD:
                    other, _ = groups.pop(j), cores.pop(j)
                    groups[i].add(other.terms, other.size)
                    cores[i], merged = groups[i].core(), True
                else:
                    j += 1
    return groups


def surface_form(stem: str, surfaces: dict[str, Counter[str]]) -> str:
    """The word most often written for a stem (the alphabetically first among equals)."""
    return min(surfaces[stem].items(), key=lambda item: (-item[1], item[0]))[0]


def _name(
    group: _Group,
    surfaces: dict[str, Counter[str]],
    prefer: Callable[[str], float] | None = None,
) -> str:
    """The 1-3 most common terms (by surface form), each in a majority of the group.

    Among equally common terms the one ``prefer`` scores highest comes first (the
    alphabet decides without it, and between equal scores).
    """

    def rank(item: tuple[str, int]) -> tuple[int, float, str]:
        stem, n = item
        return (-n, -prefer(stem) if prefer else 0.0, surface_form(stem, surfaces))

    ranked = sorted(group.terms.items(), key=rank)
    picked = [stem for i, (stem, n) in enumerate(ranked[:3]) if i == 0 or 2 * n > group.size]
    return ", ".join(surface_form(stem, surfaces) for stem in picked)


def keyword_lists(texts: list[str]) -> tuple[list[list[str]], dict[str, Counter[str]]]:
    """Each text's keyword stems, and the surface forms seen for every stem."""
    surfaces: dict[str, Counter[str]] = {}
    return [_keywords(text, surfaces) for text in texts], surfaces


def name_group(
    members: list[list[str]],
    surfaces: dict[str, Counter[str]],
    prefer: Callable[[str], float] | None = None,
) -> str:
    """A group's name from its members' keyword stems (each list non-empty)."""
    group = _Group()
    for stems in members:
        group.add(stems)
    return _name(group, surfaces, prefer)


def ranked_themes(
    counts: Counter[str], max_themes: int, *, other: int = 0, no_keywords: int = 0
) -> list[dict[str, Any]]:
    """Named themes by count (descending) then name, at most ``max_themes`` of them; the
    rest plus ``other`` as "other ideas", then ``no_keywords`` as "other"."""
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    themes: list[dict[str, Any]] = [
        {"theme": name, "count": count} for name, count in ranked[:max_themes]
    ]
    overflow = other + sum(count for _, count in ranked[max_themes:])
    if overflow:
        themes.append({"theme": OVERFLOW, "count": overflow})
    if no_keywords:
        themes.append({"theme": NO_KEYWORDS, "count": no_keywords})
    return themes


def summarize_themes(texts: list[str], max_themes: int = 5) -> list[dict[str, Any]]:
    """``[{"theme": "plants, green", "count": 3}, ...]``, largest themes first.

    At most ``max_themes`` named themes, sorted by count (descending) then name; smaller
    themes are counted together as "other ideas" and texts without keywords as "other",
    both after the named themes.
    """
    if max_themes < 1:
        raise ValueError("max_themes must be at least 1")
    stem_lists, surfaces = keyword_lists(texts)
    no_keywords = sum(1 for stems in stem_lists if not stems)
    counts: Counter[str] = Counter()
    for group in _cluster([stems for stems in stem_lists if stems]):
        counts[_name(group, surfaces)] += group.size  # equal names are one theme
    return ranked_themes(counts, max_themes, no_keywords=no_keywords)


@runtime_checkable
class ThemeSummarizer(Protocol):
    """Turns anonymous free-form submissions into ``[{"theme": str, "count": int}]``."""

    async def summarize(self, texts: list[str]) -> list[dict[str, Any]]: ...


class KeywordThemeSummarizer:
    """The offline default: :func:`summarize_themes` (cheap, so it runs inline)."""

    def __init__(self, max_themes: int = 5) -> None:
        self.max_themes = max_themes

    async def summarize(self, texts: list[str]) -> list[dict[str, Any]]:
        return summarize_themes(texts, self.max_themes)
