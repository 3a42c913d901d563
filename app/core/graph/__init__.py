"""The knowledge graph: facts, their import, multi-hop answers."""
