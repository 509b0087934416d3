"""The places agents keep memory: Claude Code folders and cheap surveys of candidate roots."""
