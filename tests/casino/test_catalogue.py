"""The German catalogue is whole: every text of the interface is in it, translated, none fuzzy, and compiled.

``makemessages`` run on a copy of the sources must find no text the catalogue lacks (a string marked for
translation after the catalogue was last made), and none of its entries may be untranslated or fuzzy (a guess
``makemessages`` made from a similar text, which Django never shows). The compiled ``django.mo`` must hold the
catalogue as it is (``compilemessages`` run after the last change).
"""

from __future__ import annotations

import gettext
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")

pytestmark = pytest.mark.skipif(shutil.which("msgattrib") is None, reason="GNU gettext is not installed")


def _entries(*flags: str, path: Path = PO) -> list[str]:
    out = subprocess.run(["msgattrib", *flags, "--no-wrap", str(path)], capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line.startswith("msgid ") and line != 'msgid ""']


def test_no_entry_of_the_german_catalogue_is_untranslated_or_fuzzy() -> None:
    assert _entries("--untranslated") == []
    assert _entries("--only-fuzzy") == []


def test_the_compiled_catalogue_is_the_catalogue() -> None:
    with MO.open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    out = subprocess.run(["msgfmt", "-o", "-", str(PO)], capture_output=True, check=True)
    from io import BytesIO

    fresh = gettext.GNUTranslations(BytesIO(out.stdout))._catalog  # type: ignore[attr-defined]
    assert compiled == fresh, "run `python manage.py compilemessages` after changing django.po"


def test_every_text_marked_for_translation_is_in_the_catalogue(tmp_path: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if not files:
        pytest.skip("not a git checkout")
    for name in files:
        if name.endswith((".py", ".html", ".txt", ".po", ".toml")) and (ROOT / name).is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tmp_path / name)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "--no-obsolete"],
        cwd=tmp_path,
        capture_output=True,
        check=True,
    )
    before = set(_entries())
    after = set(_entries(path=tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.po"))
    assert after - before == set(), "run `python manage.py makemessages -l de` and translate the new texts"
