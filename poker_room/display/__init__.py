"""The room display: the full-screen page a TV shows in the card room and the JSON it polls, the staff's copy of it,
how a display learns that its tournament changed (``live``: the tournament's version) and what it shows of a heads-up
or an Open-Face points event in place of the clock (``lines``)."""
