"""Settings for the Torshov League app, read from the environment.

Development needs nothing set: SQLite in the project folder, DEBUG on.
Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL (see README).
"""

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

_DEV_SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = _env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS")
# The rules editor posts every cell of the rulebook's tables: the FFM table alone is 30 × 30.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 3000

if not DEBUG:
    # Refuse to start in production with a guessable key or no host list.
    if not SECRET_KEY or SECRET_KEY == _DEV_SECRET_KEY or SECRET_KEY.startswith("django-insecure"):
        raise ImproperlyConfigured("SECRET_KEY must be set to a real secret when DEBUG is off.")
    if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters with 5 distinct ones.")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off.")

INSTALLED_APPS = [
    "league.apps.LeagueAdminConfig",  # django.contrib.admin on league.lib.admin_site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "simple_history",
    "league.apps.LeagueAxesConfig",  # django-axes, its name in the admin translated
    "django_tasks",
    "django_tasks_db",
    "league",
    "teams",
    "matches",
]

MIDDLEWARE = [
    "league.lib.middleware.RequestIdMiddleware",
    "league.lib.middleware.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "league.lib.middleware.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # above the session and CSRF middleware: it sees the cookies they set (league.lib.offline)
    "league.lib.offline.OfflineCopyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "league.lib.middleware.LeagueLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "league.lib.middleware.NotAllowedPageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: it turns a lock-out during authentication into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "torshov.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "league.context_processors.privacy",
                "league.context_processors.notices",
            ],
        },
    },
]

WSGI_APPLICATION = "torshov.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Development on SQLite holds two tabs: BEGIN IMMEDIATE takes the write lock when a transaction
    # starts, so a second writer waits (up to the busy timeout) instead of failing "database is
    # locked" when it upgrades a read lock; WAL lets pages be read meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests in memory, named so: pytest-xdist gives each worker a test database by suffixing its
    # name, and with the ENGINE swapped below it no longer knows the backend for SQLite, so it
    # suffixed the file's path ("test_/…/db.sqlite3_gw0") and `make test` could not open it.
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The league's rows fit in memory, where a random read costs about what a sequential one does:
    # PostgreSQL's default (4, for spinning disks) made it scan all matches for a player's career
    # instead of looking up his 400. PG_RANDOM_PAGE_COST sets another value.
    cost = float(os.environ.get("PG_RANDOM_PAGE_COST", "1.1"))
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = f"-c random_page_cost={cost}"
    # A database host gone silent would hold each connection attempt for the kernel's TCP timeout
    # (minutes): given up after DB_CONNECT_TIMEOUT seconds instead, and tried again.
    DATABASES["default"]["OPTIONS"]["connect_timeout"] = int(os.environ.get("DB_CONNECT_TIMEOUT", "2"))
    if _env_bool("DB_POOL", not DEBUG):
        # A pool per process (psycopg's, through Django): WEB_CONCURRENCY × DB_POOL_SIZE connections at
        # most, far below PostgreSQL's 100, whatever GUNICORN_THREADS is. A thread waits up to
        # DB_POOL_TIMEOUT seconds for one, then the visitor gets the 503 page: a pooled connection is
        # free within milliseconds when the database answers, so a longer wait only means it is away,
        # and 10 s made every visitor (and the load balancer's health check) wait 10-19 s for the 503.
        # A pool replaces persistent connections, which Django refuses beside it.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": 1,
            "max_size": int(os.environ.get("DB_POOL_SIZE", "4")),
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "1")),
        }
# Visitors' pages are kept whole per league version (league.lib.pagecache), the heavy fragments of every page by
# what they show. Local memory by default, no server
# needed; CACHE_URL=redis://host:6379/0 shares one cache between several app servers.
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ["CACHE_URL"]}
        if os.environ.get("CACHE_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 2000}}
    )
}
PAGE_CACHE_SECONDS = int(os.environ.get("PAGE_CACHE_SECONDS", "3600"))
# How often a live match page asks for the other phone's entries ("within a few seconds").
LIVE_POLL_SECONDS = float(os.environ.get("LIVE_POLL_SECONDS", "3"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Log-in throttling: 10 failures for one username from one address lock that
# username at that address for 15 minutes (a club night shares one network); 50 from one address over
# any usernames lock the address. Failures during a lock do not extend it; the board unlocks early in
# the admin (Access attempts).
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
# A username from one address; an address alone after LOGIN_ADDRESS_FAILURE_LIMIT (league.accounts).
AXES_LOCKOUT_PARAMETERS = "league.accounts.lockout_parameters"
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "50"))
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "league.views.accounts.locked_out"
AXES_CLIENT_IP_CALLABLE = "league.accounts.client_ip"
# How many reverse proxies in front append to X-Forwarded-For; 0: the peer address is the client.
PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0"))

# What anonymous visitors see is what the league publishes on paper: results, rosters, TR. Coaches'
# names and the treasuries are for logged-in members unless the board publishes them.
PUBLIC_TEAM_DETAILS = _env_bool("PUBLIC_TEAM_DETAILS", False)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "coach_home"  # a coach lands on his own page; the board on the front page
LOGOUT_REDIRECT_URL = "home"

# Norwegian bokmål first, English second.
LANGUAGE_CODE = "nb"
LANGUAGES = [("nb", _("Norsk bokmål")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["torshov.formats"]  # "24. nov." in Norwegian
TIME_ZONE = "Europe/Oslo"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# Uploaded files (the referee sheet's photos) are never served from a public URL: the match
# page's view reads them back through `default_storage` for those allowed. On the file system under
# MEDIA_ROOT by default; in an S3-compatible bucket (AWS, MinIO, Hetzner, …) through django-storages
# when AWS_STORAGE_BUCKET_NAME is set, which needs `pip install boto3` (not a requirement otherwise).
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "/media/"  # no route serves it: a file's address is its view's
FILE_UPLOAD_PERMISSIONS = 0o640
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o750
# A photo is read into memory up to 2.5 MB, a larger one goes to a temporary file; 10 MB at most is
# kept (matches.photos), and nginx refuses a body over 12 MB before it reaches the app
# (deploy/nginx.conf). The other fields of a form stay small.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
if os.environ.get("AWS_STORAGE_BUCKET_NAME"):
    _MEDIA_STORAGE = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ["AWS_STORAGE_BUCKET_NAME"],
            "endpoint_url": os.environ.get("S3_ENDPOINT_URL") or os.environ.get("AWS_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("AWS_S3_REGION_NAME") or None,
            "location": os.environ.get("S3_LOCATION", ""),
            "default_acl": "private",  # the bucket's objects are private: the app reads them back
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
    # the keys: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY from the environment, read by boto3 itself
else:
    _MEDIA_STORAGE = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES = {
    "default": _MEDIA_STORAGE,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = _env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# scripts and styles only from our own static files (no inline script, handler or style),
# nothing may frame the site, forms post only to it. The admin needs no exception.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SECURE_REFERRER_POLICY = "same-origin"
# The browser features the league never uses, switched off for every page (league.lib.middleware).
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()"
)


# E-mail: EMAIL_URL (smtp://user:password@host:587 with STARTTLS, smtps://…:465 with TLS from the
# start, console://) or Django's own EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
# EMAIL_USE_TLS, EMAIL_USE_SSL. Neither set: e-mails are printed to the console (development).
def _email_settings() -> dict[str, object]:
    url = os.environ.get("EMAIL_URL", "")
    if url:
        parts = urlsplit(url)
        if parts.scheme == "console":
            return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
        if parts.scheme not in ("smtp", "smtps"):
            raise ImproperlyConfigured("EMAIL_URL must start smtp://, smtps:// or console://.")
        query = parse_qs(parts.query)
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": parts.hostname or "localhost",
            "EMAIL_PORT": parts.port or (465 if parts.scheme == "smtps" else 587),
            "EMAIL_HOST_USER": unquote(parts.username or ""),
            "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
            "EMAIL_USE_SSL": parts.scheme == "smtps",
            "EMAIL_USE_TLS": parts.scheme == "smtp" and query.get("tls", ["1"])[0] not in ("0", "false"),
        }
    if os.environ.get("EMAIL_HOST"):
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": os.environ["EMAIL_HOST"],
            "EMAIL_PORT": int(os.environ.get("EMAIL_PORT", "587")),
            "EMAIL_HOST_USER": os.environ.get("EMAIL_HOST_USER", ""),
            "EMAIL_HOST_PASSWORD": os.environ.get("EMAIL_HOST_PASSWORD", ""),
            "EMAIL_USE_TLS": _env_bool("EMAIL_USE_TLS", True),
            "EMAIL_USE_SSL": _env_bool("EMAIL_USE_SSL", False),
        }
    return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}


globals().update(_email_settings())
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "30"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Torshov Touchdown <liga@localhost>")
# The site's address for the links in e-mails, which are written outside any request. In production
# without SITE_URL: https and the first real host of ALLOWED_HOSTS, never a localhost no coach can open.
_SITE_HOSTS = [h.lstrip(".") for h in ALLOWED_HOSTS if h not in ("*", "localhost", "127.0.0.1", "[::1]")]
if DEBUG:
    _SITE_DEFAULT = f"http://127.0.0.1:{os.environ.get('PORT', '8000')}"  # make run's server
else:  # a trial on one machine (ALLOWED_HOSTS=localhost) gets the proxy's plain address
    _SITE_DEFAULT = f"https://{_SITE_HOSTS[0]}" if _SITE_HOSTS else "http://localhost"
SITE_URL = (os.environ.get("SITE_URL") or _SITE_DEFAULT).rstrip("/")

# The e-mails go out after the write commits, through Django's tasks (the django-tasks backport). Development
# runs a task at once in the request (no worker: `make run` stays one command); production keeps them in the
# database for the worker (`manage.py db_worker`). TASKS_BACKEND=immediate|database chooses.
_TASK_BACKENDS = {
    "immediate": "django_tasks.backends.immediate.ImmediateBackend",
    "database": "django_tasks_db.DatabaseBackend",
}
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[os.environ.get("TASKS_BACKEND", "immediate" if DEBUG else "database")]}}
# A failed e-mail is tried again later, this many times in all (league.notices.delivery).
NOTICE_EMAIL_ATTEMPTS = int(os.environ.get("NOTICE_EMAIL_ATTEMPTS", "5"))
# The league's chat (league.notices.webhook_delivery): a post tried this many times in all (1, 5, 25, 125
# minutes apart). Production posts only over https to addresses on the internet; development and the tests
# may post to this machine (a receiver of their own on 127.0.0.1) and over plain http.
WEBHOOK_ATTEMPTS = int(os.environ.get("WEBHOOK_ATTEMPTS", "5"))
WEBHOOKS_ALLOW_LOCAL = _env_bool("WEBHOOKS_ALLOW_LOCAL", DEBUG)
# The reminders' days are the board's to set in the app (league.models.LeagueSettings).

# Web Push (league.notices.push): the league's VAPID key pair, made once by `manage.py vapid_keys`. Without
# both keys push is off and the choices page says so; development leaves it off unless they are set.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:styret@localhost").strip()
# A push endpoint is https (plain http in DEBUG, and to 127.0.0.1 when this is on: the tests' push service)
# on a known push service's host or a subdomain of it, so a forged one cannot make the worker post elsewhere.
PUSH_LOCAL_HTTP = False
PUSH_SERVICE_HOSTS = _env_list(
    "PUSH_SERVICE_HOSTS", "fcm.googleapis.com,push.services.mozilla.com,push.apple.com,notify.windows.com"
)

# One line per event with the request's id (league.lib.logs); a 4xx without a traceback.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "league.lib.logs.RequestIdFilter"},
        "quiet_client_errors": {"()": "league.lib.logs.QuietClientErrors"},
    },
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["request_id"], "formatter": "line"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.request": {"filters": ["quiet_client_errors"]},
        "django.security": {"filters": ["quiet_client_errors"]},
        # Lock-outs are warnings; each failure's bookkeeping is not news.
        "axes": {"level": "WARNING"},
    },
}
