"""Refit /ask's reading, sentence scorer, fact path scorer and decision from the
development communities.

    .venv/bin/python scripts/fit_ask_decision.py [--cache FILE] [--reuse] [--dry-run]

Every development community of tests/fixtures/communities/SPLIT.json (the project's own
fixture with its gold set's tuning half) is seeded into a fresh DATA_DIR (SQLite,
embedded Chroma, the bundled model, the offline reading) and
each of its labelled questions is searched as /ask searches it (ContextService.inspect);
the signals it yields are paired with the outcome that is right for it:

- a question nothing answers: "nothing", also when it asks for proposals (no list is
  right for it, and "nothing found" is what the member should read);
- a question asking for proposals: "proposals";
- a document question: "documents" when its document is among the three best passages
  found, else "nothing" (what retrieval missed cannot be quoted);
- a fact question: "facts" when the facts found name the answer, "documents" when the
  best passages do instead, else "nothing".

The reading of the question's form (app/core/ask/reading.json) is fitted first, from
every English question's kind; each question's reading signals are then replaced by what
a reading fitted without its own community says (cross-fitting), so the decision learns
how far a reading can be trusted on a community it was not fitted on.

The fact path scorer (app/core/ask/fact_paths.json) is fitted from every path found
for the fact questions (those nothing answers too), labelled by whether the path's far
end is the gold fact; the decision then reads each question's best path as a scorer
fitted without its community scores it (cross-fitting, as for the reading).

Each community weighs the same, whatever its number of questions. The L2 penalty is
chosen by leaving one community out at a time (of penalties as good as the best, the
strongest); the model is then fitted on all of them.
Held-out communities are never read here. Prints one JSON report; beside the decision's
left-out accuracy it gives, at the chosen penalty, the two shares that accuracy sums:
"nothing found" for the questions nothing answers, and the right source for the others.
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

from app.core.ask import decision, fact_paths, logistic, reading, sentences  # noqa: E402
from app.core.ask.analysis import INTENT_DOCS, INTENT_FACTS, INTENT_PROPOSALS  # noqa: E402
from app.core.ask.logistic import Logistic  # noqa: E402
from app.core.ask.models import DocumentHit  # noqa: E402
from app.nlp.units import Unit  # noqa: E402
from tests.support import ask_fitting, ask_gold  # noqa: E402

PENALTIES = (0.01, 0.1, 1.0, 10.0)
TIE = 0.01  # left-out accuracies closer than this are one question's worth: a tie


def label(item: dict[str, Any], gathered: Any) -> str:
    if item.get("no_answer"):
        return "nothing"
    if item["intent"] == INTENT_PROPOSALS:
        return "proposals"
    hits = gathered.found.hits[:3]
    if item["intent"] == INTENT_DOCS:
        wanted = (item.get("documents") or [None])[0]
        return "documents" if wanted in {h.title for h in hits} else "nothing"
    if item["intent"] == INTENT_FACTS and item.get("fact"):
        fact = item["fact"].casefold()
        found = gathered.facts
        said = ""
        if found is not None:
            said = " ".join(f"{s.fact.subject} {s.fact.object}" for s in found.relevant_facts[:3])
            if found.chain is not None and found.chain.complete and found.chain.final_result:
                said += " " + " ".join(str(n) for n in found.chain.final_result)
        if fact in said.casefold():
            return "facts"
        return "documents" if any(fact in h.content.casefold() for h in hits[:2]) else "nothing"
    return "nothing"


def record(item: dict[str, Any], gathered: Any) -> dict[str, Any]:
    """A question's signals and label, and its sentence candidates' features with, for a
    question with phrases, which of them say one."""
    row = {
        "question": item["question"],
        "read": gathered.question,
        "english": gathered.analysis.language == "en",
        "kind": item["intent"],
        "vector": [round(float(v), 6) for v in gathered.embedding],
        "label": label(item, gathered),
        "no_answer": bool(item.get("no_answer")),
        "signals": dict(zip(decision.Signals.__dataclass_fields__,
                            gathered.signals.vector().tolist(), strict=True)),
        "units": [list(s.features) for s in gathered.best],
    }  # fmt: skip
    paths = gathered.paths.paths if gathered.paths is not None else []
    ends: dict[str, int] = {}
    row["paths"] = [[round(v, 5) for v in p.features] for p in paths]
    row["ends"] = [ends.setdefault(p.answer, len(ends)) for p in paths]
    if item["intent"] == INTENT_FACTS:  # is the path's far end the gold fact?
        fact = ask_gold.plain(item.get("fact") or "")
        row["path_answers"] = [int(bool(fact) and fact in ask_gold.plain(p.answer)) for p in paths]
    if item.get("phrases") and not item.get("no_answer"):
        said = [ask_gold.plain(p) for p in item["phrases"]]
        row["answers"] = [
            int(any(p in ask_gold.plain(s.unit.text) for p in said)) for s in gathered.best
        ]
        row["phrases"] = said
        row["quotable"] = [
            [s.hit.document_id, s.unit.start, s.unit.end, s.unit.text] for s in gathered.best
        ]
    return row


def _scores(model: Logistic, rows: list[dict[str, Any]]) -> dict[str, float]:
    """The decision's accuracy, and what it sums up, apart: the share of the questions
    nothing answers that it says so for, and of the others whose source it reads right.
    A refit can buy one with the other at the same accuracy."""
    said = [decision.decide(decision.Signals(**r["signals"]), model).source for r in rows]
    right = [s == r["label"] for s, r in zip(said, rows, strict=True)]
    none = [s == "nothing" for s, r in zip(said, rows, strict=True) if r.get("no_answer")]
    some = [ok for ok, r in zip(right, rows, strict=True) if not r.get("no_answer")]
    return {
        "accuracy": _share(right),
        "nothing_when_nothing_answers": _share(none),
        "source_when_something_does": _share(some),
    }


def _share(marks: list[bool]) -> float:
    return round(sum(marks) / max(1, len(marks)), 3)


def _accuracy(model: Logistic, rows: list[dict[str, Any]]) -> float:
    return _scores(model, rows)["accuracy"]


def _smoothest(left_out: dict[str, dict[str, float]]) -> float:
    """The strongest penalty whose mean left-out accuracy is within TIE of the best: the
    decision meets communities unlike these (a new one with a few documents), where
    smaller weights extrapolate more gently."""
    mean = {p: sum(left_out[str(p)].values()) / len(left_out[str(p)]) for p in PENALTIES}
    top = max(mean.values())
    return max(p for p in PENALTIES if mean[p] >= top - TIE)


def fit(rows: list[dict[str, Any]], penalty: float) -> Logistic:
    return decision.fit(
        [decision.Signals(**r["signals"]) for r in rows],
        [r["label"] for r in rows],
        ask_fitting.community_weights(rows),
        l2=penalty,
    )


def _fit_ranker(
    data: list[dict[str, Any]], penalty: float, items: str, labels: str, features: tuple[str, ...]
) -> Logistic:
    """A scorer of one question's candidates (``items``: their feature rows; ``labels``:
    which of them answer), from every candidate of ``data``: each question weighs the
    same, each community the same."""
    x = np.array([f for r in data for f in r[items]])
    y = np.array([a for r in data for a in r[labels]], dtype=np.float64)
    weights = ask_fitting.community_weights(data, lambda r: len(r[items]))
    w = np.array([wr for r, wr in zip(data, weights, strict=True) for _ in r[items]])
    return logistic.fit(features, x, y, w, l2=penalty, steps=2000)


def _ranked_top1(scorer: Logistic, rows: list[dict[str, Any]], items: str, labels: str) -> float:
    """The share of the questions with an answer among their candidates whose best
    candidate under ``scorer`` is one."""
    data = [r for r in rows if any(r.get(labels, ()))]
    right = sum(r[labels][int(np.argmax(scorer.probabilities(np.array(r[items]))))] for r in data)
    return round(right / max(1, len(data)), 3)


def fit_sentences(rows: list[dict[str, Any]], penalty: float) -> Logistic:
    """The sentence scorer, from the document questions whose candidates say a phrase."""
    data = [r for r in rows if any(r.get("answers", ()))]
    return _fit_ranker(data, penalty, "units", "answers", sentences.FEATURES)


def _top1(scorer: Logistic, rows: list[dict[str, Any]]) -> float:
    return _ranked_top1(scorer, rows, "units", "answers")


def fit_paths(rows: list[dict[str, Any]], penalty: float) -> Logistic:
    """The fact path scorer, from every fact question's paths (an unanswerable one's are
    all wrong)."""
    data = [r for r in rows if r.get("paths") and "path_answers" in r]
    return _fit_ranker(data, penalty, "paths", "path_answers", fact_paths.FEATURES)


def _path_top1(scorer: Logistic, rows: list[dict[str, Any]]) -> float:
    return _ranked_top1(scorer, rows, "paths", "path_answers")


def read_paths(rows: list[dict[str, Any]], scorer: Logistic) -> None:
    """The decision's fact signals as the best path under ``scorer`` gives them."""
    for r in rows:
        if not r.get("paths"):
            continue
        p = scorer.probabilities(np.array(r["paths"]))
        best = int(np.argmax(p))
        other = max((s for s, e in zip(p, r["ends"], strict=True) if e != r["ends"][best]),
                    default=0.0)  # fmt: skip
        features = dict(zip(fact_paths.FEATURES, r["paths"][best], strict=True))
        r["signals"] |= {
            "fact_score": float(p[best]),
            "fact_cover": features["cover"],
            "fact_relation": features["relation"],
            "fact_margin": max(0.0, float(p[best] - other)),
            "fact_predicate": features["predicate"],
        }


def _quoted(scorer: Logistic, rows: list[dict[str, Any]]) -> float:
    """The share of questions whose answer, quoted from the units as ``scorer`` ranks
    them (sentences.quotes), says one of their phrases: what the member reads."""
    data = [r for r in rows if any(r.get("answers", ()))]
    right = 0
    for r in data:
        order = np.argsort(-scorer.probabilities(np.array(r["units"])), kind="stable")
        ranked = [_scored(*r["quotable"][i]) for i in order]
        said = ask_gold.plain(" ".join(text for _, text in sentences.quotes(ranked)))
        right += any(p in said for p in r["phrases"])
    return round(right / max(1, len(data)), 3)


def _scored(document: str, start: int, end: int, text: str) -> sentences.Scored:
    hit = DocumentHit(document, "", "", "", 0.0, 0.0)
    return sentences.Scored(Unit(start, end, text, "", ""), hit, (), 0.0, 0.0, 0.0, ())


READING_PENALTIES = (1.0, 3.0, 10.0, 30.0)


def fit_reading(rows: list[dict[str, Any]], penalty: float) -> reading.Reading:
    """The reading of a question's form, from the English questions: each community
    weighs the same; its words are those of more than one of these communities."""
    data = [r for r in rows if r["english"]]
    return reading.fit(
        [r["read"] for r in data],
        np.array([r["vector"] for r in data]),
        [r["kind"] for r in data],
        ask_fitting.community_weights(data),
        reading.vocabulary([(r["read"], r["community"]) for r in data]),
        l2=penalty,
    )


def _read_right(model: reading.Reading, rows: list[dict[str, Any]]) -> float:
    data = [r for r in rows if r["english"]]
    right = sum(
        max(p := model.read(r["read"], np.array(r["vector"])), key=lambda k: p[k]) == r["kind"]
        for r in data
    )
    return round(right / max(1, len(data)), 3)


def cross_read(rows: list[dict[str, Any]], penalty: float) -> None:
    """Each English question's form as a reading fitted without its community would read
    it: the decision learns how far to trust the reading where it was not fitted."""
    for _, model, own in ask_fitting.left_out(rows, lambda rs: fit_reading(rs, penalty)):
        for r in own:
            if r["english"]:
                form = model.read(r["read"], np.array(r["vector"]))
                r["signals"]["form_proposals"] = form[INTENT_PROPOSALS]
                r["signals"]["form_facts"] = form[INTENT_FACTS]


def main() -> None:
    args = ask_fitting.arguments(__doc__, REPO_ROOT / ".fit-signals.jsonl")
    rows = ask_fitting.rows(args, record, lambda item: True)
    read_left_out = ask_fitting.left_out_by_penalty(
        rows, READING_PENALTIES, fit_reading, _read_right
    )
    read_penalty = max(READING_PENALTIES, key=lambda p: sum(read_left_out[str(p)].values()))
    form = fit_reading(rows, read_penalty)
    cross_read(rows, read_penalty)
    with_units = [r for r in rows if any(r.get("answers", ()))]
    unit_left_out = ask_fitting.left_out_by_penalty(with_units, PENALTIES, fit_sentences, _top1)
    unit_penalty = max(PENALTIES, key=lambda p: sum(unit_left_out[str(p)].values()))
    scorer = fit_sentences(rows, unit_penalty)
    quoted_left_out = {
        name: _quoted(model, own)
        for name, model, own in ask_fitting.left_out(
            with_units, lambda rs: fit_sentences(rs, unit_penalty)
        )
    }
    for r in rows:  # the decision reads the best sentence's score: the new scorer's
        units = np.array(r["units"], dtype=np.float64)
        r["signals"]["sentence_score"] = (
            float(scorer.probabilities(units).max()) if len(units) else 0.0
        )
    with_paths = [r for r in rows if "path_answers" in r]
    path_left_out = ask_fitting.left_out_by_penalty(with_paths, PENALTIES, fit_paths, _path_top1)
    path_penalty = _smoothest(path_left_out)
    paths = fit_paths(rows, path_penalty)
    for _, model, own in ask_fitting.left_out(
        rows, lambda rs: fit_paths(rs, path_penalty)
    ):  # cross-fitted, as the reading: how far a scorer can be trusted where it was not fitted
        read_paths(own, model)
    names = sorted({r["community"] for r in rows})
    scored = ask_fitting.left_out_by_penalty(rows, PENALTIES, fit, _scores)
    left_out = {p: {n: s["accuracy"] for n, s in by.items()} for p, by in scored.items()}
    best = _smoothest(left_out)
    model = fit(rows, best)
    trade = {
        n: {k: v for k, v in s.items() if k != "accuracy"} for n, s in scored[str(best)].items()
    }
    if not args.dry_run:
        stored = {"outcomes": list(decision.OUTCOMES), **model.as_json()}
        decision.MODEL.write_text(json.dumps(stored, indent=1) + "\n")
        sentences.MODEL.write_text(json.dumps(scorer.as_json(), indent=1) + "\n")
        fact_paths.MODEL.write_text(json.dumps(paths.as_json(), indent=1) + "\n")
        reading.MODEL.write_text(json.dumps(reading.as_json(form)) + "\n")
    labels: dict[str, int] = {}
    for r in rows:
        labels[r["label"]] = labels.get(r["label"], 0) + 1
    print(json.dumps({
        "questions": len(rows),
        "labels": labels,
        "leave_one_community_out_accuracy": left_out,
        "penalty": best,
        "leave_one_community_out_at_penalty": trade,
        "reading": {"leave_one_community_out_accuracy": read_left_out, "penalty": read_penalty,
                    "words": len(form.vocabulary)},
        "training_accuracy": {n: _accuracy(model, [r for r in rows if r["community"] == n])
                              for n in names},
        "sentences": {"leave_one_community_out_top1": unit_left_out, "penalty": unit_penalty,
                      "leave_one_community_out_quoted": quoted_left_out,
                      "training_top1": {n: _top1(scorer, [r for r in rows if r["community"] == n])
                                        for n in sorted({r["community"] for r in with_units})}},
        "fact_paths": {"leave_one_community_out_top1": path_left_out, "penalty": path_penalty,
                       "training_top1": {n: _path_top1(paths, [r for r in rows
                                                               if r["community"] == n])
                                         for n in names}},
        "written": None if args.dry_run else str(decision.MODEL.relative_to(REPO_ROOT)),
    }, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
