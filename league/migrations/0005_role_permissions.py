"""The league's roles as permissions (issue 14); the board's and the coaches' groups get the
permission their names used to stand for, so renaming a group no longer changes its rights."""

from django.db import migrations

ROLES = {"board": ("Styret", "Acts as the league board"), "coach": ("Trenere", "Coaches a team in the league")}


def grant(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    ContentType = apps.get_model("contenttypes", "ContentType")
    season, _ = ContentType.objects.get_or_create(app_label="league", model="season")
    for codename, (group_name, name) in ROLES.items():
        permission, _ = Permission.objects.get_or_create(
            codename=codename, content_type=season, defaults={"name": name}
        )
        for group in Group.objects.filter(name=group_name):
            group.permissions.add(permission)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0004_season_division_cup_seasonend_seasonentry_and_more"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="season",
            options={
                "ordering": ["-created_at"],
                "permissions": [("board", "Acts as the league board"), ("coach", "Coaches a team in the league")],
                "verbose_name": "season",
                "verbose_name_plural": "seasons",
            },
        ),
        migrations.RunPython(grant, migrations.RunPython.noop),
    ]
