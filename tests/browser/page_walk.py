"""What the page walk looks for on every page a role can reach: the checks run in the page, and the German check.

A page fails on

* horizontal overflow: the document wider than the window;
* a control too small to tap: a link, button, field, select or summary under 44×44 CSS px (a checkbox or radio
  button is measured by its label, which takes the tap). A link inside a sentence is exempt, as WCAG 2.5.8 exempts
  it: the text around it sets its height;
* a text left in English on a German page: a text the catalogue translates shown untranslated, or a text made of
  English words (``ENGLISH``) that no catalogue entry covers;
* a number written in the other language's way: "25.00" or "1,000" on a German page, "25,00" on an English one
  (``foreign_numbers``: a figure in a text, a label or a field's value);
* a console error, a failed request, or a link answering 4xx/5xx (the walk in ``test_page_walk``).
"""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path
from typing import Any

LOCALE = Path(__file__).resolve().parents[2] / "locale"
TAP = 44  # CSS px: the README's promise for every control, WCAG 2.5.5's target size

# Runs in the page: the overflow and every control under TAP px, described so that a failure says which.
LAYOUT_JS = """(tap) => {
  const doc = document.documentElement;
  const small = [];
  const describe = (el, r) => {
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || el.name || '').trim().slice(0, 40);
    return `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ')[0] : ''} `
      + `"${text}" ${Math.round(r.width)}x${Math.round(r.height)}`;
  };
  const inSentence = (el) => {
    const block = el.closest('p, li, dd, .prose');
    if (!block) return false;
    const rest = block.innerText.replace(el.innerText, '').replace(/[\\s\\u2192\\u2190:.,;()]+/g, '');
    return rest.length >= 12;
  };
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest('[hidden], [aria-hidden=true]')) continue;
    let target = el;
    if ((el.type === 'checkbox' || el.type === 'radio') && el.closest('label')) target = el.closest('label');
    const style = getComputedStyle(target);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const r = target.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // not drawn (a closed <details>, a collapsed panel)
    if (el.tagName === 'A' && inSentence(el)) continue;
    if (r.width < tap - 0.5 || r.height < tap - 0.5) small.push(describe(el, r));
  }
  return {overflow: doc.scrollWidth - doc.clientWidth, small: small};
}"""

# Runs in the page: every text a user sees (text nodes drawn, placeholders, titles, button values).
TEXTS_JS = """() => {
  const texts = [];
  const skip = 'script, style, code, pre, kbd, samp, [translate=no], .brand';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    if (!text || !parent || parent.closest(skip)) continue;
    if (!parent.getClientRects().length) continue;
    texts.push(text);
  }
  for (const el of document.querySelectorAll('[placeholder], [title], [aria-label], input[type=submit][value]')) {
    if (el.closest(skip)) continue;
    for (const name of ['placeholder', 'title', 'aria-label']) {
      const value = el.getAttribute(name);
      if (value && value.trim()) texts.push(value.trim());
    }
    if (el.type === 'submit' && el.value) texts.push(el.value.trim());
  }
  return texts;
}"""

# The values shown in the page's fields (an amount to change, a count), which a number check reads with its texts.
FIELD_VALUES_JS = """() => Array.from(document.querySelectorAll('input:not([type=hidden]):not([type=submit])'))
  .filter(el => el.getClientRects().length && el.value).map(el => el.value.trim())"""

# A decimal figure as English writes it ("25.00", "2 000.5", "11.9%"), not part of a date (29.11.2026), a version
# (0.1.0) or a word; thousands grouped by commas ("1,000"); a decimal comma ("25,00", "11,9").
_POINT_DECIMAL = re.compile(r"(?<![\w.,])\d{1,3}(?:[ \u2009]\d{3})*\.\d{1,4}(?![\w.])")
_COMMA_THOUSANDS = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\w,])")
_COMMA_DECIMAL = re.compile(r"(?<![\w.,])\d{1,3}(?:[ \u2009]\d{3})*,\d{1,2}(?![\w,])")


def foreign_numbers(texts: list[str], language: str) -> list[str]:
    """The texts of a page in ``language`` ("en" or "de") that write a number in the other language's way."""
    if language == "de":
        return sorted({t for t in texts if _POINT_DECIMAL.search(t) or _COMMA_THOUSANDS.search(t)})
    return sorted({t for t in texts if _COMMA_DECIMAL.search(t)})


# Words of English that are not also German words: a text holding two of them (or one, if it is the whole text's
# only lower-case word besides numbers) is English.
ENGLISH = frozenset(
    (
        "the",
        "and",
        "of",
        "with",
        "to",
        "is",
        "are",
        "not",
        "for",
        "this",
        "that",
        "your",
        "from",
        "by",
        "will",
        "be",
        "has",
        "have",
        "been",
        "on",
        "or",
        "were",
        "which",
        "when",
        "where",
        "who",
        "what",
        "there",
        "their",
        "they",
        "its",
        "than",
        "then",
        "into",
        "over",
        "under",
        "after",
        "before",
        "high",
        "low",
        "pair",
        "pairs",
        "kept",
        "forfeit",
        "rules",
        "open",
        "closed",
        "waiting",
        "seat",
        "seats",
        "round",
        "rounds",
        "table",
        "tables",
        "player",
        "players",
        "dealer",
        "loss",
        "banker",
        "wager",
        "wagers",
        "hands",
        "shift",
        "shifts",
        "day",
        "none",
        "yes",
        "back",
        "request",
        "settle",
        "void",
        "silver",
        "platinum",
        "diamond",
        "entries",
    )
)
_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
# Texts that read the same in both languages: names of things, codes, units.
SAME_IN_BOTH = re.compile(
    r"^(?:[A-Z]{1,4}\b.*|[\d\s.,:%+\-–−×/€$#()·]+|Tableside|API|CSV|HTML|PDF|OK|Pai Gow.*|Chinese Poker.*|"
    r"Open-Face.*|OFC.*|Hold'em.*|Omaha.*)$"
)


@cache
def catalogue() -> dict[str, str]:
    """The German catalogue: every English text (msgid) whose German differs from it, unless the German of another
    text is that same word (the poker room's "Level" is German too: "Level" in a tournament, "Ebene" in a report)."""
    with (LOCALE / "de" / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        translations = gettext.GNUTranslations(mo)
    entries: dict[Any, str] = translations._catalog  # type: ignore[attr-defined]  # the parsed .mo
    german_texts = {german.strip() for german in entries.values()}
    english = {}
    for key, german in entries.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not isinstance(msgid, str) or not msgid or german == msgid or "%(" in msgid or "{" in msgid:
            continue
        if msgid.strip() not in german_texts:
            english[msgid.strip()] = german
    return english


def english_texts(texts: list[str], names: frozenset[str] = frozenset()) -> list[str]:
    """The texts of a German page that are English: one the catalogue would have translated, or one made of
    English words. ``names`` are the data's own names (users, shifts), which no language translates."""
    known = catalogue()
    found = []
    for text in texts:
        if text in names:
            continue
        if text in known:
            found.append(text)
            continue
        words = [word.lower() for word in _WORD.findall(text)]
        english = [word for word in words if word in ENGLISH]
        if len(english) >= 2 or (english and len(words) == 1 and not SAME_IN_BOTH.match(text)):
            found.append(text)
    return sorted(set(found))
