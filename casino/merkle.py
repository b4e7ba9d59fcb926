"""The audit log's Merkle tree (RFC 9162, section 2.1): its root, inclusion and consistency proofs, and a checker.

This module needs only the Python standard library, so an auditor can take it away and check a proof without
Tableside: ``python casino/merkle.py PROOF.json [--key KEY_ID:SECRET]`` verifies an inclusion or a consistency proof
written by ``manage.py audit_proof`` and, given the audit key, the checkpoint (signed tree head) it refers to.

A leaf's data is ``SHA-256("tableside-audit-leaf|" + number + "|" + the event's stored hash)`` (``leaf_of``): the
event's number and hash bound together. Leaf hash ``SHA-256(0x00 || data)``, node hash
``SHA-256(0x01 || left || right)``, the split at the largest power of two below the size: the same tree a
certificate-transparency log builds, so any RFC 9162 implementation can cross-check it.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_of(seq: int, event_hash: str) -> bytes:
    """The leaf data of audit event number ``seq`` whose stored hash is ``event_hash`` (hex)."""
    return hashlib.sha256(f"tableside-audit-leaf|{seq}|{event_hash}".encode()).digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


class Frontier:
    """The roots of the perfect subtrees a tree of ``size`` leaves is made of, largest first (its compact range):
    enough to append leaves and give the root at any size without the leaves before."""

    def __init__(self, size: int = 0, hashes: Sequence[bytes] = ()) -> None:
        if len(hashes) != bin(size).count("1"):
            raise ValueError(f"a tree of {size} leaves is made of {bin(size).count('1')} subtrees, not {len(hashes)}")
        self.size = size
        self.hashes = list(hashes)

    def append(self, data: bytes) -> None:
        node, size = leaf_hash(data), self.size
        while size & 1:  # merge with every subtree of the same height to its left
            node = node_hash(self.hashes.pop(), node)
            size >>= 1
        self.hashes.append(node)
        self.size += 1

    def root(self) -> bytes:
        if not self.hashes:
            return EMPTY_ROOT
        node = self.hashes[-1]
        for left in reversed(self.hashes[:-1]):
            node = node_hash(left, node)
        return node

    def as_hex(self) -> list[str]:
        return [h.hex() for h in self.hashes]


def root_of(leaves: Sequence[bytes]) -> bytes:
    """The tree hash of these leaf data."""
    frontier = Frontier()
    for data in leaves:
        frontier.append(data)
    return frontier.root()


class Tree:
    """Every leaf in memory, subtree hashes remembered: proofs over a log an auditor holds."""

    def __init__(self, leaves: Sequence[bytes]) -> None:
        self.leaves = leaves
        self._memo: dict[tuple[int, int], bytes] = {}

    def hash(self, start: int, end: int) -> bytes:
        """MTH(D[start:end])."""
        n = end - start
        if n == 0:
            return EMPTY_ROOT
        if n == 1:
            return leaf_hash(self.leaves[start])
        cached = self._memo.get((start, end))
        if cached is None:
            k = _split(n)
            cached = node_hash(self.hash(start, start + k), self.hash(start + k, end))
            if n & (n - 1) == 0:  # only perfect subtrees recur across proofs
                self._memo[(start, end)] = cached
        return cached

    def inclusion(self, index: int, size: int) -> list[bytes]:
        """PATH(index, D[size]): the audit path of leaf ``index`` in the tree of the first ``size`` leaves."""
        if not 0 <= index < size <= len(self.leaves):
            raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
        path: list[bytes] = []
        start, end = 0, size
        while end - start > 1:
            k = _split(end - start)
            if index < start + k:
                path.append(self.hash(start + k, end))
                end = start + k
            else:
                path.append(self.hash(start, start + k))
                start += k
        return list(reversed(path))

    def consistency(self, first: int, second: int) -> list[bytes]:
        """PROOF(first, D[second]): that the tree of ``second`` leaves extends the tree of ``first``."""
        if not 0 < first <= second <= len(self.leaves):
            raise ValueError(f"no consistency proof from {first} to {second} leaves")
        return self._subproof(first, 0, second, True)

    def _subproof(self, m: int, start: int, end: int, whole: bool) -> list[bytes]:
        n = end - start
        if m == n:
            return [] if whole else [self.hash(start, end)]
        k = _split(n)
        if m <= k:
            return [*self._subproof(m, start, start + k, whole), self.hash(start + k, end)]
        return [*self._subproof(m - k, start + k, end, False), self.hash(start, start + k)]


def inclusion_holds(data: bytes, index: int, size: int, path: Sequence[bytes], root: bytes) -> bool:
    """RFC 9162, 2.1.3.2: does ``path`` prove leaf ``data`` at ``index`` in the tree of ``size`` with ``root``?"""
    if not 0 <= index < size:
        return False
    fn, sn, node = index, size - 1, leaf_hash(data)
    for sibling in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            node = node_hash(sibling, node)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            node = node_hash(node, sibling)
        fn >>= 1
        sn >>= 1
    return sn == 0 and hmac.compare_digest(node, root)


def consistency_holds(first: int, second: int, first_root: bytes, second_root: bytes, path: Sequence[bytes]) -> bool:
    """RFC 9162, 2.1.4.2: does ``path`` prove the tree of ``second`` leaves extends the tree of ``first``?"""
    if not 0 < first <= second:
        return False
    if first == second:
        return not path and hmac.compare_digest(first_root, second_root)
    if not path:
        return False
    nodes = [first_root, *path] if first & (first - 1) == 0 else list(path)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = nodes[0]
    for node in nodes[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(node, fr), node_hash(node, sr)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            sr = node_hash(sr, node)
        fn >>= 1
        sn >>= 1
    return sn == 0 and hmac.compare_digest(fr, first_root) and hmac.compare_digest(sr, second_root)


# --- signed tree heads ------------------------------------------------------------------------------


def tree_head_message(*, size: int, root: str, seq: int, head_hash: str, made_at: str) -> bytes:
    """What a checkpoint over the tree signs. Its own prefix: never a valid event hash or an older checkpoint."""
    return f"tableside-audit-tree-head|{size}|{root}|{seq}|{head_hash}|{made_at}".encode()


def tree_head_signature(*, key: bytes, size: int, root: str, seq: int, head_hash: str, made_at: str) -> str:
    message = tree_head_message(size=size, root=root, seq=seq, head_hash=head_hash, made_at=made_at)
    return hmac.digest(key, message, "sha256").hex()


# --- the standalone checker -------------------------------------------------------------------------


def _hexes(values: Iterable[Any]) -> list[bytes]:
    return [bytes.fromhex(str(v)) for v in values]


def _signature_problem(head: dict[str, Any], keys: dict[str, bytes], name: str) -> str:
    key = keys.get(str(head.get("key_id", "")))
    if key is None:
        return ""
    expected = tree_head_signature(
        key=key,
        size=int(head["tree_size"]),
        root=str(head["root_hash"]),
        seq=int(head["seq"]),
        head_hash=str(head["head_hash"]),
        made_at=str(head["made_at"]),
    )
    return "" if hmac.compare_digest(expected, str(head["signature"])) else f"the {name}'s signature does not match"


def proof_check(proof: dict[str, Any], keys: dict[str, bytes] | None = None) -> list[str]:
    """What is wrong with a proof written by ``manage.py audit_proof`` (an empty list: it holds)."""
    keys = keys or {}
    problems: list[str] = []
    try:
        if proof.get("kind") == "inclusion":
            head = proof["checkpoint"]
            holds = inclusion_holds(
                leaf_of(int(proof["event_seq"]), str(proof["event_hash"])),
                int(proof["leaf_index"]),
                int(head["tree_size"]),
                _hexes(proof["path"]),
                bytes.fromhex(head["root_hash"]),
            )
            if not holds:
                problems.append(
                    f"event #{proof.get('event_seq')} is not at leaf {proof['leaf_index']} of the tree of "
                    f"{head['tree_size']} leaves whose root the checkpoint signs"
                )
            problems.extend(p for p in [_signature_problem(head, keys, "checkpoint")] if p)
        elif proof.get("kind") == "consistency":
            first, second = proof["first"], proof["second"]
            holds = consistency_holds(
                int(first["tree_size"]),
                int(second["tree_size"]),
                bytes.fromhex(first["root_hash"]),
                bytes.fromhex(second["root_hash"]),
                _hexes(proof["path"]),
            )
            if not holds:
                problems.append(
                    f"the tree of {second['tree_size']} leaves does not extend the tree of {first['tree_size']}: "
                    "the log was rewritten between the two checkpoints"
                )
            for name, head in (("first checkpoint", first), ("second checkpoint", second)):
                problems.extend(p for p in [_signature_problem(head, keys, name)] if p)
        else:
            problems.append("not a proof: its kind is neither 'inclusion' nor 'consistency'")
    except (KeyError, TypeError, ValueError) as exc:
        problems.append(f"not a proof: {exc.__class__.__name__} {exc}")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check an audit log proof written by Tableside's audit_proof.")
    parser.add_argument("proof", help="the proof's JSON file")
    parser.add_argument(
        "--key",
        action="append",
        default=[],
        metavar="KEY_ID:SECRET",
        help="an audit key as TABLESIDE_AUDIT_KEYS writes it (KEY_ID=SECRET is read too), to check the signatures",
    )
    args = parser.parse_args(argv)
    keys = {}
    for given in args.key:
        # A key id is letters and digits: the first other character separates it from the secret.
        cut = next((n for n, char in enumerate(given) if not char.isalnum()), len(given))
        keys[given[:cut]] = given[cut + 1 :].encode("utf-8")
    try:
        with open(args.proof, encoding="utf-8") as handle:
            proof = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"cannot read {args.proof}: {exc}", file=sys.stderr)
        return 2
    problems = proof_check(proof if isinstance(proof, dict) else {}, keys)
    for problem in problems:
        print(f"FAILS: {problem}")
    if not problems:
        signed = "and its signature" if keys else "(signature not checked: no key given)"
        print(f"HOLDS: the {proof['kind']} proof {signed}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
