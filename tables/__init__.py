"""Tables, seats, rounds, banker rotation, dice and deal order, the dealer tablet."""
