"""bench/ask_gold_diff.py: two gold runs compared in questions, held-out questions never
listed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.ask_gold_diff import compare

REPO_ROOT = Path(__file__).resolve().parents[2]


def _community(split: str, no_answer: float, f1: float, misses: list[dict]) -> dict:
    return {
        "questions": 40,
        "intent": 1.0,
        "f1": f1,
        "no_answer": no_answer,
        "states_fact": None,
        "graded": {"f1": 10, "no_answer": 20},
        "split": split,
        "misses": misses if split == "development" else len(misses),
    }


def _runs() -> tuple[dict, dict]:
    unanswered = {"question": "what is the wifi password", "nothing_ok": False, "answer": "x"}
    partial = {"question": "proposals about pets", "f1": 0.5, "answer": "I found 3 proposals"}
    before = {
        "communities": {
            "dev": _community("development", 0.5, 0.8, [unanswered]),
            "kept": _community("held_out", 0.5, 0.9, [unanswered]),
        }
    }
    after = {
        "communities": {
            "dev": _community("development", 0.55, 0.75, [partial]),
            "kept": _community("held_out", 0.6, 0.9, [partial]),
        }
    }
    return before, after


def test_moves_are_counted_in_questions_and_summed_per_split() -> None:
    report = compare(*_runs(), show_flips=False)

    dev = report["communities"]["dev"]["moved"]
    assert dev["no_answer"] == {"before": 0.5, "after": 0.55, "questions": 1.0}
    assert dev["f1"]["questions"] == -0.5  # a mean over 10 graded questions
    assert "intent" not in dev  # unchanged measures are left out
    assert report["questions_by_split"] == {
        "development": {"f1": -0.5, "no_answer": 1.0},
        "held_out": {"no_answer": 2.0},
    }


def test_flips_list_development_questions_only() -> None:
    report = compare(*_runs(), show_flips=True)

    flips = report["communities"]["dev"]["flips"]
    assert flips == [
        {
            "question": "proposals about pets",
            "before": {},
            "after": {"f1": 0.5},
            "reply_after": "I found 3 proposals",
        },
        {
            "question": "what is the wifi password",
            "before": {"nothing_ok": False},
            "after": {},
            "reply_after": None,
        },
    ]
    assert "flips" not in report["communities"]["kept"]


def test_the_command_prints_json_and_refuses_a_file_that_is_no_report(tmp_path: Path) -> None:
    before, after = _runs()
    (tmp_path / "a.json").write_text(json.dumps(before))
    (tmp_path / "b.json").write_text(json.dumps(after))
    (tmp_path / "bad.json").write_text("not json")
    script = str(REPO_ROOT / "bench" / "ask_gold_diff.py")

    ok = subprocess.run(
        [sys.executable, script, str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--flips"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(ok.stdout)["questions_by_split"]["held_out"] == {"no_answer": 2.0}

    bad = subprocess.run(
        [sys.executable, script, str(tmp_path / "bad.json"), str(tmp_path / "b.json")],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2
    assert "not a bench/ask_gold.py report" in bad.stderr
    assert "Traceback" not in bad.stderr
