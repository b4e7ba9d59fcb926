"""The archive of a closed gaming day: every record of the day as CSV and JSON, its reports, its audit events with the
signed heads and Merkle leaves that cover them, a signed manifest, and the standard-library script that verifies it
all without Tableside (docs/archive.md).

``records``: which rows of which tables the day holds, and their columns as the schema describes them;
``audit_slice``: the day's audit events and the leaves, hashes and signed head that prove them in the log's tree;
``bundle``: writing, verifying and putting in place the archive's directory (``manage.py archive_gaming_day``);
``verify_archive``: the verifier copied into every archive, whose functions also define how the archive's values,
manifest and tree proofs are written.
"""
