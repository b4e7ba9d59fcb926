"""Every kind of event the audit trail records: one enumeration, asked by every writer (STYLE.md 14).

The values are what ``AuditEvent.event_type`` stores (and the chain hashes), so a value is never
renamed: a new kind of event is a new member. ``casino.audit.audit_event_record`` refuses a type
that is not listed here.
"""

from __future__ import annotations

from enum import StrEnum


class AuditEventType(StrEnum):
    # The floor
    PIT_CREATED = "pit.created"
    GAMING_DAY_OPENED = "gaming_day.opened"
    GAMING_DAY_CLOSED = "gaming_day.closed"
    SHIFT_OPENED = "shift.opened"
    SHIFT_CLOSED = "shift.closed"
    SHIFT_REPORT_BUILT = "shift_report.built"
    # Rule sets
    RULE_SET_CREATED = "rule_set.created"
    RULE_SET_UPDATED = "rule_set.updated"
    # The game-math lab: a simulation or exact enumeration of a rule set, started, finished or failed
    LAB_RUN_STARTED = "lab_run.started"
    LAB_RUN_FINISHED = "lab_run.finished"
    LAB_RUN_FAILED = "lab_run.failed"
    # Tables
    TABLE_CREATED = "table.created"
    TABLE_OPENED = "table.open"
    TABLE_CLOSED = "table.closed"
    TABLE_DEALER_ASSIGNED = "table.dealer_assigned"
    TABLE_RULE_SET_ASSIGNED = "table.rule_set_assigned"
    TABLE_BIG_WIN_SET = "table.big_win_set"
    TABLE_LIMITS_SET = "table.limits_set"
    # Dealer rotation: a dealer clocked in and out, a string of tables made and started (its dealers chosen from who is
    # clocked in), a push asked (waiting for the round in play) and made (the table's dealer changed)
    DEALER_CLOCKED_IN = "dealer.clocked_in"
    DEALER_CLOCKED_OUT = "dealer.clocked_out"
    DEALER_STRING_CREATED = "dealer_string.created"
    DEALER_STRING_STARTED = "dealer_string.started"
    DEALER_PUSH_ASKED = "dealer_push.asked"
    DEALER_PUSH_DONE = "dealer_push.done"
    # The table's chip tray: a count (opener or closer) and its confirmation by a second person
    TRAY_COUNTED = "tray.counted"
    TRAY_COUNT_CONFIRMED = "tray.count_confirmed"
    # Fills and credits: a slip asked for, issued by the cage, signed at the table, voided
    SLIP_REQUESTED = "slip.requested"
    SLIP_ISSUED = "slip.issued"
    SLIP_SIGNED = "slip.signed"
    SLIP_VOIDED = "slip.voided"
    # A buy-in at a seat (cash or a marker into the drop box), and a count of a drop box
    BUY_IN_RECORDED = "buy_in.recorded"
    BUY_IN_VOIDED = "buy_in.voided"
    DROP_COUNTED = "drop.counted"
    # Players and rated play: recorded by id and tier, never by name (a player may be anonymised)
    PLAYER_CREATED = "player.created"
    PLAYER_ANONYMISED = "player.anonymised"
    RATING_STARTED = "rating.started"
    RATING_PAUSED = "rating.paused"
    RATING_RESUMED = "rating.resumed"
    RATING_MOVED = "rating.moved"
    RATING_ENDED = "rating.ended"
    # Credit at the table: a player's credit line set or its change asked for, approved or refused; a marker asked
    # for at a seat, issued (approved: numbered, chips out of the tray), counted in its drop box, redeemed at the
    # cage, its cheque returned, voided
    CREDIT_LINE_SET = "credit_line.set"
    CREDIT_CHANGE_ASKED = "credit_line.change_asked"
    CREDIT_CHANGE_DECIDED = "credit_line.change_decided"
    MARKER_REQUESTED = "marker.requested"
    MARKER_ISSUED = "marker.issued"
    MARKER_COUNTED = "marker.counted"
    MARKER_REDEEMED = "marker.redeemed"
    MARKER_CHEQUE_RETURNED = "marker.cheque_returned"
    MARKER_VOIDED = "marker.voided"
    # The poker room: a tournament set up and changed (its settings, structure, payout table, tables), its
    # clock (every start, pause, resume, skip, change of time, hand counted), seats drawn and moved, and its money
    # (a payment, a player out with their prize and bounty, a bust undone, the prize pool made final)
    TOURNAMENT_CREATED = "tournament.created"
    TOURNAMENT_UPDATED = "tournament.updated"
    TOURNAMENT_STARTED = "tournament.started"
    TOURNAMENT_FINISHED = "tournament.finished"
    TOURNAMENT_CLOCK = "tournament.clock"
    TOURNAMENT_SEATS = "tournament.seats"
    TOURNAMENT_PURCHASE = "tournament.purchase"
    TOURNAMENT_ELIMINATION = "tournament.elimination"
    TOURNAMENT_ELIMINATION_UNDONE = "tournament.elimination_undone"
    TOURNAMENT_POOL_LOCKED = "tournament.pool_locked"
    # a deal at the final table; heads-up brackets (a stage drawn, a match decided or undone, its hands
    # counted); Open-Face points hands (scored, voided) and rounds (tables redrawn); leagues and the Master Class
    TOURNAMENT_DEAL = "tournament.deal"
    TOURNAMENT_BRACKET = "tournament.bracket"
    TOURNAMENT_MATCH = "tournament.match"
    TOURNAMENT_MATCH_UNDONE = "tournament.match_undone"
    TOURNAMENT_MATCH_HAND = "tournament.match_hand"
    TOURNAMENT_OFC_HAND = "tournament.ofc_hand"
    TOURNAMENT_OFC_HAND_VOIDED = "tournament.ofc_hand_voided"
    TOURNAMENT_OFC_ROUND = "tournament.ofc_round"
    LEAGUE_CREATED = "league.created"
    LEAGUE_UPDATED = "league.updated"
    LEAGUE_EVENT_ADDED = "league.event_added"
    LEAGUE_EVENT_REMOVED = "league.event_removed"
    LEAGUE_MASTER_CLASS = "league.master_class"
    # The card room's cash games: a list opened or closed, a table added or taken off, a name put down, called,
    # seated, moved from a must-move table, gone (no-show, left, taken off the list)
    CASH_GAME_OPENED = "cash_game.opened"
    CASH_GAME_CLOSED = "cash_game.closed"
    CASH_TABLE_ADDED = "cash_game.table_added"
    CASH_TABLE_REMOVED = "cash_game.table_removed"
    WAITLIST_PUT_DOWN = "waitlist.put_down"
    WAITLIST_CALLED = "waitlist.called"
    WAITLIST_SEATED = "waitlist.seated"
    WAITLIST_MOVED = "waitlist.moved"
    WAITLIST_NO_SHOW = "waitlist.no_show"
    WAITLIST_LEFT = "waitlist.left"
    WAITLIST_REMOVED = "waitlist.removed"
    # A round's moves (one per state it reaches), and its changes that are not moves
    ROUND_OPENED = "round.opened"
    ROUND_BETTING_CLOSED = "round.betting_closed"
    ROUND_DEALT = "round.dealt"
    ROUND_REVEALED = "round.revealed"
    ROUND_SETTLED = "round.settled"
    ROUND_VOIDED = "round.voided"
    ROUND_HANDS_REPLACED = "round.hands_replaced"
    ROUND_PLACED = "round.placed"
    ROUND_SWAPPED = "round.swapped"  # Chinese Poker: a seat's swap with the undealt cards, before the hands
    ROUND_CORRECTED = "round.corrected"
    # Money: a wager taken (the settlement, the void and the correction are the round's events above and
    # below); each money event names the postings it wrote and their lines (``ledger.services.posting_record``)
    WAGER_PLACED = "wager.placed"
    # The house's wager against a player bank in Pai Gow Poker, taken as the round opens
    HOUSE_WAGER_PLACED = "house_wager.placed"
    # Written once, by the migration that began auditing money on a floor that already had postings: the last
    # posting and wager ids written before (``settlement.verify.ledger_audit_began``)
    LEDGER_AUDIT_BEGAN = "ledger.audit_began"
    # Settlements
    SETTLEMENT_CORRECTED = "settlement.corrected"
    # Requests for a void or a correction, decided from the pit
    ADJUSTMENT_VOID_REQUESTED = "adjustment.void_requested"
    ADJUSTMENT_VOID_APPROVED = "adjustment.void_approved"
    ADJUSTMENT_VOID_REJECTED = "adjustment.void_rejected"
    ADJUSTMENT_CORRECTION_REQUESTED = "adjustment.correction_requested"
    ADJUSTMENT_CORRECTION_APPROVED = "adjustment.correction_approved"
    ADJUSTMENT_CORRECTION_REJECTED = "adjustment.correction_rejected"
