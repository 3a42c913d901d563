"""Fair sending, through a `coordbot run` process with PTB's rate limiter on: 500 results
with charts queued for one channel, then 50 DMs for 50 members. Every DM goes out
while the channel's messages keep the channel's pace (about 20 a minute), and with the
Bot API stand-in answering RetryAfter for the channel, the DMs still go out (the
channel alone is paused)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.process.conftest import CHANNEL, BotRun, Deployment, wait_until
from tests.support.botapi import BotApiStandIn, Call

BACKLOG = 500  # proposals closing at once in the channel: a result and a chart each
MEMBERS = 50  # proposals of 50 other members closing after them: a DM each
LATE = 10  # ten more, while Telegram holds the channel back
CHANNEL_INTERVAL = 3.0  # seconds: 20 a minute


def _seed(dep: Deployment, tmp: Path) -> None:
    def proposal(i: int, proposer: int, votes: list[dict[str, Any]]) -> dict[str, Any]:
        return {"id": i, "proposer": proposer, "title": f"Item {i}", "description": f"P {i}",
                "type": "multiple_choice", "options": ["Yes", "No"], "status": "open",
                "created_at": "2026-01-01T00:00:00Z", "deadline": "2099-01-01T00:00:00Z",
                "channel_id": str(CHANNEL), "votes": votes}  # fmt: skip

    backlog = [proposal(i, 1001, [{"user": 3001, "option": "Yes"}]) for i in range(1, 501)]
    members = [proposal(500 + k, 2000 + k, []) for k in range(1, MEMBERS + LATE + 1)]
    path = tmp / "seed.json"
    path.write_text(json.dumps({"proposals": backlog + members}))
    env = dep.env()
    done = subprocess.run(
        [sys.executable, "-m", "app", "seed", str(path)],
        env=env, cwd=env["DATA_DIR"], capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]


def _close(dep: Deployment, first: int, last: int) -> None:
    dep.sql("UPDATE proposals SET deadline_at = now() WHERE id BETWEEN :a AND :b", a=first, b=last)


def _to_channel(api: BotApiStandIn) -> list[Call]:
    return [
        c for c in api.calls
        if c.method in ("sendMessage", "sendPhoto") and int(c.params.get("chat_id", 0)) == CHANNEL
    ]  # fmt: skip


def _dms_out(api: BotApiStandIn, members: range) -> bool:
    return all(any(t.startswith("Your proposal") for t in api.texts(m)) for m in members)


def _keeps_pace(sent: list[Call]) -> None:
    """However slow or fast the machine: no more channel messages than the pace allows in
    the time they took (a burst would be the first thing Telegram refuses)."""
    assert sent
    span = sent[-1].at - sent[0].at
    assert len(sent) <= 2 + span / CHANNEL_INTERVAL, (len(sent), span)


def _gauge(run: BotRun, name: str) -> float:
    status, body = run.get("/metrics")
    assert status == 200
    line = next(x for x in body.splitlines() if x.startswith(name + " "))
    return float(line.split()[1])


def test_dms_go_out_beside_a_channel_backlog(pg_deployment: Deployment, tmp_path: Path) -> None:
    dep, api = pg_deployment, pg_deployment.api
    _seed(dep, tmp_path)
    bot = dep.start(webhook=True)  # PTB's rate limiter on, as in production
    bot.wait_healthy()
    api.wait_for(lambda: api.webhook, what="setWebhook")

    _close(dep, 1, BACKLOG)
    wait_until(
        lambda: dep.sql("SELECT count(*) FROM outbox WHERE chat_id = :c", c=str(CHANNEL))[0][0]
        >= 2 * BACKLOG,
        120, "the channel's backlog",
    )  # fmt: skip
    api.wait_text(CHANNEL, "Results: Item 1</b>", timeout=60)

    _close(dep, BACKLOG + 1, BACKLOG + MEMBERS)
    api.wait_for(lambda: _dms_out(api, range(2001, 2001 + MEMBERS)), 120, "every member's DM")
    sent = [c for c in _to_channel(api) if c.status == 200]
    assert len(sent) < 2 * BACKLOG, "the DMs did not wait for the channel's backlog"
    api.wait_for(
        lambda: len([c for c in _to_channel(api) if c.status == 200]) >= 5, 60, "channel news"
    )
    _keeps_pace([c for c in _to_channel(api) if c.status == 200])
    assert _gauge(bot, 'coordbot_outbox_pending{kind="channel"}') > 0
    assert _gauge(bot, 'coordbot_outbox_oldest_seconds{kind="channel"}') > 0

    # Telegram holds the channel back for a minute: the channel waits, nothing else does.
    api.fail_chat(CHANNEL, ("retry_after", 60))
    refused = api.wait_for(
        lambda: next((c for c in _to_channel(api) if c.status == 429), None), 60, "the 429"
    )
    _close(dep, BACKLOG + MEMBERS + 1, BACKLOG + MEMBERS + LATE)
    late = range(2001 + MEMBERS, 2001 + MEMBERS + LATE)
    api.wait_for(lambda: _dms_out(api, late), 120, "the DMs while the channel waits")
    assert api.post_webhook(api.message_update(4001, "/start"), "s3cret-token") == 200
    assert any("Hello" in t for t in api.texts(4001)), "members' replies do not wait either"
    after = [c for c in _to_channel(api) if c.at > refused.at and c.status == 200]
    assert all(c.at >= refused.at + 59 for c in after), "the channel waited out its RetryAfter"
    _keeps_pace([c for c in _to_channel(api) if c.status == 200])
    assert bot.terminate() == 0
