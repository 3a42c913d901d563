"""The proposal cut: features read relative to the question's other candidates, a
logistic regression fitted on labelled candidates, and the fitted file it loads."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from app.core.ask import proposal_cut
from app.core.ask.passages import RRF_K, fuse
from app.core.ask.proposal_cut import FEATURES, Candidate, features


def _candidate(i: int, cosine: float, cover: float, rank: int | None = None) -> Candidate:
    """Topic and question equally close: its meaning is ``cosine``."""
    return Candidate(i, 1.0 / (RRF_K + (rank or i)), rank or i, cosine, cover, asked=cosine)


def test_fusion_puts_what_both_rankings_hold_first() -> None:
    fused = dict(fuse(["3", "1", "2"], ["2", "4"]))
    assert next(iter(fused)) == "2"  # second by meaning, first by words
    assert fused["2"] == 1 / (RRF_K + 3) + 1 / (RRF_K + 1)
    assert fused["3"] > fused["4"] > 0  # first of one ranking beats second of the other


def test_features_are_relative_to_the_question() -> None:
    rows = features([_candidate(1, 0.41, 0.0), _candidate(2, 0.36, 0.0), _candidate(3, 0.16, 0.0)])
    column = {name: rows[:, i] for i, name in enumerate(FEATURES)}
    assert rows.shape == (3, len(FEATURES))
    # the fall from 0.36 to 0.16 is what separates the third from the two above it
    assert np.allclose(column["drop_above"], [0.0, 0.05, 0.2])
    assert np.allclose(column["drop_below"], [0.05, 0.2, 0.0])
    assert column["cosine_z"][0] > 0 > column["cosine_z"][2]
    assert column["no_words"].tolist() == [1.0, 1.0, 1.0]  # meaning alone found them
    held = features([_candidate(1, 0.2, 1.0), _candidate(2, 0.3, 0.0)])
    assert held[:, FEATURES.index("no_words")].tolist() == [0.0, 0.0]
    assert features([]).shape == (0, len(FEATURES))
    # how few the candidates are is read only inside a filter (else it is the community's
    # size, not the question's)
    assert column["filtered_few"].tolist() == [0.0, 0.0, 0.0]
    inside = features([_candidate(1, 0.41, 0.0), _candidate(2, 0.36, 0.0)], filtered=True)
    assert inside[:, FEATURES.index("filtered_few")].tolist() == [0.5, 0.5]


def test_meaning_is_read_from_topic_and_question_and_its_largest_fall_below() -> None:
    # "pets": three proposals about dogs and cats, then the rest far below them
    near = [Candidate(i, 0.0, i, c, 0.0, asked=a)
            for i, (c, a) in enumerate([(0.41, 0.39), (0.36, 0.41), (0.31, 0.36)], 1)]  # fmt: skip
    rest = [Candidate(i, 0.0, i, 0.15 - 0.01 * i, 0.0, asked=0.2) for i in range(4, 16)]
    rows = features(near + rest)
    meaning, fall = rows[:, FEATURES.index("cosine")], rows[:, FEATURES.index("fall_below")]
    assert np.allclose(meaning[:3], [0.40, 0.385, 0.335])
    big = 0.335 - (0.11 + 0.2) / 2  # from the third to the best of the rest
    assert np.allclose(fall[:3], big)  # each of the three stands above the break
    assert fall[3:].max() < 0.02  # the rest only fall a little below themselves
    assert fall[-3:].tolist() == [0.0, 0.0, 0.0]  # beyond the HEAD nearest: no list ends there
    # a topic without a question (the catalog's text): its meaning is the topic's alone
    alone = features([Candidate(1, 0.0, 1, 0.3, 0.0), Candidate(2, 0.0, 2, 0.1, 0.0)])
    assert np.allclose(alone[:, FEATURES.index("cosine")], [0.3, 0.1])


def test_a_fitted_cut_keeps_the_head_a_question_asks_for(tmp_path: Path) -> None:
    # each question: three close proposals then a fall, or words that only some hold
    questions = [
        [_candidate(1, 0.45, 0.0), _candidate(2, 0.4, 0.0), _candidate(3, 0.12, 0.0),
         _candidate(4, 0.1, 0.0)],
        [_candidate(1, 0.3, 1.0), _candidate(2, 0.25, 1.0), _candidate(3, 0.28, 0.0),
         _candidate(4, 0.08, 0.0)],
    ] * 5  # fmt: skip
    labels = np.array([1, 1, 0, 0] * 10, dtype=np.float64)
    rows = np.concatenate([features(q) for q in questions])
    cut = proposal_cut.fit(rows, labels, np.ones(len(rows)), l2=0.1)
    for question in questions[:2]:
        kept = cut.probabilities(features(question)) >= cut.threshold
        assert kept.tolist() == [True, True, False, False]
    stored = tmp_path / "cut.json"
    stored.write_text(json.dumps(cut.as_json()))
    again = proposal_cut.cut(stored)
    assert again.threshold == cut.threshold
    assert np.allclose(again.probabilities(rows), cut.probabilities(rows), atol=1e-4)


def test_the_stored_cut_matches_the_features() -> None:
    stored = proposal_cut.cut()
    assert stored.weights.shape == (len(FEATURES),)
    assert 0.0 < stored.threshold < 1.0
    assert proposal_cut.cut().probabilities(np.zeros((0, len(FEATURES)))).shape == (0,)
