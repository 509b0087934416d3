"""Memory health: near-duplicates, superseded and stale entries, secrets, and what the agent
never loads. Read-only checks over loaded entries; `check.check_health` runs them all."""
