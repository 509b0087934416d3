"""The on-disk cache of what loading a memory root computes: parsed entries and the word index.

`folder` says where cache files live and keeps their number capped; `container` is the file
format (sections checked by CRC, no pickle); `codec` turns a root's snapshot (`records`) into
sections and back. The store and the engine reuse a snapshot only where it still matches the
disk file by file, so a warm start equals a fresh load.
"""
