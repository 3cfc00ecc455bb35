from collections.abc import Callable

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse

HEALTH_PATH = "/healthz"


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return False
    return True


class HealthCheckMiddleware:
    """Answers /healthz before host validation and the HTTPS redirect.

    The container's HEALTHCHECK and load balancers call it by IP over plain HTTP,
    which ALLOWED_HOSTS and SECURE_SSL_REDIRECT would otherwise refuse.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path != HEALTH_PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
        ok = database_answers()
        response = JsonResponse({"status": "ok" if ok else "unavailable", "database": ok}, status=200 if ok else 503)
        response["Cache-Control"] = "no-store"
        return response
