"""An imperfect Bot API: failing start-up calls, dropped connections and 5xx while the
outbox announces a result. The bot keeps going and announces once."""

from __future__ import annotations

import pytest

from tests.process.conftest import CHANNEL, Deployment, create_proposal, wait_until


@pytest.mark.parametrize("deployment", ["sqlite"], indirect=True)
def test_flaky_bot_api(deployment: Deployment) -> None:
    api = deployment.api
    api.fail_next("setMyCommands", ("status", 500), ("drop",))
    bot = deployment.start()
    bot.wait_healthy()
    api.send(1001, "/start")
    api.wait_text(1001, "Hello")
    assert bot.output().count("start-up calls (commands, menu button) failed") == 1

    create_proposal(api, 1001, "Benches; New benches; Yes, No", 1)
    # The result announcement: a dropped connection, then a 502, then it goes through.
    api.fail_next("sendMessage", ("drop",), ("status", 502))
    deployment.sql("UPDATE proposals SET deadline_at = created_at WHERE id = 1")
    api.wait_text(CHANNEL, "Results: Benches", timeout=40)
    wait_until(
        lambda: deployment.sql("SELECT count(*) FROM outbox WHERE sent_at IS NULL") == [(0,)],
        40,
        "the outbox to drain",
    )
    assert sum("Results: Benches" in t for t in api.texts(CHANNEL)) == 1
    body = bot.get("/metrics")[1]
    assert 'coordbot_bot_api_errors_total{error="network",method="sendMessage"} 1.0' in body
    assert 'coordbot_bot_api_errors_total{error="5xx",method="sendMessage"} 1.0' in body
    assert bot.terminate() == 0
