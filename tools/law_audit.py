"""Rewrite docs/law-audit.md from the rulebooks and scenarios/ (tests/test_docs.py holds it current).

    python tools/law_audit.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicate.checking.audit import audit_page  # noqa: E402

(ROOT / "docs" / "law-audit.md").write_text(audit_page(str(ROOT / "scenarios")), encoding="utf-8")
