"""The OpenAI part of the /ask benchmark: chat and embedding calls per question.

The issue's target: at most 2 chat calls and 1 embedding call per /ask. The fake server
(tests/support/fake_openai.py) answers grounded requests by citing the first record it
was offered and lead requests with a short sentence; the container's
LLMService is replaced by the one the composition root builds for OPENAI_API_KEY "x" and
OPENAI_BASE_URL the fake. Chat and /v1/embeddings calls are counted at the server, local
query embeddings at the embedder.
"""

from __future__ import annotations

import re
import statistics
import time
from typing import Any

from bench.ask_community import ASKER
from bench.common import latency_summary

TARGET_CHAT_CALLS = 2
TARGET_EMBEDDING_CALLS = 1


async def openai_part(app: Any, request: Any, factory: Any, config: Any, asked: list[tuple]):
    """Chat and embedding calls per /ask with the OpenAI backend against the fake server."""
    try:
        from app.services.llm.factory import build_llm_service
        from tests.support.fake_openai import FakeOpenAI, grounded, is_grounded, offered_keys
    except ImportError as exc:
        return {"skipped": f"no OpenAI backend or fake server: {exc}"}
    sources = {"D": "documents", "P": "proposals", "F": "facts"}

    def reply(body: dict[str, Any]) -> str:
        if is_grounded(body):
            keys = offered_keys(body)[:1]
            if not keys:
                return grounded("", [], "none")
            return grounded("Here is what I found.", keys, sources[keys[0][0]])
        user = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
        cited = re.search(r"Citable proposal ids: #(\d+)", user)
        return f"The closest match is #{cited.group(1)}." if cited else "Here is what I found."

    container = app.bot_data.container
    fake = FakeOpenAI()
    fake.content = reply
    fake.start()
    offline_llm = container.llm
    local = [0]
    embed = container.embedder.embed_array

    def counted(texts: Any) -> Any:
        local[0] += 1
        return embed(texts)

    container.embedder.embed_array = counted
    llm = build_llm_service(  # what the composition root builds for these settings
        config.model_copy(update={"openai_api_key": "x", "openai_base_url": fake.base_url})
    )
    container.llm = container.context.llm = llm
    rows = []
    try:
        for kind, question in asked:
            chat, server_embed, model_embed = fake.chat_calls, fake.embedding_calls, local[0]
            update = factory.message(f"/ask {question}", user_id=ASKER, first_name="Alice")
            started = time.perf_counter()
            await app.process_update(update)
            rows.append(
                (kind, time.perf_counter() - started, fake.chat_calls - chat,
                 fake.embedding_calls - server_embed + local[0] - model_embed,
                 fake.embedding_calls - server_embed)
            )  # fmt: skip
    finally:
        container.llm = container.context.llm = offline_llm
        container.embedder.embed_array = embed
        await llm.aclose()
        fake.stop()
    chat = [r[2] for r in rows]
    embeds = [r[3] for r in rows]
    return {
        "backend": "openai (tests/support/fake_openai.py)",
        "questions": len(rows),
        **latency_summary([r[1] for r in rows]),
        "chat_calls_per_ask": {"max": max(chat), "mean": round(statistics.fmean(chat), 2)},
        "embedding_calls_per_ask": {
            "max": max(embeds),
            "mean": round(statistics.fmean(embeds), 2),
            "server_total": sum(r[4] for r in rows),
            "local_model_total": sum(embeds) - sum(r[4] for r in rows),
        },
        "chat_calls_by_kind": {
            k: max(r[2] for r in rows if r[0] == k) for k in dict.fromkeys(r[0] for r in rows)
        },
        "fallbacks_to_offline": dict(llm.fallbacks),
        "targets": {"chat_calls": TARGET_CHAT_CALLS, "embedding_calls": TARGET_EMBEDDING_CALLS},
        "meets_target": max(chat) <= TARGET_CHAT_CALLS and max(embeds) <= TARGET_EMBEDDING_CALLS,
    }
