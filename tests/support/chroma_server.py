"""A real `chroma run` server on a free 127.0.0.1 port, for tests that need one."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.net import free_port


@contextmanager
def running_chroma_server(path: Path) -> Iterator[int]:
    """Start `chroma run` storing under ``path``, yield its port once it answers, stop it."""
    port = free_port()
    chroma = Path(sys.executable).with_name("chroma")
    proc = subprocess.Popen(
        [str(chroma), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:  # poll the heartbeat until the server answers (bounded)
            try:
                url = f"http://127.0.0.1:{port}/api/v2/heartbeat"
                with urllib.request.urlopen(url, timeout=2) as response:
                    response.read()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("chroma run did not start") from None
                time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)
