"""Closing at the deadline: results, themes, and the outbox that announces them."""
