"""/healthz, /readyz and /metrics of a running process; the second poller's conflict."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import make_url

from tests.process.conftest import CHANNEL, Deployment, wait_until
from tests.support.tcpproxy import TcpProxy


def metric(body: str, name: str, default: float | None = None) -> float:
    """The value of one sample line (``name`` with its labels, exactly)."""
    for line in body.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    if default is not None:
        return default
    raise AssertionError(f"{name} not in /metrics")


def test_readyz_follows_the_database_through_a_proxy(
    pg_deployment: Deployment,
) -> None:
    url = make_url(pg_deployment.db_url)
    proxy = TcpProxy(url.host or "127.0.0.1", url.port or 5432)
    try:
        proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
        bot = pg_deployment.start(DATABASE_URL=proxied)
        bot.wait_healthy()
        assert bot.get("/readyz") == (200, "ready\n")
        proxy.close()
        _, body = wait_until(
            lambda: (r := bot.get("/readyz"))[0] == 503 and r, what="/readyz to fail"
        )
        assert body.startswith("not ready: database:")
        assert bot.get("/healthz")[0] == 200, "alive, only not ready"
        assert bot.terminate() == 0
    finally:
        proxy.close()


def test_readyz_wants_migrations_at_head(deployment: Deployment) -> None:
    bot = deployment.start()
    bot.wait_healthy()
    assert bot.get("/readyz")[0] == 200
    [(head,)] = deployment.sql("SELECT version_num FROM alembic_version")
    deployment.sql("UPDATE alembic_version SET version_num = '0006'")
    try:
        status, body = bot.get("/readyz")
    finally:  # the PostgreSQL database is shared by the run's tests: put the head back
        deployment.sql("UPDATE alembic_version SET version_num = :head", head=head)
    assert status == 503 and f"migrations: database at 0006, code at {head}" in body
    assert bot.get("/readyz")[0] == 200
    assert bot.terminate() == 0


def test_metrics_move_with_traffic(deployment: Deployment) -> None:
    api = deployment.api
    bot = deployment.start()
    bot.wait_healthy()
    api.wait_for(lambda: api.calls_to("getUpdates"), what="polling")
    body = bot.get("/metrics")[1]
    for name in ("coordbot_update_seconds", "coordbot_ask_seconds", "coordbot_outbox_pending",
                 "coordbot_outbox_oldest_seconds", "coordbot_proposals_open",
                 "coordbot_handler_errors_total", "coordbot_bot_api_errors"):  # fmt: skip
        assert name in body
    assert metric(body, "coordbot_proposals_open") == 0

    # A 429 (the rate limiter waits and retries), then a 502 (the handler fails, the error
    # handler apologises).
    api.fail_next("sendMessage", ("retry_after", 1), ("status", 502))
    api.send(1003, "/start")
    api.wait_text(1003, "Sorry, something went wrong")
    api.send(1001, "/propose Garden; New benches; Yes, No")
    api.send(1001, "2 days")
    api.send(1001, "/skip")
    summary = api.wait_text(1001, "Please check your proposal")
    api.press(1001, "pc:yes", summary)
    api.wait_text(CHANNEL, "New proposal #1")
    api.send(1002, "/ask what is open?")
    api.wait_for(lambda: len(api.texts(1002)) >= 1, what="the /ask answer")

    def moved() -> str | None:
        """Counted once each update's handling ends, which is just after its reply is
        sent: wait for the last ones (the /ask message and its timing) to be counted."""
        text = bot.get("/metrics")[1]
        counted = (
            metric(text, 'coordbot_updates_total{kind="callback_query"}', 0) >= 1
            and metric(text, 'coordbot_updates_total{kind="message"}', 0) >= 5
            and metric(text, "coordbot_ask_seconds_count", 0) >= 1
        )
        return text if counted else None

    body = wait_until(moved, what="metrics to move")
    assert metric(body, 'coordbot_updates_total{kind="message"}') >= 5
    assert metric(body, 'coordbot_update_seconds_count{group="command"}') >= 3
    assert metric(body, "coordbot_ask_seconds_count") == 1
    assert metric(body, "coordbot_handler_errors_total") == 1
    assert metric(body, "coordbot_proposals_open") == 1
    assert (
        metric(body, 'coordbot_bot_api_errors_total{error="retry_after",method="sendMessage"}') == 1
    )
    assert metric(body, 'coordbot_bot_api_errors_total{error="5xx",method="sendMessage"}') == 1
    # Names and labels only: sample values (timestamps, sums) may contain any digits.
    series = [line.rsplit(" ", 1)[0] for line in body.splitlines() if not line.startswith("#")]
    assert not [s for s in series if re.search(r"Garden|benches|1001", s)], "no content or ids"
    assert bot.terminate() == 0


@pytest.mark.parametrize("deployment", ["sqlite"], indirect=True)
def test_second_poller_exits_with_the_conflict_message(deployment: Deployment) -> None:
    api = deployment.api
    first = deployment.start()
    first.wait_healthy()
    api.send(1001, "/start")  # a poll that came back: the first one is established
    api.wait_text(1001, "Hello")
    second = deployment.start()
    assert second.wait_exit(60) != 0
    out = second.output()
    assert "another instance is polling this bot" in out and "409 Conflict" in out
    assert "SQLite is single-process" in out
    # The first one keeps serving.
    api.send(1002, "/start")
    api.wait_text(1002, "Hello")
    assert first.proc.poll() is None
    assert first.terminate() == 0
