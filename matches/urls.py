from django.urls import path

from matches import views

urlpatterns = [
    path("matches/", views.match_list, name="matches"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/result/", views.match_result, name="match_result"),
    path("matches/<int:pk>/move/", views.match_move, name="match_move"),
]
