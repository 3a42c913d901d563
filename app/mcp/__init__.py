"""The MCP front door: the knowledge, fact and proposal tools for AI agents.

Tool declarations only; every rule lives in the core services the bot and the CLI use.
"""
