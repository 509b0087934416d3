"""Realistic memory folders, one per layout in docs/ranking.md's "Memory layouts it reads", plus the
quirks real files have.

Written from scratch (never copied from real memory files). Each builder writes its files under
`root` and returns nothing; `build_all` writes every layout side by side, `LAYOUTS` lists them.
Line numbers asserted by the tests refer to the texts below, so keep them stable.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

OPENCLAW_MEMORY = """\
# MEMORY.md - Long-Term Memory

**Scope:** main session only.

## Preferences 🧭

- Short answers first.

## Deploy checklist ##

1. CI green
2. `make deploy`

```bash
# not a heading inside a fence
## neither is this
```

## Recent Fixes (2026-03-18)

Fixed the flaky login test.

## Recent Fixes (2026-03-18)

Fixed the flaky login test.

\\## escaped, not a heading

## Impossible 2026-02-30 date

Never crash on it.
"""

OPENCLAW_DAILY = """\
# 2026-11-20

## 09:14 — Deploy

Deployed v2.1.

## Customer call (20:28 UTC)

Dana reported invoice gaps.
"""

OPENCLAW_SESSION = """\
# Session: 2026-11-19 14:25:58 UTC

- **Session Key**: agent:main:main
- **Source**: telegram
"""

OPENCLAW_SESSION_TRANSCRIPT = """\
# Session: 2026-11-18 08:23:00 UTC

## Conversation Summary

user: hello
assistant: hi

# Pasted plan

## Step one

Do the thing.

## Step two

Do the other thing.
"""

MINICLAW_DAILY = """\
# Daily Note - 2026-11-20

## 09:14:00 UTC

Rotated the staging key.

---

## 13:02:00 UTC

Postgres vacuum finished.

---
"""

BLOCKS_DAILY = """\
Deployed the billing hotfix.

---

Maya prefers short answers.

---


"""

MUXCODE_ROLE = """\
# Build role

## Cache the wheels

_2026-11-02 14:30_

Wheels are cached per lockfile hash.

## Pin the runner image

No timestamp here.
"""

ROO_DECISION_LOG = """\
# Decision Log

This file records decisions.
2025-04-01 17:54:50 - Log of updates made.

## Decision

*   [2025-04-01 17:54:50] Use Postgres.

## Rationale

*   It is boring.

---

## Decision

*   [2025-04-02 09:00:00] Use Redis for queues.

## Rationale

*   [YYYY-MM-DD HH:MM:SS] placeholder never filled.
"""

CLINE_ACTIVE_CONTEXT = (
    "\ufeff# Active Context\r\n\r\n## Current Focus\r\n\r\nShipping v2.\r\n\r\n"
    "## Next Steps\r\nDocs: 10%\rDocs: 100%\r\n"  # a lone CR (a pasted progress bar) is no line
)

CLAUDE_INDEX = """\
# Memory Index

- [Socket permissions](socket_permissions.md) — routing player actions
- [UI preferences](user_ui_preferences.md) — compact layouts
"""

CLAUDE_TOPIC = """\
---
name: socket_permissions
description: Route player actions on GM-owned actors through the socket
type: feedback
tags: [sockets, permissions]
---

Players cannot update GM-owned actors directly.

```bash
# emit the socket event
npm run build
```
"""

CLAUDE_TOPIC_KOREAN = """\
---
name: 한자 사용 금지
type: feedback
---

한국어로만 답변한다.
"""

FRONTMATTER_MEMORY = """\
---
summary: "Long-term curated memory"
---
# MEMORY.md - Long-Term Memory

Intro line.

## About This Deployment

- Created 2026-02-04

---

Review daily files periodically.
"""

NANOBOT_HISTORY = """\
[2026-11-08 21:01-21:43] Installed two skills: vetter and improver.

[2026-11-09 00:00] Analysed the ETF skills.
Second line of the same entry.

[2026-11-09] Date-only entry.
-e\x20
[2026-11-07 13:51] Out of order entry. [2026-11-07 13:55] second entry on the same line.

[2026-11-10 09:00] 用户确认持仓明细。
"""

PICOCLAW_DAILY = """\
## 08:00

Morning check.
"""

MEMORY_BANK_JOURNAL = """\
# XML namespace fix

## Problem

Exports lost the namespace.

```python
# Root cause: lxml default namespace
def fix():
    pass
```

## Solution

Register the namespace.
"""

CHINESE_DAILY = """\
# 2026-11-15 - 工作日志

## [部署] 数据库刷新
- 时间：09:23
- 已完成

## 【Session 压缩 · 摘要】
- 时间：15:19-15:22
- 结论：通过
"""

JAPANESE_DAILY = """\
# 2026-11-14

## tmuxセッション作成 (20:28 UTC)

アイディア倉庫を作った。

## Рабочие заметки 📝

Кириллица тоже.
"""

BASIC_MEMORY_NOTE = """\
---
title: store durable decisions in decisions folder
type: decision
tags:
- memory
- decisions
---

# store durable decisions in decisions folder

## Decision

Keep decisions in one folder.

## Why

They are easy to find.
"""

TOPIC_WITH_FRONTMATTER_DATE = """\
---
title: Billing API
date: 2026-10-01
tags: billing, postgres
---

## Runbook

Restart the worker.
"""

NO_HEADINGS_NOTE = """\
Just a loose note without headings.
It has two lines.
"""


def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def openclaw(root: Path) -> None:
    _write(root, "MEMORY.md", OPENCLAW_MEMORY)
    _write(root, "memory/2026-11-20.md", OPENCLAW_DAILY)
    _write(root, "memory/2026-11-19-1425.md", OPENCLAW_SESSION)
    _write(root, "memory/2026-11-18-plan-review.md", OPENCLAW_SESSION_TRANSCRIPT)
    _write(root, "memory/2026-09-01.md", OPENCLAW_DAILY.replace("2026-11-20", "2026-09-01"))


def miniclaw(root: Path) -> None:
    _write(root, "miniclaw/memory/2026-11-21.md", MINICLAW_DAILY.replace("11-20", "11-21"))
    _write(root, "miniclaw/memory/2026-11-17.md", BLOCKS_DAILY)


def muxcode(root: Path) -> None:
    _write(root, "muxcode/build.md", MUXCODE_ROLE)


def memory_bank(root: Path) -> None:
    _write(root, "memory-bank/decisionLog.md", ROO_DECISION_LOG)
    (root / "memory-bank").mkdir(parents=True, exist_ok=True)
    (root / "memory-bank/activeContext.md").write_bytes(CLINE_ACTIVE_CONTEXT.encode("utf-8"))
    _write(root, "memory-bank/journal/2026_11_16_xml_namespace_fix.md", MEMORY_BANK_JOURNAL)


def claude_code(root: Path) -> None:
    _write(root, ".claude/memory/MEMORY.md", CLAUDE_INDEX)
    _write(root, ".claude/memory/socket_permissions.md", CLAUDE_TOPIC)
    _write(root, ".claude/memory/feedback_no_hanja.md", CLAUDE_TOPIC_KOREAN)
    _write(root, "moltbot/MEMORY.md", FRONTMATTER_MEMORY)


def nanobot(root: Path) -> None:
    _write(root, "nanobot/memory/HISTORY.md", NANOBOT_HISTORY)


def picoclaw(root: Path) -> None:
    _write(root, "picoclaw/202611/20261119.md", PICOCLAW_DAILY)


def multilingual(root: Path) -> None:
    _write(root, "memory/2026-11-15.md", CHINESE_DAILY)
    _write(root, "memory/2026-11-14.md", JAPANESE_DAILY)


def basic_memory(root: Path) -> None:
    _write(root, "basic-memory/2026-04-17 - store durable decisions.md", BASIC_MEMORY_NOTE)
    _write(root, "memory/projects/billing-api.md", TOPIC_WITH_FRONTMATTER_DATE)
    _write(root, "notes/loose.md", NO_HEADINGS_NOTE)


LAYOUTS: dict[str, Callable[[Path], None]] = {
    "openclaw": openclaw,
    "miniclaw": miniclaw,
    "muxcode": muxcode,
    "memory_bank": memory_bank,
    "claude_code": claude_code,
    "nanobot": nanobot,
    "picoclaw": picoclaw,
    "multilingual": multilingual,
    "basic_memory": basic_memory,
}


def build_all(root: Path) -> Path:
    """Write every layout into `root` (created if needed) and return it."""
    root.mkdir(parents=True, exist_ok=True)
    for build in LAYOUTS.values():
        build(root)
    return root
