"""SIGTERM in the middle of traffic: exit 0 quickly, nothing acknowledged lost, nothing twice."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from tests.process.conftest import CHANNEL, Deployment, create_proposal, wait_until

SECRET = "s3cret-token"


def test_sigterm_during_a_burst_of_votes(deployment: Deployment) -> None:
    api = deployment.api
    bot = deployment.start(webhook=True)
    bot.wait_healthy()
    api.wait_for(lambda: api.webhook, what="setWebhook")
    post1 = create_proposal(api, 1001, "Benches; New benches; Yes, No", 1)
    post2 = create_proposal(api, 1001, "Lights; Brighter lights; Yes, No", 2)
    assert api.post_webhook(api.callback_update(1002, "v:2:0", post2), SECRET) == 200  # a chart

    voters = list(range(3000, 3200))
    statuses: dict[int, int] = {}
    acknowledged = threading.Event()
    lock = threading.Lock()

    def vote(user: int) -> None:
        update = api.callback_update(user, f"v:1:{user % 2}", post1)
        try:
            status = api.post_webhook(update, SECRET)
        except OSError:
            status = 0  # refused or cut: not acknowledged, Telegram would retry
        with lock:
            statuses[user] = status
            if sum(s == 200 for s in statuses.values()) >= 40:
                acknowledged.set()

    with ThreadPoolExecutor(8) as pool:
        futures = [pool.submit(vote, user) for user in voters]
        # Proposal 2's deadline passes during the burst: its announcements go out meanwhile.
        deployment.sql("UPDATE proposals SET deadline_at = created_at WHERE id = 2")
        assert acknowledged.wait(60), f"votes not acknowledged: {bot.output()[-2000:]}"
        started = time.monotonic()
        bot.proc.terminate()
        code = bot.wait_exit(15)
        stopped_in = time.monotonic() - started
        for future in futures:
            future.result()
    assert code == 0, bot.output()[-3000:]
    assert stopped_in < 10
    ok = {user for user, status in statuses.items() if status == 200}
    assert len(ok) >= 40
    stored = {
        row[0]
        for row in deployment.sql("SELECT submitter_id FROM submissions WHERE proposal_id = 1")
    }
    assert ok <= stored, f"acknowledged but not stored: {sorted(ok - stored)[:10]}"

    # Restart: whatever the outbox still owed goes out, and nothing goes out twice.
    again = deployment.start(webhook=True)
    again.wait_healthy()

    def settled() -> bool:
        return deployment.sql(
            "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND failed_at IS NULL"
        ) == [(0,)] and any("Results of #2" in t for t in api.texts(CHANNEL))

    wait_until(settled, 30, "the outbox to drain")
    texts = api.texts(CHANNEL)
    assert sum(t.startswith("🏁 <b>Results: Lights</b>") for t in texts) == 1
    assert sum("Results of #2" in t for t in texts) == 1
    assert sum("Your proposal <b>#2" in t for t in api.texts(1001)) == 1
    assert again.terminate() == 0
