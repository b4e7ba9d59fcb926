"""Heads-up events (GAME_RULES.md §5, "MSOP Heads Up"): the bracket drawn once the event has started (a knock-out,
or groups then the knock-out of their winners), matches played on the dealer's tablet with blinds rising by their own
hands, a wrong winner undone; the bracket's page and API."""
