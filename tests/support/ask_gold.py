"""/ask measured per community: seed a community's fixture, ask its questions through
`coordbot ask --batch --json`, grade every answer.

Used by the gold test (tests/e2e/test_ask_communities.py), by bench/ask_gold.py (offline)
and by bench/ask_model.py (any OpenAI-compatible server). The communities and their split
into development and held-out live in tests/fixtures/communities/ (SPLIT.json, FORMAT.md).
A held-out community is reported by its figures only: `measure` keeps its misses out of
the report unless the caller asks for them, and nothing here prints them.
"""

from __future__ import annotations

import io
import json
import re
import time
from collections import defaultdict
from contextlib import redirect_stdout
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from app.cli import main
from app.core.ask.answers import NO_ANSWER
from app.core.graph.multihop import NOTHING_FINAL

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
COMMUNITIES = FIXTURES / "communities"
# The targets, for every community (offline backend).
TARGETS = {
    "documents": 0.92,
    "states_fact": 0.80,
    "f1": 0.90,
    "facts": 0.90,
    "no_answer": 0.90,
    "intent": 0.95,
}
MEASURES = tuple(TARGETS)


@dataclass(frozen=True)
class Community:
    name: str
    fixture: Path
    questions: Path
    held_out: bool

    def load(self) -> list[dict[str, Any]]:
        lines = self.questions.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]


def communities() -> list[Community]:
    """Every community with its questions, development ones first. The project's own
    fixture is the community "original", its gold set's tuning half the questions."""
    split = json.loads((COMMUNITIES / "SPLIT.json").read_text())
    found = []
    for held_out, names in ((False, split["development"]), (True, split["held_out"])):
        for name in names:
            if name == "original":
                fixture, questions = (
                    FIXTURES / "ask" / "fixture.json",
                    FIXTURES / "ask" / "gold.jsonl",
                )
            else:
                fixture = COMMUNITIES / name / "fixture.json"
                questions = COMMUNITIES / name / "questions.jsonl"
            if fixture.exists() and questions.exists():
                found.append(Community(name, fixture, questions, held_out))
    return found


def f1(expected: set[int], got: set[int]) -> float:
    if not expected and not got:
        return 1.0
    hits = len(expected & got)
    if not hits:
        return 0.0
    precision, recall = hits / len(got), hits / len(expected)
    return 2 * precision * recall / (precision + recall)


_MARKUP = re.compile(r"[*_`“”\"'‘’]")
_DASH = re.compile(r"[\u2010-\u2015\u2212]")  # hyphens, en and em dashes, minus


def plain(value: str) -> str:
    """Text as compared for a phrase: case, spacing, quotes, dashes and Markdown emphasis
    aside ("2–4 hours" on the page says the "2-4 hours" a question's phrase lists)."""
    return " ".join(_DASH.sub("-", _MARKUP.sub("", value)).casefold().split())


def nothing_found(item: dict[str, Any], out: dict[str, Any]) -> bool:
    """Spec 003's two ways of saying so ("cannot find an answer"; a chain's "followed the
    steps but could not find a final answer"), or no proposal for a proposals question."""
    if item["intent"] == "query_proposals" and out["intent"] == "query_proposals":
        return out["proposals"] == []
    said = out["answer"].startswith((NO_ANSWER, NOTHING_FINAL))
    return said and not out["documents"] and not out["proposals"]


def same_time(got: str | None, expected: str | None) -> bool:
    if got is None or expected is None:
        return got is expected
    return datetime.fromisoformat(got.replace("Z", "+00:00")) == datetime.fromisoformat(
        expected.replace("Z", "+00:00")
    )


def grade(item: dict[str, Any], out: dict[str, Any], titles: dict[str, str]) -> dict[str, Any]:
    shown = [titles.get(d["document_id"].replace("-", ""), "?") for d in out["documents"][:3]]
    filters = out["filters"]
    row: dict[str, Any] = {
        "question": item["question"],
        "intent": (item["intent"], out["intent"]),
        "intent_ok": out["intent"] == item["intent"],
        "filters_ok": all(
            filters[k] == item.get(k) for k in ("status", "proposal_type", "date_field")
        )
        and same_time(filters["start"], item.get("start"))
        and same_time(filters["end"], item.get("end")),
        "answer": out["answer"][:400],
    }
    if item.get("no_answer"):
        row["nothing_ok"] = nothing_found(item, out)
        return row
    if item["intent"] == "query_proposals":
        row |= {"f1": f1(set(item["proposals"]), set(out["proposals"]))}
        row |= {"expected": item["proposals"], "got": out["proposals"]}
    if item.get("documents"):
        row |= {"document_ok": item["documents"][0] in shown, "shown": shown}
        if item.get("phrases"):
            said = plain(out["answer"])
            stated = any(plain(p) in said for p in item["phrases"])
            row |= {"states_fact": row["document_ok"] and stated, "phrases": item["phrases"]}
    if item.get("fact"):
        row |= {
            "fact_ok": item["fact"].casefold() in out["answer"].casefold(),
            "fact_lead": item["fact"].casefold() in lead(out["answer"]).casefold(),
            "fact": item["fact"],
        }
    return row


def lead(answer: str) -> str:
    """The answer's first paragraph: what a member reads before the facts, sources and
    how it was found (an answer that names the fact only in the facts listed under a
    wrong lead still counts for "facts", not for "fact_lead")."""
    return answer.split("\n\n", 1)[0]


def summarise(rows: list[dict[str, Any]], seconds: float = 0.0) -> dict[str, Any]:
    def share(key: str) -> float | None:
        graded = [r[key] for r in rows if key in r]
        return round(sum(graded) / len(graded), 3) if graded else None

    def count(key: str) -> int:
        return sum(key in r for r in rows)

    proposals = [r for r in rows if "f1" in r]
    return {
        "questions": len(rows),
        "intent": share("intent_ok"),
        "f1": share("f1"),
        "filters": round(sum(r["filters_ok"] for r in proposals) / len(proposals), 3)
        if proposals
        else None,
        "documents": share("document_ok"),
        "states_fact": share("states_fact"),
        "facts": share("fact_ok"),
        "fact_lead": share("fact_lead"),
        "no_answer": share("nothing_ok"),
        "graded": {
            "f1": count("f1"),
            "documents": count("document_ok"),
            "states_fact": count("states_fact"),
            "facts": count("fact_ok"),
            "fact_lead": count("fact_lead"),
            "no_answer": count("nothing_ok"),
        },
        "seconds_per_question": round(seconds / max(1, len(rows)), 3),
    }


def misses(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        r
        for r in rows
        if not r["intent_ok"]
        or r.get("f1", 1.0) < 1.0
        or not r.get("document_ok", True)
        or not r.get("states_fact", True)
        or not r.get("fact_ok", True)
        or not r.get("fact_lead", True)
        or not r.get("nothing_ok", True)
    ]


def _titles(data_dir: Path) -> dict[str, str]:
    engine = create_engine(f"sqlite:///{data_dir / 'coordbot.sqlite3'}")
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, title FROM documents")).all()
    engine.dispose()
    return {str(row[0]).replace("-", ""): str(row[1]) for row in rows}


def _cli(argv: list[str]) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(argv)
    if code != 0:
        raise RuntimeError(f"coordbot {' '.join(argv[:2])} exited {code}")
    return out.getvalue()


def seed(community: Community) -> None:
    """Seed into the current DATA_DIR (the caller sets it, one per community)."""
    _cli(["seed", str(community.fixture)])


def ask_all(
    community: Community,
    work: Path,
    data_dir: Path,
    limit: int | None = None,
    spread: bool = False,
) -> tuple[list[dict[str, Any]], float]:
    """Every question through `coordbot ask --batch --json`, graded; and the seconds
    taken. ``limit``: only the first N, or with ``spread`` N spaced evenly through the
    set (a gold set is grouped by kind: its first questions are all of one kind)."""
    items = community.load()
    if limit is not None and spread and len(items) > limit:
        items = [items[i * len(items) // limit] for i in range(limit)]
    else:
        items = items[:limit]
    titles = _titles(data_dir)
    by_now: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        by_now[item["now"]].append(item)
    rows, started = [], time.perf_counter()
    for now, group in by_now.items():
        batch = work / f"{community.name}-questions.txt"
        batch.write_text("\n".join(" ".join(i["question"].split()) for i in group) + "\n")
        printed = _cli(["ask", "--batch", str(batch), "--now", now, "--json"])
        answers = [json.loads(line) for line in printed.splitlines() if line.strip()]
        for item, out in zip(group, answers, strict=True):
            rows.append(grade(item, out, titles))
    return rows, time.perf_counter() - started


def report(
    community: Community, rows: list[dict[str, Any]], seconds: float, show_misses: bool
) -> dict[str, Any]:
    """A community's figures; its misses only when asked and never for a held-out one."""
    figures = summarise(rows, seconds)
    figures["split"] = "held_out" if community.held_out else "development"
    missed = misses(rows)
    figures["misses"] = missed if show_misses and not community.held_out else len(missed)
    figures["below_target"] = {
        k: figures[k]
        for k, target in TARGETS.items()
        if figures[k] is not None and figures[k] < target
    }
    return figures
