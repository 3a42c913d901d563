"""Proposals and votes: creating, editing, cancelling, voting, submissions, members."""
