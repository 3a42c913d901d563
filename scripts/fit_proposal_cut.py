"""Refit /ask's proposal cut (app/core/ask/proposal_cut.json) from the development communities.

    .venv/bin/python scripts/fit_proposal_cut.py [--cache FILE] [--reuse] [--dry-run]

Every development community of tests/fixtures/communities/SPLIT.json is seeded into a
fresh DATA_DIR (SQLite, embedded Chroma, the bundled model, the offline reading), and
each of its questions that asks for proposals is searched as /ask searches it
(ContextService.inspect). Every candidate the fusion returns is one row: its features
(proposal_cut.FEATURES) and whether the question's gold list holds it. Each question
weighs the same within its community, each community the same.

The L2 penalty and the probability that keeps a candidate are chosen by leaving one
community out at a time (the mean F1 of the left-out community's lists); the cut is
then fitted on all of them. Held-out communities are never read here. Prints one JSON
report.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import numpy as np  # noqa: E402

from app.core.ask import proposal_cut  # noqa: E402
from app.core.ask.analysis import INTENT_PROPOSALS  # noqa: E402
from tests.support import ask_fitting  # noqa: E402

PENALTIES = (0.01, 0.1, 1.0, 10.0)
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.2, 0.81, 0.05))


def record(item: dict[str, Any], gathered: Any) -> dict[str, Any] | None:
    """A proposals question's candidates: their features and labels, and how many
    proposals its gold list has; None when the fusion found none."""
    found = gathered.outcome.candidates
    if not found:
        return None
    wanted = set(item["proposals"])
    return {
        "question": item["question"],
        "rows": [list(r.features) for r in found],
        "labels": [int(r.proposal.id in wanted) for r in found],
        "expected": len(wanted),
    }


def fit(records: list[dict[str, Any]], penalty: float, threshold: float) -> proposal_cut.Cut:
    x = np.array([row for r in records for row in r["rows"]], dtype=np.float64)
    y = np.array([label for r in records for label in r["labels"]], dtype=np.float64)
    weights = ask_fitting.community_weights(records, lambda r: len(r["rows"]))
    w = np.array([wr for r, wr in zip(records, weights, strict=True) for _ in r["rows"]])
    return proposal_cut.fit(x, y, w, l2=penalty, threshold=threshold)


def mean_f1(cut: proposal_cut.Cut, records: list[dict[str, Any]], threshold: float) -> float:
    """The mean F1 of the lists the cut keeps (gold proposals the fusion never found
    count as missed)."""
    scores = []
    for r in records:
        kept = cut.probabilities(np.array(r["rows"])) >= threshold
        hits = sum(k and label for k, label in zip(kept, r["labels"], strict=True))
        got, expected = int(kept.sum()), r["expected"]
        if not got and not expected:
            scores.append(1.0)
        elif not hits:
            scores.append(0.0)
        else:
            scores.append(2 * hits / (got + expected))
    return round(float(np.mean(scores)), 3) if scores else 0.0


def main() -> None:
    args = ask_fitting.arguments(__doc__, REPO_ROOT / ".fit-proposal-cut.jsonl")
    records = ask_fitting.rows(args, record, lambda item: item["intent"] == INTENT_PROPOSALS)
    names = sorted({r["community"] for r in records})
    left_out: dict[str, dict[str, float]] = {}
    for penalty in PENALTIES:
        folds = list(ask_fitting.left_out(records, lambda rs: fit(rs, penalty, 0.5)))  # noqa: B023
        for threshold in THRESHOLDS:
            left_out[f"{penalty}@{threshold}"] = {
                n: mean_f1(cut, own, threshold) for n, cut, own in folds
            }
    best = max(left_out, key=lambda k: sum(left_out[k].values()))
    penalty, threshold = (float(v) for v in best.split("@"))
    cut = fit(records, penalty, threshold)
    if not args.dry_run:
        proposal_cut.MODEL.write_text(json.dumps(cut.as_json(), indent=1) + "\n")
    print(json.dumps({
        "questions": {n: sum(r["community"] == n for r in records) for n in names},
        "candidates": sum(len(r["rows"]) for r in records),
        "penalty": penalty,
        "threshold": threshold,
        "leave_one_community_out_f1": left_out[best],
        "training_f1": {n: mean_f1(cut, [r for r in records if r["community"] == n], threshold)
                        for n in names},
        "weights": dict(zip(proposal_cut.FEATURES, cut.as_json()["weights"], strict=True)),  # type: ignore[call-overload]
        "written": None if args.dry_run else str(proposal_cut.MODEL.relative_to(REPO_ROOT)),
    }, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
