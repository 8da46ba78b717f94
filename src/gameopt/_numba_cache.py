"""Point numba's on-disk cache at a folder named by a hash of the package's sources.

numba checks a cached kernel only against the timestamp of the file that defines it, not
against the modules it calls: after an edit of ``reversi/_eval.py`` the cached
``reversi/_midgame.search`` would go on using the old evaluation (its tables, its layout)
with no warning. Keying the whole cache on the sources of every module makes any edit
start a fresh cache. Set ``NUMBA_CACHE_DIR`` yourself to opt out.

This must run before numba is imported (numba reads the variable once, at import), which
``gameopt/__init__.py`` does first thing; a program that imported numba before gameopt
keeps numba's default cache beside the sources.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

__all__ = ["configure"]


#: how many caches (of the latest sources) are kept
KEEP = 4


def _sources_digest(root: Path) -> str:
    """Hash of every module's path, size and modification time (any edit changes it)."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        st = path.stat()
        h.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()[:16]


def configure() -> None:
    """Set ``NUMBA_CACHE_DIR`` (unless set, or numba already imported) and remove all but
    the :data:`KEEP` most recent caches (a running program may still use an older one)."""
    if "NUMBA_CACHE_DIR" in os.environ or "numba" in sys.modules:
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gameopt"
    digest = _sources_digest(Path(__file__).resolve().parent)
    target = base / f"numba-{digest}"
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # no writable home: numba keeps its default
    target.touch()
    caches = sorted(base.glob("numba-*"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in caches[KEEP:]:
        if old != target:
            shutil.rmtree(old, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = str(target)
