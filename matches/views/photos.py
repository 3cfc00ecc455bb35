"""The referee sheet's photos on a match's report: added from the phone's camera, shown only to the
match's two coaches and the board (read back through the storage, never from a public address), and
deleted by the one who added it or the board."""

from __future__ import annotations

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from league.lib.responses import act_and_redirect, post_form, success
from matches.forms.report import PhotoForm
from matches.models import Match, ReportPhoto
from matches.notices import takes_part
from matches.photos.services import add_photo, delete_photo
from matches.views.base import _get_match_for_coach, match_page


def _photos_of(match: Match) -> str:
    return f"{match.get_absolute_url()}#photos"


@require_POST
def match_photo_add(request: HttpRequest, pk: int) -> HttpResponse:
    """A coach of the match, or the board, adds a photo (a multipart form; no JavaScript needed)."""
    match = _get_match_for_coach(request, pk)
    form = PhotoForm(request.POST, request.FILES)

    def add() -> ReportPhoto:
        upload = form.cleaned_data["photo"]
        return add_photo(
            match=match, by=request.user, upload=upload, size=upload.size, token=form.cleaned_data["token"]
        )

    return post_form(
        request,
        form,
        add,
        again=lambda: match_page(request, match, photo_form=form),
        done=lambda _photo: success(request, _("The photo is added to the report."), _photos_of(match)),
        already=lambda _exc: redirect(_photos_of(match)),
    )


@require_POST
def match_photo_delete(request: HttpRequest, pk: int, photo_pk: int) -> HttpResponse:
    match = _get_match_for_coach(request, pk)

    def delete() -> str:
        delete_photo(match=match, photo_pk=photo_pk, by=request.user)
        return _("The photo is deleted.")

    return act_and_redirect(request, delete, _photos_of(match))


@require_GET
def match_photo(request: HttpRequest, pk: int, photo_pk: int, size: str) -> HttpResponse:
    """The photo (or its small copy) for the match's coaches and the board; not found for anyone else,
    so no one learns that a match has photos by trying their addresses."""
    match = get_object_or_404(Match.objects.select_related("home", "away"), pk=pk)
    if not takes_part(request.user, match):
        raise Http404
    photo = get_object_or_404(ReportPhoto, match=match, pk=photo_pk)
    name = photo.thumbnail if size == "small" else photo.image
    try:
        stored = default_storage.open(name, "rb")
    except FileNotFoundError:
        raise Http404 from None
    response = FileResponse(stored, content_type="image/jpeg")
    response["Content-Disposition"] = f'inline; filename="{match.pk}-{photo.slot}.jpg"'
    response["Cache-Control"] = "private, max-age=86400"  # a photo never changes: a new one has a new address
    return response
