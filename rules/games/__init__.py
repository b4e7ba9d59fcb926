"""The game engines: pure Python (and NumPy) over immutable values.

Nothing in this package imports Django, touches a database, reads settings or
the clock, or uses the global random generator; a test enforces the first.
"""
