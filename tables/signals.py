"""Signals of the tables app: announcements to the apps above, which the tables neither need nor wait for.

Each names its receivers; a receiver does transactional work only and returns nothing the sender reads.
"""

from __future__ import annotations

from django.dispatch import Signal

# Sent inside the count that makes a table's drop box final, with ``table`` and ``shift``: the pit builds the shift's
# Master Game Report once every box it waits for is final (``pit.apps``); a receiver does transactional work only.
drop_box_final = Signal()

# Sent under the table's lock as it closes (``tables.services.table_close``), with ``table``: a receiver refuses the
# close by raising ``WrongState`` (players: a rated player still seated there, ``players.rating``).
table_closing = Signal()

# Sent inside a buy-in's transaction (``tables.drop.buy_in_record``, and ``buy_in_void`` with the correcting row of
# the opposite amount), with ``buy_in``: a rating session seated there counts it (``players.rating``).
buy_in_recorded = Signal()
