"""``manage.py verify_ratings``: every rating session's kept figures are the sums of its rows, every row is what its
settlement says, every settled round has its hold row (``players.verify``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from players.verify import ratings_verify


class Command(BaseCommand):
    help = (
        "Verify the ratings: each session's figures equal the sums of its rated rounds and buy-ins, each rated round "
        "and hold row is what its settlement says."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        problems = ratings_verify()
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} problem(s) in the ratings.")
        self.stdout.write("The ratings verify: every kept figure is the sum of its rows.")
