from django.urls import path

from league import views

urlpatterns = [
    path("standings/", views.standings, name="standings"),
    path("rules/", views.rules, name="rules"),
]
