"""The language switch: Django's own view, its `next` checked as every other (league.lib.redirects)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views import i18n
from django.views.decorators.csrf import csrf_exempt

from league.lib.redirects import safe_next


# Exempt from the CSRF check: another site could at worst switch a reader's language, and a form with no
# token leaves a visitor's page the same for every visitor, so the page cache keeps it whole.
@csrf_exempt
def set_language(request: HttpRequest) -> HttpResponse:
    """Sets the language cookie and goes back to the page it was chosen on. Django's view would follow a
    `next` of `x` to /i18n/x (a 404), so the checked one, or the front page, is put in its place."""
    request.POST = request.POST.copy()  # Django's view reads `next` from here first
    request.POST["next"] = safe_next(request, "home")
    return i18n.set_language(request)
