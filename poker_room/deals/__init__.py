"""Deals at the final table: the players still in agree how the money left is shared (ICM, a chip chop or agreed
amounts), and each is paid their share when placed; the deal's page, its panel on the console and its API."""
