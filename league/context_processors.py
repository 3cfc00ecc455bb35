from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from league.accounts import is_board, is_coach, sees_private
from league.seasons import waiting


def privacy(request: HttpRequest) -> dict[str, object]:
    """`show_private`: coaches' names and treasuries are for members. `is_board_user` and
    `is_coach_user`: the roles, read in one query and only on a page that asks (`perms.league.board`
    would read the user's and the groups' permissions in two)."""
    return {
        "show_private": sees_private(request.user),
        "is_board_user": SimpleLazyObject(lambda: is_board(request.user)),
        "is_coach_user": SimpleLazyObject(lambda: is_coach(request.user)),
    }


def notices(request: HttpRequest) -> dict[str, object]:
    """`unread_notices`: what still waits for the logged-in user in his notices, for the nav; `desk_count`:
    the board's desk. Read only when a page shows them, once a request (league.seasons.waiting)."""
    return {
        "unread_notices": SimpleLazyObject(lambda: waiting.unread_count(request)),
        "desk_count": SimpleLazyObject(lambda: waiting.desk_count(request)),
    }
