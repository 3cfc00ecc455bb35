from django.urls import path

from teams import views

urlpatterns = [
    path("teams/", views.team_list, name="teams"),
]
