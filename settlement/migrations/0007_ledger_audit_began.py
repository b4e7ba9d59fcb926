"""Money movements are audited from here on: on a floor that already has postings or wagers, the
chain records, once, the last of each written before, so that ``verify_ledger`` knows which rows may lack an
audit event (``settlement.ledger.ledger_audit_began``) and no row written later can pass for one of them."""

from django.db import migrations
from django.db.models import Max
from django.utils import timezone


def record(apps, schema_editor):  # type: ignore[no-untyped-def]
    from casino.audit import current_key_id, event_hash
    from casino.models import GENESIS_HASH

    Posting = apps.get_model("settlement", "Posting")
    Wager = apps.get_model("settlement", "Wager")
    AuditEvent = apps.get_model("casino", "AuditEvent")
    postings = Posting.objects.aggregate(last=Max("id"))["last"] or 0
    wagers = Wager.objects.aggregate(last=Max("id"))["last"] or 0
    if not postings and not wagers:
        return
    head = AuditEvent.objects.order_by("-seq").first()
    # Run before the log became a tree (casino 0010), the event is the chain's next link; run after, a leaf.
    chained = head is None or bool(head.prev_hash)
    if not chained:
        from casino.rows import audit_event_next_number

    event = AuditEvent(
        seq=(head.seq + 1 if head else 1) if chained else audit_event_next_number(),
        occurred_at=timezone.now(),
        actor=None,
        actor_name="system",
        event_type="ledger.audit_began",
        subject_type="settlement.ledger",
        subject_id="0",
        before=None,
        after={"postings_before": postings, "wagers_before": wagers},
        reason="Money movements are audited from here on.",
        prev_hash=(head.hash if head else GENESIS_HASH) if chained else "",
        key_id=current_key_id(),
    )
    event.hash = event_hash(prev_hash=event.prev_hash, event=event)
    event.save(force_insert=True)


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0003_audit_keys_checkpoints_triggers"),
        ("settlement", "0006_append_only_triggers"),
    ]

    operations = [migrations.RunPython(record, migrations.RunPython.noop)]
