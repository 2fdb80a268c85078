"""Rewrite docs/rulings.md's table of defeat relations from the rulebooks (tests/test_docs.py holds it so).

    python tools/relations_table.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_docs import relations_table  # noqa: E402

doc = ROOT / "docs" / "rulings.md"
text = doc.read_text(encoding="utf-8")
start = text.index("\n", text.index("<!-- relations:")) + 1
end = text.index("<!-- /relations -->")
doc.write_text(text[:start] + relations_table() + "\n" + text[end:], encoding="utf-8")
