"""The /ask gold set: intent accuracy and proposal-set F1 with the offline backend.

The fixture (tests/fixtures/ask/fixture.json) is our own: proposals with known
dates, statuses, types and topics, plus documents and facts. Each line of
gold.jsonl is a question with its expected intent, filters and proposal ids.
Questions go through `coordbot ask --batch`, the same pipeline as the bot.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from app.cli import main
from tests.e2e.conftest import json_lines

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "ask"
MIN_INTENT_ACCURACY = 0.95
MIN_MEAN_F1 = 0.90


def f1(expected: set[int], got: set[int]) -> float:
    if not expected and not got:
        return 1.0
    hits = len(expected & got)
    if not hits:
        return 0.0
    precision, recall = hits / len(got), hits / len(expected)
    return 2 * precision * recall / (precision + recall)


def test_gold_set(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = [json.loads(line) for line in (HERE / "gold.jsonl").read_text().splitlines() if line]
    assert len(gold) >= 60
    assert main(["seed", str(HERE / "fixture.json")]) == 0
    capsys.readouterr()
    by_now: dict[str, list[dict]] = defaultdict(list)  # type: ignore[type-arg]
    for item in gold:
        by_now[item["now"]].append(item)
    report = []
    for now, items in by_now.items():
        batch = env / "questions.txt"
        batch.write_text("\n".join(i["question"] for i in items) + "\n")
        assert main(["ask", "--batch", str(batch), "--now", now, "--json"]) == 0
        for item, out in zip(items, json_lines(capsys), strict=True):
            filters = out["filters"]
            report.append(
                {
                    "question": item["question"],
                    "intent_ok": out["intent"] == item["intent"],
                    "filters_ok": all(
                        filters[k] == item[k] for k in ("status", "proposal_type", "date_field")
                    )
                    and _same_time(filters["start"], item["start"])
                    and _same_time(filters["end"], item["end"]),
                    "proposal_question": item["intent"] == "query_proposals",
                    "f1": f1(set(item["proposals"]), set(out["proposals"])),
                    "expected": sorted(item["proposals"]),
                    "got": sorted(out["proposals"]),
                    "intent": (item["intent"], out["intent"]),
                }
            )
    intent_accuracy = sum(r["intent_ok"] for r in report) / len(report)
    proposal_rows = [r for r in report if r["proposal_question"]]
    mean_f1 = sum(r["f1"] for r in proposal_rows) / len(proposal_rows)
    filter_accuracy = sum(r["filters_ok"] for r in proposal_rows) / len(proposal_rows)
    misses = [r for r in report if not r["intent_ok"] or r["f1"] < 1.0 or not r["filters_ok"]]
    print(
        json.dumps(
            {
                "questions": len(report),
                "intent_accuracy": round(intent_accuracy, 3),
                "mean_f1": round(mean_f1, 3),
                "filter_accuracy": round(filter_accuracy, 3),
                "misses": misses,
            },
            indent=1,
        )
    )
    assert intent_accuracy >= MIN_INTENT_ACCURACY
    assert mean_f1 >= MIN_MEAN_F1


def _same_time(got: str | None, expected: str | None) -> bool:
    from datetime import datetime

    if got is None or expected is None:
        return got is expected
    return datetime.fromisoformat(got.replace("Z", "+00:00")) == datetime.fromisoformat(
        expected.replace("Z", "+00:00")
    )
