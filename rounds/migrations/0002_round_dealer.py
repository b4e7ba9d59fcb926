"""Each round records the dealer on the box when it opened (``Round.dealer``), for the dealers' figures
(``pit.dealer_performance``). Rounds played before: their dealer is who opened them when that user holds the Dealer
role (a Dealer opens only the rounds of the table they deal); rounds a supervisor or the system opened keep none."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def dealers_from_openers(apps, schema_editor):  # type: ignore[no-untyped-def]
    Round = apps.get_model("rounds", "Round")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    dealers = User.objects.filter(groups__name="Dealer").values("pk")
    for dealer_id in (
        Round.objects.filter(dealer__isnull=True, opened_by__in=dealers)
        .values_list("opened_by_id", flat=True)
        .distinct()
        .order_by()
    ):
        Round.objects.filter(dealer__isnull=True, opened_by_id=dealer_id).update(dealer_id=dealer_id)


class Migration(migrations.Migration):
    dependencies = [
        ("rounds", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="dealer",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="dealt_rounds",
                to=settings.AUTH_USER_MODEL,
                verbose_name="dealer",
            ),
        ),
        migrations.RunPython(dealers_from_openers, migrations.RunPython.noop),
    ]
