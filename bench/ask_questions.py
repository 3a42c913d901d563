"""The questions asked: ~30 templates filled with the community's things, people and proposals.

Each template has a kind (filters, keywords, both, proposer, docs, facts, id) that the JSON
report groups latencies by; questions cycle through the templates in order, so every kind
is asked in proportion however many questions a run asks.
"""

from __future__ import annotations

import random
from typing import Any

from bench.ask_community import COMPANIES, MONTHS, QUALIFIERS, TOPICS

TEMPLATES: list[tuple[str, str]] = [
    ("filters", "which polls are open?"),
    ("filters", "what closes this week?"),
    ("filters", "show closed polls from last week"),
    ("filters", "list cancelled proposals"),
    ("filters", "how many proposals were created in {month} 2025?"),
    ("filters", "what proposals are closing next week?"),
    ("filters", "which free form proposals are still open?"),
    ("keywords", "any proposals about the {thing}?"),
    ("keywords", "Which proposals mention {word}?"),
    ("keywords", "what was suggested for the {thing}{qualifier}?"),
    ("keywords", "proposals on {word} and {word2}"),
    ("both", "which open proposals about {word} were created this month?"),
    ("both", "closed polls about the {thing} from last year"),
    ("both", "any free form ideas about the {thing}?"),
    ("both", "what did we decide about the {thing} in {month} 2025?"),
    ("proposer", "which proposals did {first} make?"),
    ("proposer", "proposals by @{username} about {word}"),
    ("proposer", "what did I propose this year?"),
    ("proposer", "who proposed to {title_lower}?"),
    ("docs", "how does the {thing} work?"),
    ("docs", "what are the rules for the {thing}?"),
    ("docs", "how do I get the keys for the {thing}?"),
    ("docs", "what is the process to report damage to the {thing}?"),
    ("facts", "who manages the {thing}?"),
    ("facts", "who maintains the {thing}?"),
    ("facts", "what does {person} enjoy?"),
    ("facts", "who works for {company}?"),
    ("facts", "who manages the venues that hold the {event}?"),
    ("id", "#{id} what are the options?"),
    ("id", "#{id} when does it close?"),
    ("id", "{id} who can use the {thing}?"),
]
WORDS = (
    "garden parking budget playground recycling heating bylaws dogs lighting festival "
    "insurance compost bikes roof camp"
).split()


def questions(n: int, rnd: random.Random, people: list[Any], n_proposals: int) -> list[tuple]:
    things = [(t, th) for t, (ths, _) in TOPICS.items() for th in ths]
    out = []
    for i in range(n):
        kind, template = TEMPLATES[i % len(TEMPLATES)]
        topic, thing = rnd.choice(things)
        user = rnd.choice(people[:60])
        words = rnd.sample(WORDS, 2)
        act = rnd.choice(TOPICS[topic][1])
        values = {
            "thing": thing, "word": words[0], "word2": words[1], "first": user.first_name,
            "username": user.username, "person": f"{user.first_name} {user.last_name}",
            "company": rnd.choice(COMPANIES), "event": rnd.choice(TOPICS["events"][0]),
            "id": rnd.randrange(1, n_proposals + 1), "month": rnd.choice(MONTHS),
            "qualifier": rnd.choice(QUALIFIERS), "title_lower": f"{act} the {thing}",
        }  # fmt: skip
        out.append((kind, template.format(**values)))
    return out
