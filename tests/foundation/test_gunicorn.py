"""gunicorn serves pages and whitenoise's compressed, hashed static files in production mode (issue 2)."""

import re
import urllib.error
import urllib.request


def test_gunicorn_serves_pages_and_hashed_compressed_static_files(production_server):
    page = urllib.request.urlopen(f"{production_server}/", timeout=5).read().decode()
    assert "Torshov Touchdown" in page
    css = re.search(r'href="(/static/css/league\.[0-9a-f]{12}\.css)"', page)
    assert css, "static files are referenced by their hashed names"
    request = urllib.request.Request(f"{production_server}{css.group(1)}", headers={"Accept-Encoding": "gzip"})
    response = urllib.request.urlopen(request, timeout=5)
    assert response.status == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert "max-age=315360000" in response.headers["Cache-Control"]  # hashed files cache forever
    health = urllib.request.urlopen(f"{production_server}/healthz", timeout=5)
    assert health.status == 200
