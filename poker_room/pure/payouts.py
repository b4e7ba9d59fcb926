"""Payouts: the prize pool, the payout table by field size, prizes by place, and the tournament's revenue.

GAME_RULES.md §5 "Payouts": payouts by field size from a table the house sets (1–10 players 50/30/20; 11–20
50/25/15/10; 21–30 40/25/20/10/5), rounded to a unit, the remainder to first place; a guarantee's shortfall (the
overlay) is paid by the house; revenue (New York, 9 NYCRR 5315.1(f)) is the entry fees above the prizes paid, and
a tournament never books a loss as revenue.

A payout table is a tuple of ``PayoutBand``: each band covers a range of field sizes and gives each paid place
its share in basis points (10000 = 100 %). Money is integer cents throughout.

>>> prizes(pool_cents=100_000, entries=10, bands=HOUSE_PAYOUTS)
(50000, 30000, 20000)
>>> prizes(pool_cents=100_050, entries=10, bands=HOUSE_PAYOUTS)  # 300.15 and 200.10 round down; first gets the rest
(50050, 30000, 20000)
>>> prize_pool(collected_cents=80_000, guarantee_cents=100_000)
(100000, 20000)
>>> revenue(fees_cents=15_000, overlay_cents=20_000)
(0, 5000)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

_BP = 10_000


class PayoutError(ValueError):
    """A payout table or a payout request the tournament director must correct."""


@dataclass(frozen=True)
class PayoutBand:
    """The shares paid to a field of ``min_players``..``max_players`` entries (``None``: and any more)."""

    min_players: int
    max_players: int | None
    shares_bp: tuple[int, ...]

    @property
    def places(self) -> int:
        return len(self.shares_bp)

    @property
    def label(self) -> str:
        """The band as the director names it: "11–20 players", "201 or more players", "1 player"."""
        if self.max_players is None:
            return f"{self.min_players} or more players"
        if self.max_players == self.min_players:
            return f"{self.min_players} player" + ("" if self.min_players == 1 else "s")
        return f"{self.min_players}–{self.max_players} players"

    def covers(self, entries: int) -> bool:
        return self.min_players <= entries and (self.max_players is None or entries <= self.max_players)


# The house default (GAME_RULES §5 up to 30 players; beyond, about 10–15 % of the field paid, the top-heavy shape
# rooms use: the first three places about half the pool, then flat groups of three or nine places).
HOUSE_PAYOUTS: tuple[PayoutBand, ...] = (
    PayoutBand(1, 10, (5000, 3000, 2000)),
    PayoutBand(11, 20, (5000, 2500, 1500, 1000)),
    PayoutBand(21, 30, (4000, 2500, 2000, 1000, 500)),
    PayoutBand(31, 50, (3600, 2300, 1600, 1100, 800, 600)),
    PayoutBand(51, 100, (3000, 2000, 1300, 950, 750, 600, 500, 350, 300, 250)),
    PayoutBand(101, 200, (2600, 1700, 1200, 900, 700, 560, 450, 360, 300, *(150,) * 3, *(140,) * 3, *(120,) * 3)),
    PayoutBand(201, None, (2400, 1550, 1100, 820, 650, 520, 420, 350, 300, *(120,) * 9, *(90,) * 9)),
)


def _percent(bp: int) -> str:
    return f"{bp // 100}.{bp % 100:02d} %" if bp >= 0 else f"-{_percent(-bp)}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def bands_check(bands: Sequence[PayoutBand]) -> None:
    """Refuse a payout table the director must fix, in the director's words.

    The bands are listed from the smallest field up, start at 1 player and follow each other without a gap or an
    overlap; only the last may be open-ended. In each band the shares are positive whole basis points, never
    rising down the places, adding up to exactly 100 %. A band may pay more places than its smallest field has
    players (1–10 paying three: a field of two pays two, ``prizes``), but not more than its largest field.
    """
    if not bands:
        raise PayoutError("The payout table has no bands.")
    open_ended = [band for band in bands if band.max_players is None]
    if len(open_ended) > 1:
        raise PayoutError(
            "Only one band can be open-ended: " + " and ".join(band.label for band in open_ended) + " both are."
        )
    if open_ended and bands[-1].max_players is not None:
        raise PayoutError(f"Only the last band can be open-ended, not the one for {open_ended[0].label}.")
    for band in bands:
        _band_check(band)
    if bands[0].min_players != 1:
        raise PayoutError(f"The payout table starts at {bands[0].min_players} players, not at 1.")
    for before, after in zip(bands, bands[1:], strict=False):
        assert before.max_players is not None  # only the last band is open-ended
        if after.min_players <= before.max_players:
            raise PayoutError(f"The payouts for {before.label} and for {after.label} overlap.")
        if after.min_players > before.max_players + 1:
            missing = PayoutBand(before.max_players + 1, after.min_players - 1, ())
            raise PayoutError(f"The payout table has a gap: nothing pays {missing.label}.")


def _band_check(band: PayoutBand) -> None:
    if not _is_int(band.min_players) or band.min_players < 1:
        raise PayoutError(f"A band starts at 1 player or more, not at {band.min_players!r}.")
    if band.max_players is not None and (not _is_int(band.max_players) or band.max_players < band.min_players):
        raise PayoutError(f"A band starting at {band.min_players} players cannot end at {band.max_players!r}.")
    if not band.shares_bp:
        raise PayoutError(f"The payouts for {band.label} pay no place.")
    for place, share in enumerate(band.shares_bp, start=1):
        if not _is_int(share):
            raise PayoutError(f"Place {place} of the payouts for {band.label} is not a whole number of basis points.")
        if share <= 0:
            raise PayoutError(
                f"Place {place} of the payouts for {band.label} gets {_percent(share)}: every paid place gets a share."
            )
    for place, (higher, lower) in enumerate(zip(band.shares_bp, band.shares_bp[1:], strict=False), start=1):
        if lower > higher:
            raise PayoutError(
                f"The payouts for {band.label} rise from place {place} ({_percent(higher)}) to place {place + 1} "
                f"({_percent(lower)}): a lower place never pays more."
            )
    total = sum(band.shares_bp)
    if total != _BP:
        raise PayoutError(f"The payouts for {band.label} add up to {_percent(total)}, not 100 %.")
    if band.max_players is not None and band.places > band.max_players:
        raise PayoutError(
            f"The payouts for {band.label} pay {band.places} places, more than the {band.max_players} players "
            "such a field can have."
        )


class BandJson(TypedDict):
    min_players: int
    max_players: int | None
    shares_bp: list[int]


def bands_as_json(bands: Sequence[PayoutBand]) -> list[BandJson]:
    """The payout table as JSON-safe data (shares in basis points), as ``bands_from_json`` reads it back."""
    return [
        {"min_players": band.min_players, "max_players": band.max_players, "shares_bp": list(band.shares_bp)}
        for band in bands
    ]


def bands_from_json(data: object) -> tuple[PayoutBand, ...]:
    """A checked payout table from JSON data: a list of ``{"min_players", "max_players", "shares_bp"}``.

    Anything malformed is refused with a ``PayoutError`` naming the band (never a ``KeyError``/``TypeError``).
    """
    if not isinstance(data, list):
        raise PayoutError("The payout table is a list of bands.")
    bands = []
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            raise PayoutError(f"Band {number} of the payout table is not a band.")
        missing = [key for key in ("min_players", "max_players", "shares_bp") if key not in item]
        if missing:
            raise PayoutError(f"Band {number} of the payout table lacks {', '.join(missing)}.")
        extra = sorted(str(key) for key in item if key not in ("min_players", "max_players", "shares_bp"))
        if extra:
            raise PayoutError(f"Band {number} of the payout table has unknown fields: {', '.join(extra)}.")
        low, high, shares = item["min_players"], item["max_players"], item["shares_bp"]
        if not _is_int(low) or (high is not None and not _is_int(high)):
            raise PayoutError(f"Band {number} of the payout table needs whole numbers of players.")
        if not isinstance(shares, list) or not all(_is_int(share) for share in shares):
            raise PayoutError(f"Band {number} of the payout table needs its shares as whole basis points.")
        bands.append(PayoutBand(low, high, tuple(shares)))
    result = tuple(bands)
    bands_check(result)
    return result


def band_for(bands: Sequence[PayoutBand], entries: int) -> PayoutBand:
    """The band that pays a field of ``entries``."""
    for band in bands:
        if band.covers(entries):
            return band
    raise PayoutError(f"The payout table has no band for {entries} players.")


def prize_pool(*, collected_cents: int, guarantee_cents: int) -> tuple[int, int]:
    """The prize pool and the overlay: the house pays the guarantee's shortfall (GAME_RULES §5), never less than 0.

    >>> prize_pool(collected_cents=120_000, guarantee_cents=100_000)
    (120000, 0)
    """
    for name, value in (("collected", collected_cents), ("guarantee", guarantee_cents)):
        if not _is_int(value) or value < 0:
            raise PayoutError(f"The {name} amount is a whole number of cents, 0 or more, not {value!r}.")
    overlay = max(0, guarantee_cents - collected_cents)
    return collected_cents + overlay, overlay


def prizes(
    *,
    pool_cents: int,
    entries: int,
    bands: Sequence[PayoutBand],
    unit_cents: int = 100,
    min_cash_cents: int = 0,
) -> tuple[int, ...]:
    """The prize of each paid place (first place first) for a field of ``entries`` sharing ``pool_cents``.

    ``entries`` counts every buy-in (a re-entry is an entry). The band covering the field gives the shares:

    * **A field smaller than the places** pays as many places as there are players; the shares of the places
      nobody can reach go to first place.
    * **Rounding** (GAME_RULES §5): every place but first is rounded down to ``unit_cents``; first place gets the
      rest, so the prizes add up to the pool exactly, and first never gets less than second.
    * **Minimum cash**: no paid place gets less than ``min_cash_cents``, nor nothing at all. While the last paid
      place would, it is not paid, and its share is spread over the places left in proportion to their shares
      (pro rata: each place's prize is the pool times its share over the shares still paid). First place always
      gets the pool if it is the only place left.

    Prizes never rise down the places.

    >>> prizes(pool_cents=50_000, entries=2, bands=HOUSE_PAYOUTS)  # two places: third place's 20 % goes to first
    (35000, 15000)
    >>> prizes(pool_cents=100_000, entries=15, bands=HOUSE_PAYOUTS, min_cash_cents=12_000)  # fourth's 10 % spread
    (55700, 27700, 16600)
    """
    if not _is_int(pool_cents) or pool_cents < 0:
        raise PayoutError(f"The prize pool is a whole number of cents, 0 or more, not {pool_cents!r}.")
    if not _is_int(entries) or entries < 1:
        raise PayoutError("A tournament with no entries pays no prizes.")
    if not _is_int(unit_cents) or unit_cents < 1:
        raise PayoutError(f"Prizes are rounded to a unit of 1 cent or more, not {unit_cents!r}.")
    if not _is_int(min_cash_cents) or min_cash_cents < 0:
        raise PayoutError(f"The minimum cash is a whole number of cents, 0 or more, not {min_cash_cents!r}.")
    bands_check(bands)
    band = band_for(bands, entries)
    paid = min(band.places, entries)
    shares = list(band.shares_bp[:paid])
    shares[0] += sum(band.shares_bp[paid:])
    floor = max(min_cash_cents, 1)
    while True:
        amounts = _rounded(pool_cents, shares, unit_cents)
        if len(amounts) == 1 or amounts[-1] >= floor:
            return amounts
        shares.pop()


def _rounded(pool_cents: int, shares: list[int], unit_cents: int) -> tuple[int, ...]:
    total = sum(shares)
    rest = [pool_cents * share // (total * unit_cents) * unit_cents for share in shares[1:]]
    return (pool_cents - sum(rest), *rest)


def revenue(*, fees_cents: int, overlay_cents: int) -> tuple[int, int]:
    """The tournament's revenue and the house's cost: (fees above the overlay, overlay above the fees).

    New York's rule (9 NYCRR 5315.1(f), GAME_RULES §5): tournament revenue is the entry fees above the prizes
    paid. What the entrants paid into the prize pool goes back to them as prizes; when a guarantee's overlay
    tops the pool up, the overlay first uses up the fees, and what is left of it is a cost of the house, never
    negative revenue.

    >>> revenue(fees_cents=20_000, overlay_cents=0)
    (20000, 0)
    >>> revenue(fees_cents=20_000, overlay_cents=5_000)
    (15000, 0)
    """
    for name, value in (("fees", fees_cents), ("overlay", overlay_cents)):
        if not _is_int(value) or value < 0:
            raise PayoutError(f"The {name} amount is a whole number of cents, 0 or more, not {value!r}.")
    return max(0, fees_cents - overlay_cents), max(0, overlay_cents - fees_cents)
