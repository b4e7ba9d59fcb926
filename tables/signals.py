"""Signals of the tables app: announcements to the apps above, which the tables neither need nor wait for.

* ``drop_box_final``, sent inside the count that makes a table's drop box final, with ``table`` and ``shift``. Its
  receiver: the pit builds the shift's reports once every box it waits for is final
  (``pit.signals.master_game_enqueue``, connected by ``pit.apps``).
* ``buy_in_recorded``, sent inside a buy-in's transaction (``tables.drop.buy_in_record``, and ``buy_in_void`` with
  the correcting row of the opposite amount), with ``buy_in``. Its receiver: a rating session seated there counts
  it (``players.rating.buy_in_rate``, connected by ``players.apps``).

A receiver does transactional work only and returns nothing the sender reads.
"""

from __future__ import annotations

from django.dispatch import Signal

drop_box_final = Signal()
buy_in_recorded = Signal()
