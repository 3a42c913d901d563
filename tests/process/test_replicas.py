"""Two webhook replicas on one PostgreSQL database: deadlines close once, the outbox is sent
by one replica at a time, and a replica killed mid-announcement loses nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.process.conftest import CHANNEL, Deployment, wait_until

SECRET = "s3cret-token"
PROPOSALS = 200


def _seed(deployment: Deployment, tmp: Path) -> None:
    fixture = {
        "users": [{"telegram_id": 1001, "first_name": "Ann"}],
        "proposals": [
            {"id": i, "proposer": 1001, "title": f"Item {i}", "description": f"Proposal {i}",
             "type": "multiple_choice", "options": ["Yes", "No"], "status": "open",
             "created_at": "2026-01-01T00:00:00Z", "deadline": "2099-01-01T00:00:00Z",
             "channel_id": str(CHANNEL)}
            for i in range(1, PROPOSALS + 1)
        ],
    }  # fmt: skip
    path = tmp / "seed.json"
    path.write_text(json.dumps(fixture))
    env = deployment.env()
    done = subprocess.run(
        [sys.executable, "-m", "app", "seed", str(path)],
        env=env, cwd=env["DATA_DIR"], capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    deployment.sql("SELECT setval('proposals_id_seq', :n)", n=PROPOSALS)


def _sender(runs: list) -> int:  # type: ignore[type-arg]
    """Which replica holds the outbox's sending lease (it says so in its log)."""
    holders = [
        i for i, run in enumerate(runs) if "this process now sends the outbox" in run.output()
    ]
    assert len(holders) == 1, f"one sender expected, found {holders}"
    return holders[0]


def _guided_propose_across_replicas(dep: Deployment, a, b) -> None:  # type: ignore[no-untyped-def]
    """Each message of a step-by-step /propose goes to the other replica; the same update
    posted to both is handled once."""
    api = dep.api
    hooks = [f"http://127.0.0.1:{run.port}/tg/hook" for run in (a, b)]
    steps = ["/propose", "Street party", "Music and food in June", None, "Yes, No, Later",
             "3 days", "/skip", "confirm"]  # fmt: skip
    for turn, step in enumerate(steps):
        hook = hooks[turn % 2]
        seen = len(api.messages(1002))
        if step is None:  # the type question: a button
            message = api.messages(1002)[-1]
            update = api.callback_update(1002, "pt:mc", message)
        elif step == "confirm":
            summary = api.wait_text(1002, "Please check your proposal")
            update = api.callback_update(1002, "pc:yes", summary)
        else:
            update = api.message_update(1002, step)
        assert api.post_webhook(update, SECRET, url=hook) == 200
        assert api.post_webhook(update, SECRET, url=hooks[(turn + 1) % 2]) == 200  # twice
        wait_until(lambda n=seen: len(api.messages(1002)) > n, 10, f"an answer to {step!r}")
    api.wait_text(1002, f"Proposal <b>#{PROPOSALS + 1}</b>")
    post = api.wait_text(CHANNEL, f"New proposal #{PROPOSALS + 1}")
    assert "Street party" in post["text"]
    assert [r[0]["text"] for r in post["reply_markup"]["inline_keyboard"]] == ["Yes", "No", "Later"]
    asked = [t for t in api.texts(1002) if "How long should voting run?" in t]
    assert len(asked) == 1, "each step answered once, though every update came twice"


def test_two_replicas_one_killed_mid_announcement(
    pg_deployment: Deployment, tmp_path: Path
) -> None:
    dep, api = pg_deployment, pg_deployment.api
    _seed(dep, tmp_path)
    extra = {"TELEGRAM_RATE_LIMIT": "false"}
    a = dep.start(webhook=True, **extra)
    b = dep.start(webhook=True, WEBHOOK_URL=f"http://127.0.0.1:{a.port}/tg/hook", **extra)
    a.wait_healthy()
    b.wait_healthy()
    runs = [a, b]
    assert a.get("/readyz")[0] == 200 and b.get("/readyz")[0] == 200

    _guided_propose_across_replicas(dep, a, b)

    # 200 deadlines in the same second; both replicas' sweeps race to close them.
    dep.sql(
        "UPDATE proposals SET deadline_at = now() + interval '1 second' WHERE id <= :n", n=PROPOSALS
    )

    def results() -> list[str]:
        return [t for t in api.texts(CHANNEL) if t.startswith("🏁 <b>Results: Item ")]

    wait_until(lambda: len(results()) >= 40, 60, "announcements to start")
    victim = _sender(runs)
    runs[victim].proc.kill()  # SIGKILL: no goodbye, its claims and its lease are orphaned
    runs[victim].proc.wait(10)
    survivor = runs[1 - victim]

    wait_until(lambda: len(set(results())) >= PROPOSALS, 60, "every announcement")
    wait_until(
        lambda: dep.sql("SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL") == [(0,)],
        60, "the outbox to drain",
    )  # fmt: skip
    counts = Counter(results())
    assert len(counts) == PROPOSALS
    duplicates = sum(n - 1 for n in counts.values())
    # Exactly once, but for messages Telegram accepted in the instant before the kill
    # (sent, not yet marked): at most the sender's concurrency (8).
    assert duplicates <= 8, counts.most_common(3)
    dms = Counter(t for t in api.texts(1001) if t.startswith("Your proposal"))
    assert len(dms) == PROPOSALS and sum(n - 1 for n in dms.values()) <= 8
    assert dep.sql("SELECT count(*) FROM proposals WHERE status = 'closed'") == [(PROPOSALS,)]
    assert "took over" in survivor.output() or "this process now sends" in survivor.output()
    assert survivor.terminate() == 0
