"""No update lost when a replica dies mid-update: two webhook replicas on PostgreSQL.

An update goes to replica A and is held up there (the model's answer, a row lock the
test holds); while A handles it, the same update at B is answered 503, so Telegram
tries again later; A is killed with SIGKILL; the update is then delivered the way
Telegram retries (again after each non-2xx), reaches B, which takes it over: handled
exactly once, and the member gets the reply. For an /ask, a vote by button and one
step of a step-by-step /propose (A killed at the worst moment: the step written, the
update not yet marked done)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import asyncpg
import pytest

from tests.process.conftest import CHANNEL, BotRun, Deployment, create_proposal, wait_until
from tests.support.botapi import BotApiStandIn
from tests.support.fake_openai import FakeOpenAI

SECRET = "s3cret-token"


def _hook(run: BotRun) -> str:
    return f"http://127.0.0.1:{run.port}/tg/hook"


def _post_in_background(api: BotApiStandIn, update: dict[str, Any], run: BotRun) -> None:
    """POST to a replica that will be killed before it answers (the request just fails)."""

    def post() -> None:
        with contextlib.suppress(Exception):
            api.post_webhook(update, SECRET, url=_hook(run))

    threading.Thread(target=post, daemon=True, name="post-to-a").start()


def deliver_as_telegram(
    api: BotApiStandIn, update: dict[str, Any], runs: list[BotRun], patience: float = 180.0
) -> list[int]:
    """Telegram's retries: again after each non-2xx (or no answer), with growing pauses,
    for a few minutes, to whichever replica the proxy picks; the statuses seen."""
    statuses: list[int] = []
    deadline = time.monotonic() + patience
    delay = 0.1
    for turn in range(10_000):
        try:
            status = api.post_webhook(update, SECRET, url=_hook(runs[turn % len(runs)]))
        except OSError:  # connection refused: that replica is gone
            status = 0
        statuses.append(status)
        if 200 <= status < 300:
            return statuses
        if time.monotonic() > deadline:
            break
        time.sleep(delay)
        delay = min(delay * 2, 2.0)
    raise AssertionError(f"never acknowledged: {statuses}")


class HeldLock:
    """A lock the test holds in a transaction of its own, until ``release()``."""

    def __init__(self, url: str, statement: str, *args: Any) -> None:
        self.dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
        self.statement, self.args = statement, args
        self._held, self._release = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._hold()), daemon=True)
        self._thread.start()
        assert self._held.wait(30), "the test's lock was not taken"

    async def _hold(self) -> None:
        conn = await asyncpg.connect(self.dsn)
        try:
            async with conn.transaction():
                await conn.execute(self.statement, *self.args)
                self._held.set()
                await asyncio.to_thread(self._release.wait)
        finally:
            await conn.close()

    def release(self) -> None:
        self._release.set()
        self._thread.join(30)


def _waits_on(dep: Deployment, table: str) -> bool:
    """A backend of this database waits for a lock in a statement on ``table`` (a
    replica held up by the test)."""
    rows = dep.sql(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND query ILIKE :q",
        q=f"%{table}%",
    )
    return int(rows[0][0]) > 0


def _claim(dep: Deployment, update: dict[str, Any]) -> tuple[Any, ...] | None:
    rows = dep.sql(
        "SELECT holder, done_at FROM processed_updates WHERE update_id = :u",
        u=update["update_id"],
    )
    return rows[0] if rows else None


def _metric(run: BotRun, name: str) -> float:
    status, body = run.get("/metrics")
    assert status == 200
    for line in body.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in /metrics")


@pytest.fixture
def replicas(pg_deployment: Deployment, fake_openai: FakeOpenAI) -> Iterator[list[BotRun]]:
    """A and B: webhook replicas on one database, a model behind the fake OpenAI server."""
    extra = {
        "OPENAI_API_KEY": "sk-fake",
        "OPENAI_BASE_URL": fake_openai.base_url,
        "LLM_TIMEOUT_SECONDS": "60",
        "LLM_MAX_RETRIES": "0",
    }
    a = pg_deployment.start(webhook=True, **extra)
    a.wait_healthy()
    hook = {"WEBHOOK_URL": _hook(a)}
    b = pg_deployment.start(webhook=True, **hook, **extra)
    b.wait_healthy()
    for run in (a, b):
        wait_until(lambda r=run: r.get("/readyz")[0] == 200, 60, "readiness")
    yield [a, b]


def _kill(run: BotRun) -> None:
    run.proc.kill()  # SIGKILL: no goodbye; its connections close with the process
    run.proc.wait(10)


def _taken_over(dep: Deployment, api: BotApiStandIn, update: dict[str, Any], a: BotRun,
                b: BotRun) -> list[int]:  # fmt: skip
    """While A holds the update, B says "retry later"; A dies; Telegram's retries reach B."""
    holder, done = _claim(dep, update) or (None, None)
    assert holder is not None and done is None, "A claimed it and is handling it"
    assert api.post_webhook(update, SECRET, url=_hook(b)) == 503, "a live claim: retry later"
    _kill(a)
    statuses = deliver_as_telegram(api, update, [a, b])
    assert statuses[-1] == 200
    assert _claim(dep, update)[1] is not None, "done"  # type: ignore[index]
    return statuses


def test_an_ask_whose_replica_dies_is_answered_once(
    pg_deployment: Deployment, replicas: list[BotRun], fake_openai: FakeOpenAI
) -> None:
    dep, api = pg_deployment, pg_deployment.api
    a, b = replicas
    # something to find: the model is asked to read what was found (a question about what
    # a proposal's description says; a list asked for is ours and asks no model), never to
    # read the bare question
    create_proposal(api, 3003, "Garden benches; Four benches would cost 400 EUR; Yes, No", 1)
    fake_openai.mode, fake_openai.timeout_delay = "timeout", 120.0  # the model holds on
    update = api.message_update(1001, "/ask how much would the new garden benches cost?")
    _post_in_background(api, update, a)
    wait_until(lambda: fake_openai.chat_calls >= 1, 60, "A to ask the model")
    fake_openai.mode = "ok"  # from now on the model answers at once
    _taken_over(dep, api, update, a, b)

    answers = [m for m in api.messages(1001) if m.get("text")]
    assert len(answers) == 1, [m["text"][:80] for m in answers]
    assert _metric(b, "coordbot_updates_taken_over_total") == 1.0
    # Telegram delivering it once more: acknowledged, not answered again.
    assert api.post_webhook(update, SECRET, url=_hook(b)) == 200
    assert len([m for m in api.messages(1001) if m.get("text")]) == 1
    assert _metric(b, "coordbot_duplicate_updates_total") == 1.0
    assert b.terminate() == 0


def test_a_vote_whose_replica_dies_is_stored_and_answered_once(
    pg_deployment: Deployment, replicas: list[BotRun]
) -> None:
    dep, api = pg_deployment, pg_deployment.api
    a, b = replicas
    post = create_proposal(api, 1001, "Benches; New benches; Yes, No", 1)
    vote = api.callback_update(2002, "v:1:1", post)
    answers = len(api.calls_to("answerCallbackQuery"))

    lock = HeldLock(dep.db_url, "SELECT 1 FROM proposals WHERE id = 1 FOR UPDATE")
    try:
        _post_in_background(api, vote, a)
        wait_until(lambda: _waits_on(dep, "proposals"), 30, "A's vote to wait on the proposal")
        holder, _ = _claim(dep, vote) or (None, None)
        assert holder is not None
        assert api.post_webhook(vote, SECRET, url=_hook(b)) == 503, "a live claim: retry later"
        _kill(a)
    finally:
        lock.release()
    statuses = deliver_as_telegram(api, vote, [a, b])
    assert statuses[-1] == 200
    assert dep.sql("SELECT submitter_id, response_content FROM submissions") == [(2002, "No")]
    vote_answers = api.calls_to("answerCallbackQuery")[answers:]
    assert len(vote_answers) == 1 and "Vote recorded" in vote_answers[0].params["text"]
    assert _metric(b, "coordbot_updates_taken_over_total") == 1.0
    assert b.terminate() == 0


def test_a_propose_step_whose_replica_dies_at_the_worst_moment_is_applied_once(
    pg_deployment: Deployment, replicas: list[BotRun]
) -> None:
    """A writes the step (the title), then dies before marking the update done: B takes
    the update over, finds the step applied and does nothing; the member's next message
    is read as the description, as it should be."""
    dep, api = pg_deployment, pg_deployment.api
    a, b = replicas
    assert api.post_webhook(api.message_update(1002, "/propose"), SECRET, url=_hook(b)) == 200
    api.wait_text(1002, "title")
    asked = len(api.messages(1002))

    title = api.message_update(1002, "Street party")
    state = HeldLock(
        dep.db_url, "SELECT 1 FROM conversation_states WHERE user_id = 1002 FOR UPDATE"
    )
    done_mark: HeldLock | None = None
    try:
        _post_in_background(api, title, a)
        wait_until(lambda: _waits_on(dep, "conversation_states"), 30, "A to write the step")
        api.wait_text(1002, "description")  # A answered the step
        done_mark = HeldLock(
            dep.db_url, "SELECT 1 FROM processed_updates WHERE update_id = $1 FOR UPDATE",
            title["update_id"],
        )  # fmt: skip
        state.release()  # A writes the step, then waits to mark the update done
        wait_until(lambda: _waits_on(dep, "processed_updates"), 30, "A to mark it done")
        assert api.post_webhook(title, SECRET, url=_hook(b)) == 503, "a live claim: retry later"
        _kill(a)
    finally:
        state.release()
        if done_mark is not None:
            done_mark.release()
    deliver_as_telegram(api, title, [a, b])
    assert len(api.messages(1002)) == asked + 1, "the step was answered once, by A"
    assert _metric(b, "coordbot_updates_taken_over_total") == 1.0

    for step in ("Music and food in June", None, "Yes, No, Later", "3 days", "/skip"):
        seen = len(api.messages(1002))
        if step is None:
            update = api.callback_update(1002, "pt:mc", api.messages(1002)[-1])
        else:
            update = api.message_update(1002, step)
        assert deliver_as_telegram(api, update, [b]) == [200]
        wait_until(lambda n=seen: len(api.messages(1002)) > n, 10, f"an answer to {step!r}")
    summary = api.wait_text(1002, "Please check your proposal")
    assert "Street party" in summary["text"] and "Music and food in June" in summary["text"]
    assert deliver_as_telegram(api, api.callback_update(1002, "pc:yes", summary), [b]) == [200]
    post = api.wait_text(CHANNEL, "New proposal #1")
    assert "Street party" in post["text"]
    assert b.terminate() == 0
