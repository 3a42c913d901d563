"""/ask per community, offline: every measure of the gold sets, one JSON object.

    .venv/bin/python bench/ask_gold.py [--community NAME ...] [--misses]

Each community (tests/fixtures/communities/SPLIT.json) is seeded into a fresh DATA_DIR
on SQLite with the embedded Chroma and the bundled model, and its questions go through
`coordbot ask --batch --json`. `--misses` adds the development communities' misses;
a held-out community's misses are never shown, only its figures.
bench/ask_model.py runs the same through an OpenAI-compatible server.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from tests.support import ask_gold  # noqa: E402

OFF = ("DATABASE_URL", "CHROMA_HOST", "TELEGRAM_BOT_TOKEN")


def measure(names: list[str] | None, show_misses: bool, model: bool = False) -> dict[str, Any]:
    """Every chosen community's figures; the model's settings stay in the environment
    when ``model`` (bench/ask_model.py), else the offline backend is used."""
    for name in OFF + (() if model else ("OPENAI_API_KEY",)):
        os.environ.pop(name, None)
    out: dict[str, Any] = {}
    for community in ask_gold.communities():
        if names and community.name not in names:
            continue
        with tempfile.TemporaryDirectory(prefix=f"gold-{community.name}-") as tmp:
            work = Path(tmp)
            os.environ["DATA_DIR"] = str(work / "data")
            ask_gold.seed(community)
            rows, seconds = ask_gold.ask_all(community, work, work / "data")
            out[community.name] = ask_gold.report(community, rows, seconds, show_misses)
            print(f"{community.name}: done", file=sys.stderr)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--community", action="append", help="only these (repeatable)")
    parser.add_argument("--misses", action="store_true", help="development misses too")
    args = parser.parse_args()
    figures = measure(args.community, args.misses)
    print(json.dumps({"backend": "offline", "communities": figures}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
