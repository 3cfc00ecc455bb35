"""Settings come from the environment; production refuses unsafe settings (issue 2)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "k3y-" + "x7Qp2Lm9Zr4Tv8Wn1Bc6Hd0Jf5Gs3Ka" * 2,
    "ALLOWED_HOSTS": "liga.torshov.no",
    "CSRF_TRUSTED_ORIGINS": "https://liga.torshov.no",
    "DATABASE_URL": "sqlite:////tmp/torshov-check-deploy.sqlite3",
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=60
    )


def test_check_deploy_is_clean_with_production_variables():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"SECRET_KEY": ""}, "SECRET_KEY must be set"),
        ({"SECRET_KEY": "django-insecure-development-only-key-never-use-in-production"}, "SECRET_KEY must be set"),
        ({"SECRET_KEY": "short"}, "at least 50 characters"),
        ({"ALLOWED_HOSTS": ""}, "ALLOWED_HOSTS must be set"),
    ],
)
def test_production_refuses_to_start_without_a_real_secret_and_hosts(override, message):
    result = run_manage("check", env={**PRODUCTION_ENV, **override})
    assert result.returncode != 0
    assert message in result.stderr


def test_defaults_are_norwegian_and_oslo():
    assert settings.LANGUAGE_CODE == "nb"
    assert [code for code, _ in settings.LANGUAGES] == ["nb", "en"]
    assert settings.TIME_ZONE == "Europe/Oslo"
    assert "django_htmx.middleware.HtmxMiddleware" in settings.MIDDLEWARE
    # Norwegian whatever the browser asks; English when chosen (issue 12): Django's LocaleMiddleware, narrowed
    assert "league.lib.middleware.LeagueLanguageMiddleware" in settings.MIDDLEWARE


@pytest.mark.django_db
def test_database_is_the_one_database_url_names():
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith("postgres") else "sqlite"
    assert connection.vendor == expected


STORAGE = "import json; from django.conf import settings; print(json.dumps(settings.STORAGES['default']))"


def test_photos_go_to_the_file_system_unless_a_bucket_is_set():
    """The referee sheet's photos (issue 27): MEDIA_ROOT by default; a private S3-compatible bucket through
    django-storages when AWS_STORAGE_BUCKET_NAME is set (boto3 is needed then only, so not read here)."""
    import json

    plain = run_manage("shell", "--no-imports", "-c", STORAGE, env={"AWS_STORAGE_BUCKET_NAME": ""})
    assert json.loads(plain.stdout)["BACKEND"] == "django.core.files.storage.FileSystemStorage", plain.stderr
    bucket = run_manage(
        "shell",
        "--no-imports",
        "-c",
        STORAGE,
        env={"AWS_STORAGE_BUCKET_NAME": "torshov-photos", "S3_ENDPOINT_URL": "https://s3.example.no"},
    )
    stored = json.loads(bucket.stdout)
    assert stored["BACKEND"] == "storages.backends.s3.S3Storage", bucket.stderr
    assert stored["OPTIONS"]["bucket_name"] == "torshov-photos"
    assert stored["OPTIONS"]["endpoint_url"] == "https://s3.example.no"
    assert stored["OPTIONS"]["default_acl"] == "private" and not stored["OPTIONS"]["file_overwrite"]


SITE = "from django.conf import settings; print(settings.SITE_URL)"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "https://liga.torshov.no"),  # production without SITE_URL: its real host, not localhost
        ({"SITE_URL": "https://ligaen.example.no/"}, "https://ligaen.example.no"),
        ({"ALLOWED_HOSTS": "localhost,.torshov.no"}, "https://torshov.no"),
    ],
)
def test_the_emails_links_name_the_sites_address(env, expected):
    """Issue 27: an e-mail's links are written outside a request, from SITE_URL."""
    result = run_manage("shell", "--no-imports", "-c", SITE, env={**PRODUCTION_ENV, "SITE_URL": "", **env})
    assert result.stdout.strip() == expected, result.stderr
