from django.urls import path

from matches import views

urlpatterns = [
    path("matches/", views.match_list, name="matches"),
]
