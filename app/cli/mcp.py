"""`coordbot mcp`: the MCP server over stdio (default) or streamable HTTP at /mcp.

On stdio, stdout belongs to the protocol: logs go to stderr, as everywhere in the CLI.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from app.cli.common import CliError, clock, settings, with_container

LOOPBACK = "127.0.0.1"
MIN_TOKEN = 16


def cmd_mcp(args: argparse.Namespace) -> int:
    config = settings()
    token = config.mcp_token
    if args.http and not token and not args.no_auth:
        raise CliError(
            "MCP_TOKEN is not set: every HTTP request needs it as a bearer token "
            "(or, on 127.0.0.1 only, pass --no-auth)"
        )
    if args.http and token and not args.no_auth and len(token) < MIN_TOKEN:
        raise CliError(f"MCP_TOKEN is too short: use at least {MIN_TOKEN} random characters")
    if args.http and args.no_auth and args.host != LOOPBACK:
        raise CliError(f"--no-auth is only allowed with --host {LOOPBACK}")
    if not 0 < args.port < 65536:
        raise CliError("--port must be between 1 and 65535")

    async def work(container: Any) -> int:
        from app.mcp.server import serve_http, serve_stdio

        if args.http:
            await serve_http(
                container,
                host=args.host,
                port=args.port,
                token=None if args.no_auth else token,
                allow_writes=args.allow_writes,
                allowed_hosts=config.mcp_allowed_hosts,
            )
        else:
            await serve_stdio(container, allow_writes=args.allow_writes)
        return 0

    return asyncio.run(with_container(clock(None), work))


def register(sub: Any) -> None:
    mcp = sub.add_parser("mcp", help="the MCP server for AI agents (stdio, or --http)")
    mcp.add_argument("--http", action="store_true", help="streamable HTTP at /mcp")
    mcp.add_argument("--host", default=LOOPBACK, help="HTTP address (default 127.0.0.1)")
    mcp.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")
    mcp.add_argument("--no-auth", action="store_true", help="no bearer token (127.0.0.1 only)")
    mcp.add_argument(
        "--allow-writes", action="store_true", help="list knowledge_import and add_fact"
    )
    mcp.set_defaults(func=cmd_mcp)
