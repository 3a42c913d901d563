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

Whoever groups, :func:`shown_themes` decides what a reader sees, because a theme of one
idea, or a name repeating one idea's words, would publish that member's idea: a theme
is shown only when at least :data:`MIN_IDEAS` ideas (one per member) share it, and every
word of its name that any idea uses is used by at least that many of its ideas. Other
ideas are only counted.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

#: The fewest ideas a shown theme holds, and the fewest of them each word of its name
#: must come from: below it a theme could point at one member's idea.
MIN_IDEAS = 2
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
#: Short words a theme name may use however few ideas do ("Time off in summer").
_SHORT_WORDS = frozenset(
    "a an as at be by do go i if in is it me my no of on or so to up us we".split()
)
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
    members: list[int] = field(default_factory=list)  # indices of its submissions

    def add(
        self, stems: list[str] | Counter[str], size: int = 1, members: Sequence[int] = ()
    ) -> None:
        self.terms.update(stems)
        self.size += size
        self.members += members

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


def _cluster(keyword_lists: list[tuple[int, list[str]]]) -> list[_Group]:
    """Groups of (index, keyword stems) pairs; each group knows its members' indices."""
    # Seed with the submissions whose keywords most others share; equal keys mean equal
    # keyword sets, so the result does not depend on the order of the input.
    shared = Counter(stem for _, stems in keyword_lists for stem in stems)
    ordered = sorted(
        keyword_lists, key=lambda item: (-sum(shared[t] for t in item[1]), sorted(item[1]))
    )
    groups: list[_Group] = []
    for index, stems in ordered:  # greedy, single pass
        words = set(stems)
        best, chosen = (JOIN_THRESHOLD, -1.0), None  # type: tuple[float, float], _Group | None
        for group in groups:  # in creation order, so ties go to the older group
            score = group.affinity(words)
            if score[0] >= JOIN_THRESHOLD and score > best:
                best, chosen = score, group
        if chosen is None:
            chosen = _Group()
            groups.append(chosen)
        chosen.add(stems, members=[index])
    cores = [group.core() for group in groups]
    merged = True
    while merged:  # merge groups whose core terms overlap strongly, until stable
        merged = False
        for i in range(len(groups)):
            j = i + 1
            while j < len(groups):
                if _overlap(cores[i], cores[j]) >= MERGE_THRESHOLD:
                    other, _ = groups.pop(j), cores.pop(j)
                    groups[i].add(other.terms, other.size, other.members)
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
    """The 1-3 most common terms (by surface form), each in a majority of the group and
    in at least :data:`MIN_IDEAS` of its submissions; "" when no term is that shared.

    Among equally common terms the one ``prefer`` scores highest comes first (the
    alphabet decides without it, and between equal scores).
    """

    def rank(item: tuple[str, int]) -> tuple[int, float, str]:
        stem, n = item
        return (-n, -prefer(stem) if prefer else 0.0, surface_form(stem, surfaces))

    ranked = sorted(group.terms.items(), key=rank)
    picked = [
        stem
        for i, (stem, n) in enumerate(ranked[:3])
        if n >= MIN_IDEAS and (i == 0 or 2 * n > group.size)
    ]
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


def _words(text: str) -> set[str]:
    """Every word of a text as a stem, stop words aside: short words and numbers count
    too ("Cy", "400"), since a theme name must not repeat them from a single idea."""
    words = set()
    for word in _WORD.findall(text.lower().replace("'", "").replace("\u2019", "")):
        if word not in STOP_WORDS and word not in _SHORT_WORDS:
            stem = _stem(word)
            if stem not in STOP_WORDS:
                words.add(stem)
    return words


def _discloses(name: str, members: list[set[str]], everyone: list[set[str]]) -> bool:
    """Whether a name uses a word of the ideas that fewer than MIN_IDEAS of its members
    use (a word no idea uses, such as a model's "greenery", discloses nothing)."""
    return any(
        sum(word in words for words in members) < MIN_IDEAS
        and any(word in words for words in everyone)
        for word in _words(name)
    )


def shown_themes(
    texts: list[str],
    groups: Iterable[tuple[str, Sequence[int]]],
    max_themes: int = 5,
    *,
    no_keywords: int = 0,
) -> list[dict[str, Any]]:
    """What readers see of ``groups`` (name, indices into ``texts``): the only way out.

    Each submission counts once, in the first group listing it. A group is shown when
    at least :data:`MIN_IDEAS` submissions are in it; a name that :func:`_discloses`
    gives way to one made of the group's shared keywords, and a group with none is not
    shown. Submissions in no shown group count as "other ideas", except the
    ``no_keywords`` ones the caller left out of every group ("other"). Only counts and
    shared words leave: never one idea's words, and nothing is logged.
    """
    if max_themes < 1:
        raise ValueError("max_themes must be at least 1")
    words = [_words(text) for text in texts]
    keywords = None  # the texts' keywords, read the first time a name must be remade
    taken: set[int] = set()
    counts: Counter[str] = Counter()
    for name, indices in groups:
        fresh = [i for i in dict.fromkeys(indices) if 0 <= i < len(texts) and i not in taken]
        if len(fresh) < MIN_IDEAS:
            continue
        members = [words[i] for i in fresh]
        if _discloses(name, members, words):
            stem_lists, surfaces = keywords = keywords or keyword_lists(texts)
            name = name_group([stem_lists[i] for i in fresh], surfaces)
        if not name.strip() or _discloses(name, members, words):
            continue
        taken.update(fresh)
        counts[name] += len(fresh)  # equal names are one theme
    other = len(texts) - len(taken) - no_keywords
    return ranked_themes(counts, max_themes, other=other, no_keywords=no_keywords)


def fold_small_themes(themes: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stored themes as they may be shown: any named theme of fewer than MIN_IDEAS
    ideas (results stored before :func:`shown_themes` existed, or by any summarizer)
    joins "other ideas". Names are not checked here: that needs the ideas."""
    named: list[dict[str, Any]] = []
    folded = 0
    tail: list[dict[str, Any]] = []
    for theme in themes:
        name, count = str(theme.get("theme", "")), int(theme.get("count", 0))
        if name == OVERFLOW:
            folded += count
        elif name == NO_KEYWORDS:
            tail.append({"theme": name, "count": count})
        elif count < MIN_IDEAS:
            folded += count
        else:
            named.append({"theme": name, "count": count})
    if folded:
        named.append({"theme": OVERFLOW, "count": folded})
    return named + tail


def summarize_themes(texts: list[str], max_themes: int = 5) -> list[dict[str, Any]]:
    """``[{"theme": "plants, green", "count": 3}, ...]``, largest themes first.

    At most ``max_themes`` named themes, sorted by count (descending) then name; themes
    past the cap or too small to show (:func:`shown_themes`) are counted together as
    "other ideas" and texts without keywords as "other", both after the named themes.
    """
    if max_themes < 1:
        raise ValueError("max_themes must be at least 1")
    stem_lists, surfaces = keyword_lists(texts)
    indexed = [(i, stems) for i, stems in enumerate(stem_lists) if stems]
    groups = [(_name(group, surfaces), group.members) for group in _cluster(indexed)]
    return shown_themes(texts, groups, max_themes, no_keywords=len(stem_lists) - len(indexed))


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
