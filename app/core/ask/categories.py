"""Category topics: "events" finds the festival, the weekly class and the football sponsorship.

Members name categories ("events", "sustainability", "food", "budget") that the
proposals themselves rarely use as words. One short word embeds too loosely against
a whole proposal to find them (MiniLM puts "events" closer to a projector for the
"event room" than to a street festival), but a sentence describing the category
embeds well against them: "social events and activities: parties, festivals, game
nights, classes, ..." lies close to every one of those proposals.

So each common category of community life has a few words members use for it and
a description; the description's vector is the category's label vector. A topic that
is one of those words (in any form) becomes that category, and the proposals close to
its label vector are on topic. Precision: a topic that is no category ("time travel",
"astrology") gets no label vector and so finds nothing new; and a proposal must come
close to the label, absolutely and relative to the best one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import numpy as np

from app.domain.messages import N_
from app.nlp.key_terms import word_forms

Embed = Callable[[Sequence[str]], Awaitable[np.ndarray]]

# Cosine of a proposal to a category's label vector (int8 MiniLM, description against
# the indexed proposal text): above LABEL_FLOOR and within LABEL_RATIO of the best.
LABEL_FLOOR = 0.3
LABEL_RATIO = 0.75
MAX_TOPIC_WORDS = 2  # "food related", "sustainability"; longer topics are not a category


@dataclass(frozen=True, slots=True)
class Category:
    name: str
    words: str  # what members call it, separated by spaces
    description: str  # what it covers: embedded as its label vector
    examples: str = ""  # things that belong to it, comma-separated: found as words

    @property
    def terms(self) -> list[str]:
        return [t.strip() for t in self.examples.split(",") if t.strip()]


CATEGORIES: tuple[Category, ...] = (
    Category(
        N_("events"),
        "event events activity activities social gathering gatherings celebration "
        "celebrations festivities entertainment",
        "social events and activities: a party, a festival, a celebration, a game "
        "night, a film night, a concert, a dinner, a class, a workshop, a sports team, "
        "a gathering",
        "party, parties, festival, celebration, concert, game night, movie night, film "
        "night, karaoke, dinner, potluck, barbecue, picnic, workshop, class, classes, "
        "course, tournament, football, meetup",
    ),
    Category(
        N_("sustainability"),
        "sustainability sustainable environment environmental green eco ecological "
        "climate renewable renewables",
        "sustainability and the environment: renewable energy, solar panels, green "
        "electricity, recycling, compost, waste, electric cars, saving energy",
        "solar, renewable, recycling, recycle, compost, green electricity, electric "
        "cars, charging points, energy saving, insulation, car-sharing",
    ),
    Category(
        N_("food"),
        "food foods eating meal meals cooking drinks catering",
        "food and drink: meals, cooking, dinners, pizza, a barbecue, catering, snacks, "
        "the fridge, groceries",
        "food, meal, dinner, lunch, breakfast, pizza, barbecue, potluck, catering, "
        "cooking, snacks, fridge, vegetarian, soup, dishes, cuisine",
    ),
    Category(
        N_("money"),
        "money finance finances financial spending costs funding funds expenses",
        "money and the budget: spending, costs, prices in EUR, funding, grants, "
        "fundraising, fees, savings",
        "",
    ),
    Category(
        N_("safety"),
        "safety security safe secure crime theft",
        "safety and security: cameras, locks, keys and access cards, theft, break-ins, "
        "lights at night, emergencies",
        "security, camera, cameras, locks, key cards, theft, stolen, break-ins, alarm",
    ),
    Category(
        N_("pets"),
        "pet pets animal animals",
        "pets and animals: dogs, cats, a dog area, an office cat, animals in the building",
        "dog, dogs, cat, cats, pets, animals",
    ),
    Category(
        N_("music"),
        "music musical musicians concerts",
        "music: bands, concerts, singing, karaoke, instruments, a rehearsal room",
        "music, band, bands, concert, karaoke, singing, choir, instruments, rehearsal",
    ),
    Category(
        N_("sports"),
        "sport sports fitness exercise",
        "sports and exercise: football, tennis, table tennis, yoga, fitness, cycling, a"
        " sports club or team",
        "football, tennis, table tennis, yoga, fitness, sports, tournament",
    ),
    Category(
        N_("transport"),
        "transport transportation mobility vehicles commuting",
        "transport and mobility: cars, parking, bikes, car sharing, charging electric cars",
        "car, cars, parking, bike, bikes, car-sharing, cargo bike",
    ),
    Category(
        N_("cleaning"),
        "cleaning cleanliness hygiene tidiness housekeeping",
        "cleaning and tidiness: a cleaning rota, a cleaning company, clean-up days, a "
        "dirty kitchen, rubbish",
        "cleaning, clean-up, cleaner",
    ),
    Category(
        N_("technology"),
        "technology tech digital computers internet online",
        "technology: the internet connection, wifi, printers, apps and software, computers",
        "internet, wifi, printer, app, software, computer, fibre",
    ),
    Category(
        N_("accessibility"),
        "accessibility accessible disability disabled barrier-free",
        "accessibility: wheelchair ramps, lifts, access for people with disabilities "
        "and parents with prams",
        "wheelchair, ramp, lift, accessible, prams",
    ),
    Category(
        N_("children"),
        "children kids family families youth",
        "children and families: a playground, games for children, a youth team, parents",
        "children, kids, playground, youth, parents",
    ),
)


@dataclass(frozen=True, slots=True)
class Label:
    category: Category
    vector: np.ndarray


class Categories:
    """Which category a topic names, with its label vector (embedded once, then kept)."""

    def __init__(self, embed: Embed, categories: Sequence[Category] = CATEGORIES) -> None:
        self.embed = embed
        self.categories = tuple(categories)
        self._forms = [
            frozenset().union(*(word_forms(w) for w in c.words.split())) for c in categories
        ]
        self._vectors: np.ndarray | None = None
        self._lock = asyncio.Lock()

    def named(self, terms: Sequence[str]) -> Category | None:
        """The category a short topic names ("events", "food related"), if any."""
        if not terms or len(terms) > MAX_TOPIC_WORDS:
            return None
        for category, forms in zip(self.categories, self._forms, strict=True):
            if any(word_forms(t.casefold()) & forms for t in terms):
                return category
        return None

    def rest(self, category: Category, terms: Sequence[str]) -> list[str]:
        """The topic's words that are not the category's: "trucks" of "food trucks"."""
        forms = self._forms[self.categories.index(category)]
        return [t for t in terms if not word_forms(t.casefold()) & forms]

    async def label(self, terms: Sequence[str]) -> Label | None:
        category = self.named(terms)
        if category is None:
            return None
        async with self._lock:
            if self._vectors is None:
                found = await self.embed([c.description for c in self.categories])
                self._vectors = np.asarray(found, dtype=np.float32)
        return Label(category, self._vectors[self.categories.index(category)])


def on_label(similarity: dict[int, float]) -> dict[int, float]:
    """The proposals close enough to a label vector: above the floor, near the best."""
    if not similarity:
        return {}
    bar = max(LABEL_FLOOR, max(similarity.values()) * LABEL_RATIO)
    return {pid: s for pid, s in similarity.items() if s >= bar}
