"""The manual's index (/help, and /ask's look at the manual) is built at the bot's start
and once per process for a model, not on the first question."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from zoneinfo import ZoneInfo

import numpy as np

from app.core.ask.command_reference import REFERENCE
from app.core.ask.help import HelpIndex

UTC = ZoneInfo("UTC")


class RecordingEmbed:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    async def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        rows = np.ones((len(texts), 4), dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


async def test_warm_builds_the_index_so_the_first_question_embeds_nothing_more() -> None:
    embed = RecordingEmbed()
    index = HelpIndex(embed, UTC)
    await index.warm("en", "en")  # a language named twice is built once
    assert [len(c) for c in embed.calls] == [len(REFERENCE)]
    question = (await embed(["how do I change my vote?"]))[0]
    embed.calls.clear()
    found = await index.scored("how do I change my vote?", question)
    assert found and embed.calls == []


async def test_an_index_of_the_same_model_is_built_once_per_process() -> None:
    model = f"test-model-{uuid.uuid4()}"
    embed = RecordingEmbed()
    await HelpIndex(embed, UTC, model).warm("en")
    await HelpIndex(embed, UTC, model).warm("en")  # a second application, same model
    assert len(embed.calls) == 1
    await HelpIndex(embed, UTC, f"{model}-other").warm("en")
    await HelpIndex(embed, UTC).warm("en")  # no model named: nothing shared
    assert len(embed.calls) == 3
