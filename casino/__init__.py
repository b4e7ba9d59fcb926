"""The ground every app stands on: the floor (pits, gaming days, shifts), staff roles, the audit log,
application errors and money formatting. It imports no other app of the project."""
