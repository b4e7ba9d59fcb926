"""The floor: pits, gaming days, shifts, and the hash-chained audit log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.append_only import AppendOnlyModel, append_only_triggers, guarded_triggers
from casino.records import audited

GENESIS_HASH = "0" * 64


class Pit(models.Model):
    """A group of tables watched by one pit boss."""

    name = models.CharField(_("name"), max_length=80, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("pit")
        verbose_name_plural = _("pits")

    def __str__(self) -> str:
        return self.name


@audited()
class GamingDay(models.Model):
    """A casino's accounting day (it usually starts in the morning, not at midnight)."""

    business_date = models.DateField(_("business date"), unique=True)
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("opened by")
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("closed by"),
    )

    class Meta:
        ordering = ["-business_date"]
        verbose_name = _("gaming day")
        verbose_name_plural = _("gaming days")

    def __str__(self) -> str:
        return f"Gaming day {self.business_date.isoformat()}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


@audited()
class Shift(models.Model):
    """A floor-wide shift inside a gaming day (day, swing, graveyard...)."""

    gaming_day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="shifts")
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=40)
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("opened by")
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("closed by"),
    )

    class Meta:
        ordering = ["-opened_at"]
        verbose_name = _("shift")
        verbose_name_plural = _("shifts")
        constraints = [
            models.UniqueConstraint(fields=["gaming_day", "number"], name="shift_number_unique_in_day"),
            models.UniqueConstraint(
                fields=["gaming_day"],
                condition=models.Q(closed_at__isnull=True),
                name="one_open_shift_per_gaming_day",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} shift, {self.gaming_day.business_date.isoformat()}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class AuditEvent(AppendOnlyModel):
    """One state change: who, what, when, before, after, why.

    ``hash`` is HMAC-SHA256, under the key ``key_id`` names (kept outside the database,
    ``TABLESIDE_AUDIT_KEYS``), over the event's canonical JSON (see ``casino.audit``): only the key's holder can
    compute it, so an edited row no longer matches it. ``seq`` is the event's number, drawn without a lock (numbers
    a rolled-back write drew are never used). The sequencer then appends every event to the log's Merkle tree
    (``AuditLeaf``) and signs the tree's head (``AuditCheckpoint``), which is kept outside the database too: an
    event removed, inserted or reordered after that no longer gives the signed root. Events written before the
    tree (``prev_hash`` set) form a hash chain, each over the previous event's hash, and are its first leaves;
    events written before the chain was keyed have ``key_id`` "" and a plain SHA-256.
    """

    seq = models.PositiveBigIntegerField(_("sequence"), unique=True)
    occurred_at = models.DateTimeField(_("occurred at (UTC)"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_events",
        verbose_name=_("actor"),
    )
    actor_name = models.CharField(_("actor name"), max_length=150)
    event_type = models.CharField(_("event type"), max_length=64, db_index=True)
    subject_type = models.CharField(_("subject type"), max_length=64)
    subject_id = models.CharField(_("subject id"), max_length=64)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    # The audited records the change wrote ("poker_room.deal:3": its snapshot) or removed (None): casino.records.
    rows = models.JSONField(_("records written"), null=True, blank=True)
    # Set on the events of the chain the log began as; "" on every event since (a leaf of the tree only).
    prev_hash = models.CharField(_("previous hash"), max_length=64, blank=True)
    hash = models.CharField(_("hash"), max_length=64, unique=True)
    key_id = models.CharField(_("key"), max_length=16, blank=True, default="")

    class Meta:
        ordering = ["seq"]
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        indexes = [models.Index(fields=["subject_type", "subject_id"], name="audit_subject_idx")]
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"#{self.seq} {self.event_type} {self.subject_type}:{self.subject_id}"


class AuditLeaf(AppendOnlyModel):
    """One event's place in the audit log's Merkle tree (RFC 9162; ``casino.merkle``): the leaf at ``position``
    holds the event numbered ``event_seq``, whose hash was ``event_hash``. Written by the sequencer only
    (``casino.audit.audit_checkpoint_make``), never by a writer: writers never wait for one another."""

    position = models.PositiveBigIntegerField(_("position"), unique=True)
    event_seq = models.PositiveBigIntegerField(_("event"), unique=True)
    event_hash = models.CharField(_("event hash"), max_length=64)

    class Meta:
        ordering = ["position"]
        verbose_name = _("audit log leaf")
        verbose_name_plural = _("audit log leaves")
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"leaf {self.position}: event #{self.event_seq}"


class AuditCheckpoint(AppendOnlyModel):
    """The audit log's head at one moment, signed: its Merkle tree of ``tree_size`` leaves had the root
    ``root_hash``, and its last event ``seq`` the hash ``head_hash``.

    Made by the sequencer within seconds of an event (and at every shift close, and by ``manage.py
    audit_checkpoint``), kept in the database, appended to the checkpoint file and any other witness the settings
    name, and printed in the shift's reports, which leave the building: a log rewritten or cut short after it no
    longer gives the same root, and ``verify_audit`` says so. ``signature`` is HMAC-SHA256 under the key ``key_id``
    names. A checkpoint made before the tree (``tree_size`` 0) signs the chain's head only. ``frontier`` holds the
    tree's compact range at that size, so the next one is computed without reading the leaves before.
    """

    seq = models.PositiveBigIntegerField(_("event"))
    head_hash = models.CharField(_("head hash"), max_length=64)
    tree_size = models.PositiveBigIntegerField(_("leaves"), default=0)
    root_hash = models.CharField(_("root hash"), max_length=64, blank=True, default="")
    frontier = models.JSONField(_("frontier"), null=True, blank=True)
    made_at = models.DateTimeField(_("made at (UTC)"))
    key_id = models.CharField(_("key"), max_length=16)
    signature = models.CharField(_("signature"), max_length=64)
    shift = models.ForeignKey(
        Shift, on_delete=models.PROTECT, null=True, blank=True, related_name="checkpoints", verbose_name=_("shift")
    )
    reason = models.CharField(_("reason"), max_length=80)

    class Meta:
        ordering = ["seq", "pk"]
        verbose_name = _("audit checkpoint")
        verbose_name_plural = _("audit checkpoints")
        triggers = append_only_triggers()

    def __str__(self) -> str:
        return f"checkpoint at #{self.seq} ({self.reason})"


class TaskOutbox(models.Model):
    """A Celery task asked for, kept until the broker has it (``casino.outbox``): the transactional outbox.

    Written in the transaction of the change that asks for the task, so the task is asked for exactly when the
    change commits; published once it has, and marked ``sent_at``. A broker that refuses or does not answer leaves
    the row unsent, with ``attempts`` and ``last_error``, and ``outbox_flush`` (Celery beat every minute, or
    ``manage.py outbox_flush``) publishes it later. What was asked for never changes and no row is deleted
    (``guarded_triggers``; the application's role may UPDATE the sending columns only, ``casino.db_role``).
    """

    task_name = models.CharField(_("task"), max_length=200)
    args = models.JSONField(_("arguments"), default=list)
    created_at = models.DateTimeField(_("asked for at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("queued task")
        verbose_name_plural = _("queued tasks")
        indexes = [
            models.Index(fields=["created_at"], condition=models.Q(sent_at__isnull=True), name="task_outbox_unsent")
        ]
        triggers = guarded_triggers("casino_taskoutbox", frozen=("task_name", "args", "created_at"))

    def __str__(self) -> str:
        return f"{self.task_name}{tuple(self.args)!r} ({'sent' if self.sent_at else 'waiting'})"


class IdempotencyKey(models.Model):
    """A write under /api/ sent with an ``Idempotency-Key`` header (``casino.idempotency``): the first request with
    the key runs, and its answer is kept so that the same request sent again (a lost answer, a retry) gets that answer
    replayed, never a second record. One row per user and key; kept at least ``KEPT_HOURS`` (24) after it was made.

    ``fingerprint`` is the request's method, path and body hashed: the same key sent with another request is refused.
    A row ``running`` is a request still being answered (or one whose process died: taken over after a minute).
    Only a successful answer (2xx) is kept: a refused or failed request wrote nothing, and may be sent again.
    """

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        DONE = "done", _("done")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(_("key"), max_length=255)
    fingerprint = models.CharField(_("request fingerprint"), max_length=64)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.RUNNING)
    response_status = models.PositiveSmallIntegerField(_("answer's status"), null=True, blank=True)
    response_type = models.CharField(_("answer's content type"), max_length=100, blank=True)
    response_body = models.BinaryField(_("answer's body"), blank=True, default=b"")
    created_at = models.DateTimeField(_("made at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user")]

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"
