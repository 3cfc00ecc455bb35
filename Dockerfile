# Production image: the same steps as the README's "Production" section.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DEBUG=0 \
    PORT=8000

WORKDIR /app

COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .

# collectstatic needs settings that pass the production checks; the real values come at run time.
RUN SECRET_KEY=build-only-not-a-secret-0123456789-abcdefghijklmnopqrstuvwxyz \
    ALLOWED_HOSTS=localhost \
    python manage.py collectstatic --noinput

# media/: the referee sheet's photos (a volume in compose.yaml), written by the app's user
RUN useradd --system --create-home --uid 10001 league && mkdir -p /app/media && chown -R league /app
USER league

EXPOSE 8000
# /healthz answers within a second even while slow clients hang on (threaded workers with a header
# deadline, gunicorn.conf.py): 2 s is a generous wait, and three misses in a row mean a real fault.
HEALTHCHECK --interval=30s --timeout=3s --start-period=30s --retries=3 \
  CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\", \"8000\")}/healthz', timeout=2)" || exit 1

CMD ["sh", "-c", "python manage.py migrate --noinput && exec gunicorn -c gunicorn.conf.py torshov.wsgi"]
