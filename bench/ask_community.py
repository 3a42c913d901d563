"""The made-up residents' community that /ask is benchmarked on: its date, members and words.

One place for both sides of the benchmark: the data set (bench/ask_corpus.py) is written
from these word lists and the questions (bench/ask_questions.py) are filled from them, so
questions name the people, things, places and companies the data holds.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

NOW = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)  # a Wednesday, as in the tests
ASKER = 10_000  # the first user: asks every question (and has proposals of their own)
USERS = 400
SEED = 20_261_118

TOPICS: dict[str, tuple[list[str], list[str]]] = {  # things, acts (title = "Act the thing")
    "garden": (["community garden", "raised beds", "compost bins", "tool shed",
                "rainwater tanks", "fruit trees", "greenhouse", "seed library"],
               ["expand", "repair", "replace", "fund", "relocate", "redesign"]),
    "parking": (["bike racks", "visitor parking", "car park lighting", "parking permits",
                 "charging points", "cargo bike rental", "speed bumps", "delivery bay"],
                ["extend", "rethink", "add more", "fund", "relocate", "review"]),
    "events": (["summer street party", "film night", "repair cafe", "winter market",
                "book swap", "quiz night", "harvest festival", "open mic evening"],
               ["organise", "reschedule", "promote", "fund", "host", "revive"]),
    "finance": (["annual budget", "membership fees", "reserve fund", "insurance policy",
                 "grant application", "expense claims", "bank account", "audit report"],
                ["approve", "review", "increase", "reduce", "publish", "audit"]),
    "maintenance": (["community hall roof", "heating system", "front door lock",
                     "hallway lights", "lift", "water pipes", "fire alarms", "window frames"],
                    ["repair", "replace", "inspect", "upgrade", "service", "insulate"]),
    "governance": (["bylaws", "voting rules", "code of conduct", "steering committee",
                    "annual general meeting", "meeting minutes", "membership register",
                    "working group charter"],
                   ["amend", "ratify", "review", "simplify", "publish", "update"]),
    "safety": (["first aid kits", "defibrillator", "fire exits", "night lighting",
                "security cameras", "emergency contacts list", "evacuation plan",
                "smoke detectors"],
               ["install", "check", "replace", "improve", "train people on", "review"]),
    "recycling": (["recycling bins", "glass collection", "bulky waste day",
                   "composting scheme", "clothing swap box", "battery drop-off",
                   "litter picking", "textile bin"],
                  ["start", "expand", "move", "promote", "schedule", "pause"]),
    "youth": (["playground", "homework club", "youth room", "sports pitch", "summer camp",
               "climbing frame", "toy library", "skate ramp"],
              ["renovate", "fund", "open", "extend", "staff", "redesign"]),
    "pets": (["dog park", "pet policy", "cat shelter", "dog waste bins", "pet sitting rota",
              "bird feeders", "dog walking area", "pet register"],
             ["create", "update", "fence", "fund", "enforce", "rethink"]),
}  # fmt: skip
QUALIFIERS = ["", "", "", "", " this spring", " before winter", " for next year",
              " on Elm Street", " at the north entrance", " in block B", " with a city grant",
              " on weekends", " for families", " (second attempt)", " in 2026",
              " by the end of the month", " with volunteers", " near the river path",
              " for the older residents", " as a pilot", " in the courtyard"]  # fmt: skip
PEOPLE = ["the steering committee", "a group of neighbours", "the treasurer", "several members",
          "the youth club", "our caretaker", "volunteers from block C",
          "the residents' association"]  # fmt: skip
DESCRIPTION = [
    "The {thing} has come up at several meetings this year.",
    "{People} asked us to {act} the {thing} before {season}.",
    "The estimated cost to {act} the {thing} is about {amount} euros.",
    "{People} volunteered to look after the {thing}.",
    "If we do nothing, the {thing} will keep causing complaints.",
    "A survey showed that most residents care about the {thing}.",
    "We could ask the city for a grant to cover the {thing}.",
    "The last decision about the {thing} was made three years ago.",
]
GUIDE = [
    "To use the {thing}, ask {people} for access at least two days ahead.",
    "The {thing} is available from {hour} on weekdays and all day on Saturdays.",
    "Problems with the {thing} are reported to {people}, who reply within a week.",
    "Changes to the {thing} need a vote of the general assembly.",
    "The rules for the {thing} were last revised in {month}.",
    "Members pay nothing for the {thing}; guests pay a small fee to the treasurer.",
    "Keys for the {thing} are kept in the office next to the main entrance.",
    "Please leave the {thing} clean and tidy for the next person.",
    "Children under twelve may use the {thing} only with an adult.",
    "Damage to the {thing} must be recorded in the logbook the same day.",
]
GUIDE_TITLES = ["Guide to the {thing}", "House rules: {thing}", "How the {thing} works",
                "FAQ: {thing}", "The {thing} handbook"]  # fmt: skip
OPTION_SETS = [["Yes", "No"], ["Yes", "No", "Abstain"], ["In favour", "Against", "Abstain"],
               ["Saturday", "Sunday"], ["Spring", "Summer", "Autumn"],
               ["Up to 200 euros", "Up to 500 euros", "More than 500 euros"],
               ["Now", "Next year", "Never"]]  # fmt: skip
FIRST = (
    "Alice Bob Carla Dmitri Elena Farid Greta Hugo Ines Jonas Kemal Lena Marco Nadia "
    "Oscar Priya Quentin Rosa Samir Tara Umar Vera Walter Xenia Yusuf Zoe Anton Bianca "
    "Cyril Dora Emil Fatima Gustav Hana Ivan Julia Karim Lotte Milan Nora"
).split()
LAST = (
    "Moreau Novak Schmidt Rossi Silva Kowalski Jansen Berg Costa Horvat Dubois Fischer "
    "Lindqvist Marin Oliveira Petrov Quinn Romero Sato Tanaka Ueda Varga Weber Young "
    "Zielinski Andersen Brandt Castro Dahl Eriksen Ferreira Gallo Haas Ibsen Jovanovic "
    "Keller Lopez Meyer Nilsen Ortiz"
).split()
VENUES = ["Old Library", "Community Hall", "Parish Room", "School Gym", "Riverside Pavilion",
          "Elm Street Courtyard", "Block B Basement", "Market Square", "Youth Centre",
          "Allotment Hut", "Chapel Annex", "North Lawn"]  # fmt: skip
STREETS = [
    f"{n} {k}"
    for n in (
        "Elm",
        "Oak",
        "Mill",
        "Station",
        "Church",
        "Rose",
        "Park",
        "Bridge",
        "Harbour",
        "Orchard",
    )
    for k in ("Street", "Lane", "Road")
]
COMPANIES = [f"{n} {k}" for n in ("Greenway", "Northside", "Bluebell", "Riverside", "Kestrel",
                                  "Hillcrest", "Cobalt", "Maple")
             for k in ("Bakery", "Hardware", "Clinic", "Builders", "Books")]  # fmt: skip
HOBBIES = ["gardening", "chess", "cycling", "choir singing", "woodwork", "photography",
           "baking", "running", "knitting", "birdwatching"]  # fmt: skip
MONTHS = ["January", "March", "May", "July", "September", "November"]
SEASONS = ["spring", "summer", "the autumn", "winter", "the next assembly"]


def users() -> list[Any]:
    """The community's members, the asker first."""
    from app.domain.models import User

    out = []
    for i in range(USERS):
        first, last = FIRST[i % len(FIRST)], LAST[(i * 7 + i // len(FIRST)) % len(LAST)]
        out.append(User(ASKER + i, f"{first.lower()}_{last.lower()}", first, last))
    return out
