"""The /ask gold set, offline backend: a tuning half and a held-out half, reported apart.

The fixture (tests/fixtures/ask/fixture.json) is our own: proposals with known dates,
statuses, types and topics, plus documents and facts. Each line of a gold file is a
question with its expected intent, filters, proposal ids, document (by title), fact
answer, or that nothing should be found. Questions go through `coordbot ask --batch`,
the same pipeline as the bot.

gold.jsonl is the tuning half (it is one of the development sets the decision is fitted
on); gold_heldout.jsonl is never used to tune. The issue's targets are printed beside
the floors enforced on it.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from app.cli import main
from app.core.ask.answers import NO_ANSWER
from app.core.graph.multihop import NOTHING_FINAL
from tests.e2e.conftest import json_lines
from tests.support.ask_gold import f1, same_time

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "ask"
# The targets for the held-out half (offline backend), reported beside the floors.
TARGETS = {"intent": 0.97, "f1": 0.93, "documents": 0.95, "facts": 0.93, "no_answer": 1.0}
# Floors: what /ask's general pipeline reached in session 13, less a question's worth.
# The rules pipeline written on this fixture (removed in session 13, issue 23: its cue
# lists and checks did not carry over to other communities) had met every target here;
# the general one reached held-out intent .927, f1 .868, documents .929, facts .944,
# no-answer .90.
HELD_OUT = {"intent": 0.9, "f1": 0.84, "documents": 0.9, "facts": 0.9, "no_answer": 0.87}
TUNING = {"intent": 0.87, "f1": 0.8, "documents": 0.88, "facts": 0.88, "no_answer": 0.64}
# Probe sets written later by testers who read the fixture but not the code: questions the
# data does not answer although they share its words (probes_noanswer), and questions
# worded close to those that it does answer (probes_positive). Used for tuning; the floors
# are the levels reached, so that no change makes them worse. Their intent labels are the
# testers' own (looser than the gold set's) and are reported, not enforced.
# The third set (phone-style: keyword queries, chatty messages, typos) is the hardest:
# its document questions are found 70% of the time, against 85% for the first two.
# probes_ours holds questions we wrote ourselves (session 9): world knowledge, things the
# fixture's pages do not say about their own rooms ("how loud is the dryer?", "who built
# the lounge?", "can I smoke in the kitchen?"), and topics no proposal is about; the
# no-answer rate over all probes went from 0.80 to 0.92 with it.
# Two more sets were written in session 10 by testers who read only the fixture (and, for
# probes_gold_style_*, the tuning half as a style guide), each split once: the tuning
# halves join the probes; the check halves are never looked into, only their figures.
# Over that session the check halves went from no-answer 0.803 to 0.827 (documents 0.857
# and facts 0.75 unchanged), while the probes above went from 0.894 to 0.925 (facts 0.825
# to 0.912): much of what tuning taught does not carry over to new phrasings, which is
# why the check halves are kept apart.
# Session 11 added a fourth tester set (probes_r4_*: 60% no-answer questions sharing the
# fixture's words, the rest worded close to them), split the same way; its lines that
# repeated a question of another set were dropped. Over that session, with it in: probes
# no-answer 0.918 -> 0.936, documents 0.812 -> 0.84, facts 0.902 -> 0.967; check halves
# no-answer 0.805 -> 0.821, documents 0.833 -> 0.875, f1 and facts unchanged.
# Session 13 (general pipeline; the rules one had f1 .935, documents .835, facts .96,
# no-answer .935): f1 .712, documents .951, facts .82, no-answer .60.
# Session 30 (models refitted on the six development communities): f1 .821, documents
# .924 (five of 144 fewer: "where are the bike tools kept" and four like it, read as fact
# questions, now find nothing when the graph does not answer), facts .918, no-answer .62.
PROBES = {"f1": 0.69, "documents": 0.91, "facts": 0.8, "no_answer": 0.58}
PROBE_FILES = (
    "probes_noanswer.jsonl",
    "probes_positive.jsonl",
    "probes_ours.jsonl",
    "probes_fresh_tune.jsonl",
    "probes_gold_style_tune.jsonl",
    "probes_r4_tune.jsonl",
)
CHECK_FILES = (
    "probes_fresh_check.jsonl",
    "probes_gold_style_check.jsonl",
    "probes_r4_check.jsonl",
)
# Session 13 (rules: f1 .85, documents .87, facts .66, no-answer .82): f1 .698,
# documents .958, facts .80, no-answer .518. Session 15 (a fitted fact-path scorer, four
# development communities): f1 .746, documents .938, facts .733 (11 of 15: one question
# fewer), no-answer .569. Facts' floor is session 13's less one question of its 15.
# Session 17 (a quantity and each candidate against the best in the sentence scorer; what
# the community never mentions in the decision): f1 .765, documents .917 (one question
# fewer), facts .733, no-answer .564.
CHECK = {"f1": 0.67, "documents": 0.91, "facts": 0.73, "no_answer": 0.49}


def _load(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (HERE / name).read_text().splitlines() if line]


def _titles(env: Path) -> dict[str, str]:
    engine = create_engine(f"sqlite:///{env / 'data' / 'coordbot.sqlite3'}")
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, title FROM documents")).all()
    engine.dispose()
    return {str(row[0]).replace("-", ""): str(row[1]) for row in rows}


def _nothing_found(item: dict[str, Any], out: dict[str, Any]) -> bool:
    """Spec 003's two ways of saying so: "cannot find an answer", or for a chain,
    "followed the steps but could not find a final answer" (with the steps taken)."""
    if item["intent"] == "query_proposals":
        return out["proposals"] == []
    said = out["answer"].startswith((NO_ANSWER, NOTHING_FINAL))
    return said and not out["documents"] and not out["proposals"]


def _grade(item: dict[str, Any], out: dict[str, Any], titles: dict[str, str]) -> dict[str, Any]:
    shown = [titles.get(d["document_id"].replace("-", ""), "?") for d in out["documents"][:3]]
    filters = out["filters"]
    row: dict[str, Any] = {
        "question": item["question"],
        "intent": (item["intent"], out["intent"]),
        "intent_ok": out["intent"] == item["intent"],
        "filters_ok": all(filters[k] == item[k] for k in ("status", "proposal_type", "date_field"))
        and same_time(filters["start"], item["start"])
        and same_time(filters["end"], item["end"]),
    }
    if item["intent"] == "query_proposals":
        row |= {"f1": f1(set(item["proposals"]), set(out["proposals"]))}
        row |= {"expected": item["proposals"], "got": out["proposals"]}
    if item.get("documents"):
        row |= {"document_ok": item["documents"][0] in shown, "shown": shown}
    if item.get("fact"):
        row |= {"fact_ok": item["fact"].lower() in out["answer"].lower(), "fact": item["fact"]}
        row |= {"answer": out["answer"][:200]}
    if item.get("no_answer"):
        row |= {"nothing_ok": _nothing_found(item, out), "answer": out["answer"][:200]}
    return row


def _measure(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def share(key: str) -> float:
        graded = [r[key] for r in rows if key in r]
        return round(sum(graded) / len(graded), 3) if graded else 1.0

    return {
        "questions": len(rows),
        "intent": share("intent_ok"),
        "f1": share("f1"),
        "filters": round(
            sum(r["filters_ok"] for r in rows if "f1" in r) / max(1, sum("f1" in r for r in rows)),
            3,
        ),
        "documents": share("document_ok"),
        "facts": share("fact_ok"),
        "no_answer": share("nothing_ok"),
        "misses": [
            r
            for r in rows
            if not r["intent_ok"]
            or r.get("f1", 1.0) < 1.0
            or not r.get("document_ok", True)
            or not r.get("fact_ok", True)
            or not r.get("nothing_ok", True)
        ],
    }


def _run(
    env: Path, capsys: pytest.CaptureFixture[str], gold: list[dict[str, Any]]
) -> dict[str, Any]:
    titles = _titles(env)
    by_now: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in gold:
        by_now[item["now"]].append(item)
    rows = []
    for now, items in by_now.items():
        batch = env / "questions.txt"
        batch.write_text("\n".join(i["question"] for i in items) + "\n")
        assert main(["ask", "--batch", str(batch), "--now", now, "--json"]) == 0
        for item, out in zip(items, json_lines(capsys), strict=True):
            rows.append(_grade(item, out, titles))
    return _measure(rows)


def test_gold_set(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tuning, held_out = _load("gold.jsonl"), _load("gold_heldout.jsonl")
    fixture = json.loads((HERE / "fixture.json").read_text())
    assert len(tuning) + len(held_out) >= 200 and len(held_out) >= 100
    assert len(fixture["proposals"]) >= 60 and len(fixture["documents"]) >= 15
    assert not {q["question"] for q in tuning} & {q["question"] for q in held_out}
    assert main(["seed", str(HERE / "fixture.json")]) == 0
    capsys.readouterr()
    report = {"tuning": _run(env, capsys, tuning), "held_out": _run(env, capsys, held_out)}
    # Misses are shown for the tuning half only: the held-out half is never looked into.
    report["held_out"]["misses"] = len(report["held_out"]["misses"])
    report["targets_not_met"] = {
        k: report["held_out"][k] for k, target in TARGETS.items() if report["held_out"][k] < target
    }
    print(json.dumps(report, indent=1))
    for half, targets in (("tuning", TUNING), ("held_out", HELD_OUT)):
        for metric, target in targets.items():
            assert report[half][metric] >= target, f"{half} {metric}: {report[half][metric]}"


def test_probe_sets(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    probes = [question for name in PROBE_FILES for question in _load(name)]
    held_out = {q["question"].lower() for q in _load("gold_heldout.jsonl")}
    assert len(probes) >= 1250 and not {q["question"].lower() for q in probes} & held_out
    assert main(["seed", str(HERE / "fixture.json")]) == 0
    capsys.readouterr()
    report = _run(env, capsys, probes)
    print(json.dumps(report | {"misses": len(report["misses"])}, indent=1))
    for metric, floor in PROBES.items():
        assert report[metric] >= floor, f"probes {metric}: {report[metric]}"


def test_check_halves(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The later probe sets' check halves: figures only, their misses are never shown."""
    check = [question for name in CHECK_FILES for question in _load(name)]
    seen = {q["question"].lower() for name in (*PROBE_FILES, "gold_heldout.jsonl")
            for q in _load(name)}  # fmt: skip
    assert len(check) >= 295 and not {q["question"].lower() for q in check} & seen
    assert main(["seed", str(HERE / "fixture.json")]) == 0
    capsys.readouterr()
    report = _run(env, capsys, check) | {"misses": "not shown"}
    print(json.dumps(report, indent=1))
    for metric, floor in CHECK.items():
        assert report[metric] >= floor, f"check halves {metric}: {report[metric]}"
