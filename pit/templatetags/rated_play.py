"""The line under each table of the pit-boss dashboard: its rated players seated now with their live
figures, and its hold over its last rounds beside its expectation (``pit.selectors.TableLine.rated`` and ``.hold``).

Drawn here with ``format_html`` rather than in a template, for the dashboard's budget (100 ms with 200 open tables,
refreshed every 5 seconds): with three rated players at each table, 600 seats drawn through the template language
took about 54 ms of it (some twenty variables and tags a seat, a few microseconds each), drawn here about 3 ms. The
words are translated once a language (``_words``), not once a seat. Nothing here decides anything: every figure is
``players.figures``'s, formatted as the templates format money (``casino.templatetags.money``).
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from django import template
from django.template.defaultfilters import floatformat
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from casino.templatetags.money import cents, signed
from pit.dashboard_rows import TableLine
from players.tier_names import tier_name

register = template.Library()


@lru_cache(maxsize=16)
def _words(language: str | None) -> dict[str, str]:
    """The line's words in ``language`` (the active one when called), escaped once."""
    words = {
        "seat": _("Seat %(seat)s"),
        "anonymous": _("anonymous player %(number)s"),
        "paused": _("on a break"),
        "average": _("avg bet"),
        "theo": _("theo"),
        "alert": _("Won more than three standard deviations above the expectation"),
    }
    return {key: escape(text) for key, text in words.items()}


@lru_cache(maxsize=1024)
def _rounds(language: str | None, rounds: int) -> str:
    """The words "12 rounds" in ``language`` (the active one when called), escaped."""
    return escape(ngettext("%(rounds)s round", "%(rounds)s rounds", rounds) % {"rounds": rounds})


@lru_cache(maxsize=256)
def _hold_said(language: str | None, rounds: int) -> str:
    """The hold window's sentence for ``rounds`` rounds in ``language`` (the active one when called), escaped."""
    said = ngettext(
        "Hold, last %(rounds)s round: %(hold)s · expected %(expected)s",
        "Hold, last %(rounds)s rounds: %(hold)s · expected %(expected)s",
        rounds,
    )
    return escape(said)


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{floatformat(value, 2)}%"  # 1,50% in German


@register.filter(is_safe=True)
def rated_row(line: TableLine, players_url: str) -> SafeString:
    """The table's rated players and hold window as one table row under its line (``players_url``: the players'
    list's address, a player's page being ``players_url`` + their id + ``/``)."""
    language = get_language()
    words = _words(language)
    parts = [f'<tr class="rated-row" id="rated-{line.table.pk}"><td colspan="13"><div class="rated-box">']
    url = escape(str(players_url))
    for seat in line.rated:
        f = seat.figures
        classes = "rated-seat" + (" rated-paused" if seat.paused else "") + (" rated-alert" if f.alert else "")
        name = escape(seat.player_name) if seat.player_name else words["anonymous"] % {"number": seat.player_id}
        tier = escape(seat.tier)
        tier_shown = escape(tier_name(seat.tier))
        average = "—" if f.average_bet_cents is None else cents(f.average_bet_cents)
        parts.append(
            f'<span class="{classes}"><b>{words["seat"] % {"seat": seat.seat_number}}</b> '
            f'<a class="rated-name" href="{url}{seat.player_id}/" title="{name}">{name}</a> '
            f'<i class="tier tier-{tier.lower()}">{tier_shown}</i> '
            + (f'<i class="state state-revealed">{words["paused"]}</i> ' if seat.paused else "")
            + f"{seat.played}<small>h</small> {_rounds(language, f.rounds)} "
            f"<small>{words['average']}</small> {average} "
            + (
                f'<em class="players-up">{signed(f.win_loss_cents)}</em>'
                if f.win_loss_cents > 0
                else signed(f.win_loss_cents)
            )
            + f" <small>{words['theo']}</small> {cents(f.theo_cents)}"
            + (f' <i class="alert-flag" title="{words["alert"]}">3σ</i>' if f.alert else "")
            + "</span>"
        )
    hold = line.hold
    if hold is not None and hold.z is not None:  # a window with no variance is not on the line (pit.selectors)
        text = _hold_said(language, hold.rounds) % {
            "rounds": hold.rounds,
            "hold": _percent(hold.hold_percent),
            "expected": _percent(hold.expected_percent),
        }
        text += f" · z {'+' if hold.z > 0 else ''}{floatformat(hold.z, 2)}"
        alert = " drift-alert" if hold.alert else ""
        parts.append(f'<span class="hold-drift{alert}">{text}</span>')
    parts.append("</div></td></tr>")
    return mark_safe("\n".join(parts))  # every text from outside is escaped above
