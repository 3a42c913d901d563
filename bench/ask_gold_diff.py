"""What changed between two runs of bench/ask_gold.py, in questions, one JSON object.

    .venv/bin/python bench/ask_gold_diff.py BEFORE.json AFTER.json [--flips]

A change to /ask is judged by what it does to each community, and a share moves by
one question's worth at a time: .048 is one question of 21 "nothing found" ones.
For every community in both runs, each measure that moved is given as before, after
and the number of graded questions the move is worth; the totals add those up per
split (development, held out), so a gain on one measure bought with a loss on another
shows as both. With ``--flips`` (both runs made with ``--misses``), every development
question whose grading changed is listed with the reply it gets after. A held-out
community's questions are never listed, only its figures, as ask_gold.py keeps them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

MEASURES = ("intent", "filters", "f1", "documents", "states_fact", "facts", "fact_lead",
            "no_answer")  # fmt: skip
GRADES = ("f1", "document_ok", "states_fact", "fact_ok", "nothing_ok")  # a miss's marks


def _worth(community: dict[str, Any], measure: str) -> int:
    """How many questions a measure of ``community`` is a share of."""
    return int(community.get("graded", {}).get(measure, community.get("questions", 0)))


def moved(before: dict[str, Any], after: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each measure of one community that changed: before, after, and in questions."""
    out = {}
    for measure in MEASURES:
        old, new = before.get(measure), after.get(measure)
        if old is None or new is None or abs(new - old) < 1e-9:
            continue
        questions = round((new - old) * _worth(after, measure), 2)
        out[measure] = {"before": old, "after": new, "questions": questions}
    return out


def _marks(miss: dict[str, Any]) -> dict[str, Any]:
    return {k: miss[k] for k in GRADES if miss.get(k) is not None}


def flips(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """The questions of one development community whose marks changed: a question that
    is no miss in a run has no marks there."""
    if not isinstance(before.get("misses"), list) or not isinstance(after.get("misses"), list):
        return []
    old = {m["question"]: m for m in before["misses"]}
    new = {m["question"]: m for m in after["misses"]}
    out = []
    for question in sorted(old.keys() | new.keys()):
        was, now = old.get(question), new.get(question)
        marks_before = _marks(was) if was else {}
        marks_after = _marks(now) if now else {}
        if marks_before != marks_after:
            out.append({
                "question": question,
                "before": marks_before,
                "after": marks_after,  # no marks: no miss, so no reply was kept
                "reply_after": " ".join((now.get("answer") or "").split())[:200] if now else None,
            })  # fmt: skip
    return out


def compare(before: dict[str, Any], after: dict[str, Any], show_flips: bool) -> dict[str, Any]:
    communities: dict[str, Any] = {}
    totals: dict[str, dict[str, float]] = {}
    for name, old in before["communities"].items():
        new = after["communities"].get(name)
        if new is None:
            continue
        split = new.get("split", "development")
        changes = moved(old, new)
        entry: dict[str, Any] = {"split": split, "moved": changes}
        if show_flips and split == "development":
            entry["flips"] = flips(old, new)
        communities[name] = entry
        total = totals.setdefault(split, {})
        for measure, change in changes.items():
            total[measure] = round(total.get(measure, 0.0) + change["questions"], 2)
    return {"communities": communities, "questions_by_split": totals}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--flips", action="store_true", help="list development questions")
    args = parser.parse_args(argv)
    runs = []
    for path in (args.before, args.after):
        try:
            runs.append(json.loads(path.read_text()))
        except (OSError, ValueError) as error:
            print(f"{path}: not a bench/ask_gold.py report ({error})", file=sys.stderr)
            return 2
    print(json.dumps(compare(*runs, show_flips=args.flips), indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
