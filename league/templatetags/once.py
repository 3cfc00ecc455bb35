"""{% form_token %}: the hidden one-time token of a form that is a single button (see league.lib.once)."""

from django import template
from django.utils.html import format_html

from league.lib.once import new_token

register = template.Library()


@register.simple_tag
def form_token() -> str:
    return format_html('<input type="hidden" name="token" value="{}">', new_token())
