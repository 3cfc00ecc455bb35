"""{{ user|display_name }}: a person of the league named as every page names him (league.accounts.display_name)."""

from typing import Any

from django import template

from league import accounts

register = template.Library()


@register.filter
def display_name(user: Any) -> str:
    return accounts.display_name(user)
