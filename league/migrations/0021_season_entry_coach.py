from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def coach_of_each_entry(apps, schema_editor):
    """Until now the team's coach stood for every season it played: each entry gets the team's coach, the
    best the rows know of who coached it then."""
    SeasonEntry = apps.get_model("league", "SeasonEntry")
    Team = apps.get_model("teams", "Team")
    SeasonEntry.objects.update(coach_id=Subquery(Team.objects.filter(pk=OuterRef("team_id")).values("coach_id")[:1]))


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0020_webhooks"),
        ("teams", "0008_treasury_line_as_message"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="seasonentry",
            name="coach",
            field=models.ForeignKey(
                null=True,
                on_delete=models.PROTECT,
                related_name="season_entries",
                to=settings.AUTH_USER_MODEL,
                verbose_name="coach",
            ),
        ),
        migrations.RunPython(coach_of_each_entry, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="seasonentry",
            name="coach",
            field=models.ForeignKey(
                on_delete=models.PROTECT,
                related_name="season_entries",
                to=settings.AUTH_USER_MODEL,
                verbose_name="coach",
            ),
        ),
    ]
