"""Agents: bonds to memories, the subconscious that observes, and the conscious tools."""
