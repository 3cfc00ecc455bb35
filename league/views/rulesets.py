"""Ruleset versions for the board: read, copy, edit as tables, preview, publish; public diffs."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import rules
from league.accounts import is_board
from league.lib.inputs import parse_json
from league.lib.responses import post_form, success
from league.lib.writes import league_writes
from league.models import Ruleset, Season
from league.views.base import _require_board
from league.views.ruleset_editor.changes import differences
from league.views.ruleset_editor.form import RulesetEditorForm
from league.views.ruleset_preview import PreviewForm, book_examples, team_examples


def _get_version(request: HttpRequest, pk: int) -> Ruleset:
    """A published version is public; a draft is the board's work in progress."""
    ruleset = get_object_or_404(Ruleset.objects.select_related("based_on"), pk=pk)
    if not ruleset.is_published and not is_board(request.user):
        raise Http404
    return ruleset


def _get_draft_for_update(pk: int) -> Ruleset:
    ruleset = get_object_or_404(Ruleset.objects.select_for_update(), pk=pk)
    if ruleset.is_published:
        raise Http404
    return ruleset


def _copy_name(name: str) -> str:
    candidate, n = f"{name} (kopi)", 2
    while Ruleset.objects.filter(name=candidate).exists():
        candidate, n = f"{name} (kopi {n})", n + 1
    return candidate


@require_GET
def version_list(request: HttpRequest) -> HttpResponse:
    versions = Ruleset.objects.select_related("based_on").prefetch_related("seasons")
    if not is_board(request.user):
        versions = versions.published()
    return render(request, "league/rules_versions.html", {"versions": versions, "is_board": is_board(request.user)})


@require_GET
def version_detail(request: HttpRequest, pk: int) -> HttpResponse:
    ruleset = _get_version(request, pk)
    parent = ruleset.based_on
    context = {
        "ruleset": ruleset,
        "parent": parent,
        "changes": differences(parent.data, ruleset.data) if parent else [],
        "seasons": ruleset.seasons.order_by("-created_at"),
        "is_board": is_board(request.user),
    }
    return render(request, "league/rules_version.html", context)


@login_required
@require_POST
def version_copy(request: HttpRequest, pk: int) -> HttpResponse:
    _require_board(request)
    source = _get_version(request, pk)
    with league_writes():
        # Copies of one version are made one at a time, so two at once get "(kopi)" and "(kopi 2)".
        source = Ruleset.objects.select_for_update().get(pk=source.pk)
        copy = source.copy_as_draft(_copy_name(source.name), by=request.user)
    messages.success(request, _("Created the draft %(name)s.") % {"name": copy.name})
    return redirect("rules_version_edit", copy.pk)


@login_required
@require_http_methods(["GET", "POST"])
def version_edit(request: HttpRequest, pk: int) -> HttpResponse:
    _require_board(request)
    ruleset = _get_version(request, pk)
    if ruleset.is_published:
        messages.info(request, _("A published version is frozen. Make a new version from it to change the rules."))
        return redirect("rules_version", ruleset.pk)
    form = RulesetEditorForm(request.POST or None, ruleset=ruleset)

    def page() -> HttpResponse:
        return render(request, "league/rules_edit.html", {"ruleset": ruleset, "form": form})

    def save() -> Ruleset:
        with league_writes():
            draft = _get_draft_for_update(ruleset.pk)
            draft.name = form.cleaned_data["name"]
            draft.notes = form.cleaned_data["notes"]
            draft.data = form.data_out
            draft.save()
        return draft

    if request.method == "GET":
        return page()
    return post_form(
        request, form, save, again=page, done=lambda draft: _saved(request, draft, _("%(name)s is saved."))
    )


def _saved(request: HttpRequest, draft: Ruleset, message: str) -> HttpResponse:
    """Back to the version's page, saying what was done to it."""
    return success(request, message % {"name": draft.name}, reverse("rules_version", args=[draft.pk]))


class PublishForm(forms.Form):
    confirm = forms.BooleanField(
        label=gettext_lazy("I understand: this version can never be changed once it is published."), required=True
    )


@login_required
@require_http_methods(["GET", "POST"])
def version_publish(request: HttpRequest, pk: int) -> HttpResponse:
    _require_board(request)
    ruleset = _get_version(request, pk)
    if ruleset.is_published:
        return redirect("rules_version", ruleset.pk)
    form = PublishForm(request.POST or None)

    def page() -> HttpResponse:
        context = {
            "ruleset": ruleset,
            "form": form,
            "seasons": Season.objects.select_related("ruleset").order_by("-created_at"),
            "newest": Ruleset.objects.published().first(),
            "changes": differences(ruleset.based_on.data, ruleset.data) if ruleset.based_on else [],
        }
        return render(request, "league/rules_publish.html", context)

    def publish() -> Ruleset:
        with league_writes():
            draft = _get_draft_for_update(ruleset.pk)
            draft.publish()
        return draft

    if request.method == "GET":
        return page()
    return post_form(
        request, form, publish, again=page, done=lambda draft: _saved(request, draft, _("%(name)s is published."))
    )


@login_required
@require_GET
def version_preview(request: HttpRequest, pk: int) -> HttpResponse:
    _require_board(request)
    ruleset = _get_version(request, pk)
    current = Ruleset.objects.published().exclude(pk=ruleset.pk).first() or ruleset.based_on or ruleset
    form = PreviewForm(request.GET or None)
    examples = book_examples(ruleset.rules, current.rules)
    if form.is_bound and form.is_valid() and form.cleaned_data["team"]:
        d = form.cleaned_data
        examples += team_examples(
            ruleset.rules,
            current.rules,
            team=d["team"],
            match=d["match"],
            roll=d["roll"] or 4,
            attendance=d["attendance"] if d["attendance"] is not None else 40_000,
        )
    context = {"ruleset": ruleset, "current": current, "form": form, "examples": examples}
    return render(request, "league/rules_preview.html", context)


@require_GET
def version_export(request: HttpRequest, pk: int) -> HttpResponse:
    ruleset = _get_version(request, pk)
    body = json.dumps({**ruleset.data, "name": ruleset.name}, indent=1, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(ruleset.name) or "ruleset"}.json"'
    return response


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("A ruleset file (.json) exported from this page"))
    MAX_BYTES = 1_000_000  # an exported version is about 25 kB
    MAX_DEPTH = 10  # an exported version nests 6 deep

    def clean_file(self) -> dict:
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is too large for a ruleset."))
        try:
            data = parse_json(upload.read().decode("utf-8"), depth=self.MAX_DEPTH)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise forms.ValidationError(_("The file is not a ruleset file: %(error)s") % {"error": exc}) from exc
        try:
            rules.parse_ruleset_data(data)
        except rules.RulesetError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return data


@login_required
@require_http_methods(["GET", "POST"])
def version_import(request: HttpRequest, pk: int) -> HttpResponse:
    """The advanced view: replace a draft's settings and tables with a file (the structured text)."""
    _require_board(request)
    ruleset = _get_version(request, pk)
    if ruleset.is_published:
        raise Http404
    form = ImportForm(request.POST or None, request.FILES or None)

    def page() -> HttpResponse:
        return render(request, "league/rules_import.html", {"ruleset": ruleset, "form": form})

    def replace() -> Ruleset:
        with league_writes():
            draft = _get_draft_for_update(ruleset.pk)
            draft.data = {**form.cleaned_data["file"], "name": draft.name}
            draft.save()
        return draft

    if request.method == "GET":
        return page()
    return post_form(
        request,
        form,
        replace,
        again=page,
        done=lambda draft: _saved(request, draft, _("%(name)s is replaced by the file.")),
    )


@require_GET
def version_compare(request: HttpRequest) -> HttpResponse:
    versions = list(Ruleset.objects.published() if not is_board(request.user) else Ruleset.objects.all())
    by_pk = {str(v.pk): v for v in versions}
    a, b = by_pk.get(request.GET.get("a", "")), by_pk.get(request.GET.get("b", ""))
    if a is None and len(versions) > 1:
        a = versions[1]
    if b is None and versions:
        b = versions[0]
    changes = differences(a.data, b.data) if a and b else []
    context = {"versions": versions, "a": a, "b": b, "changes": changes}
    return render(request, "league/rules_compare.html", context)
