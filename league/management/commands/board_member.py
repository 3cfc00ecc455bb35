from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from league.accounts import BOARD, grant_board_permissions, role_group
from league.lib.writes import league_write


class Command(BaseCommand):
    help = "Make a user a board member (Styret): staff access to the admin and the board's permissions."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument("--remove", action="store_true", help="Take the user off the board.")

    @league_write  # the board's names and rights are league data the pages show
    def handle(self, *args, username: str, email: str, remove: bool, **options):
        User = get_user_model()
        grant_board_permissions()
        board = role_group(BOARD)
        if remove:
            try:
                user = User.objects.get(username=username)
            except User.DoesNotExist as exc:
                raise CommandError(f"No user named {username!r}.") from exc
            user.groups.remove(board)
            user.is_staff = False
            user.save(update_fields=["is_staff"])
            self.stdout.write(f"{username} is no longer on the board.")
            return
        user, created = User.objects.get_or_create(username=username, defaults={"email": email})
        if created:
            user.set_unusable_password()
        user.is_staff = True
        user.save()
        user.groups.add(board)
        if created:
            self.stdout.write(f"Created {username}. Set a password with: python manage.py changepassword {username}")
        self.stdout.write(self.style.SUCCESS(f"{username} is on the board (Styret)."))
