"""The referee sheet's photos on a match's report (issue 27): added by the match's coaches and the board,
three at most, seen by them alone, deleted by the one who added it or the board (recorded); a refused
upload changes nothing, files included."""

import io
from unittest import mock

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from django.urls import reverse
from PIL import Image

from league.lib.refusals import AlreadyDone, Refusal
from matches.models import Match, ReportPhoto
from matches.photos.services import add_photo, delete_photo
from matches.report.confirmation import dispute_report
from matches.report.filing import file_report
from tests import factories
from tests.matches.test_report import ROLES, a_report, user_for
from tests.photos import metadata, phone_jpeg

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_root")]


def stored_files(media_root) -> list[str]:
    return sorted(str(p.relative_to(media_root)) for p in media_root.rglob("*") if p.is_file())


def upload(data: bytes | None = None, name: str = "dommerskjema.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, phone_jpeg() if data is None else data, content_type="image/jpeg")


def add(match: Match, by, data: bytes | None = None, **kwargs) -> ReportPhoto:
    sent = phone_jpeg() if data is None else data
    return add_photo(match=match, by=by, upload=io.BytesIO(sent), size=len(sent), **kwargs)


class TestTheService:
    @classmethod
    def setUpTestData(cls):
        cls.match = factories.league_match()

    def test_a_photo_is_stored_without_its_metadata_and_with_a_small_copy(self, media_root):
        photo = add(self.match, self.match.home.coach, phone_jpeg(4000, 3000, gps=True))
        assert (photo.slot, photo.width, photo.height, photo.uploaded_by) == (1, 2000, 1500, self.match.home.coach)
        with default_storage.open(photo.image) as stored:
            kept = metadata(stored.read())
        assert kept["exif"] == {} and kept["size"] == (2000, 1500)
        assert stored_files(media_root) == sorted([photo.image, photo.thumbnail])
        assert photo.image.startswith(f"report-photos/{self.match.pk}/")

    def test_a_fourth_photo_is_refused_and_nothing_is_stored(self, media_root):
        for by in (self.match.home.coach, self.match.away.coach, self.match.home.coach):
            add(self.match, by)
        before = stored_files(media_root)
        with pytest.raises(Refusal, match="at most three photos"):
            add(self.match, self.match.away.coach)
        assert sorted(self.match.photos.values_list("slot", flat=True)) == [1, 2, 3]
        assert stored_files(media_root) == before

    @pytest.mark.parametrize("slots", [[4], [0], [2, 2]])
    def test_the_database_takes_a_slot_from_1_to_3_once_per_match(self, slots):
        with pytest.raises(IntegrityError), transaction.atomic():
            for slot in slots:
                ReportPhoto.objects.create(match=self.match, slot=slot, image="a", thumbnail="b", width=1, height=1)

    def test_a_freed_slot_is_taken_again(self):
        photos = [add(self.match, self.match.home.coach) for _ in range(3)]
        delete_photo(match=self.match, photo_pk=photos[1].pk, by=self.match.home.coach)
        assert add(self.match, self.match.away.coach).slot == 2

    def test_what_is_no_photo_is_refused_and_nothing_is_stored(self, media_root):
        with pytest.raises(Refusal, match="not a photo the league can read"):
            add(self.match, self.match.home.coach, b"not a photo")
        assert not ReportPhoto.objects.exists() and stored_files(media_root) == []

    def test_a_void_match_takes_no_photo(self, media_root, board_member):
        Match.objects.filter(pk=self.match.pk).update(status=Match.Status.VOID)
        with pytest.raises(Refusal, match="not played"):
            add(self.match, board_member)
        assert stored_files(media_root) == []

    def test_a_coach_of_another_match_is_refused_by_the_service_too(self, media_root, other_coach):
        with pytest.raises(Refusal):
            add(self.match, other_coach)
        assert stored_files(media_root) == []

    def test_the_same_form_sent_twice_stores_one_photo(self, media_root):
        token = "a" * 22
        first = add(self.match, self.match.home.coach, token=token)
        with pytest.raises(AlreadyDone) as again:
            add(self.match, self.match.home.coach, token=token)
        assert again.value.result == first
        assert self.match.photos.count() == 1 and len(stored_files(media_root)) == 2

    def test_the_third_photos_form_sent_twice_is_already_done_not_full(self, media_root):
        """The last slot taken by the first send: the second is told it is done, not that there is no room."""
        add(self.match, self.match.home.coach)
        add(self.match, self.match.home.coach)
        third = add(self.match, self.match.home.coach, token="f" * 22)
        with pytest.raises(AlreadyDone) as again:
            add(self.match, self.match.home.coach, token="f" * 22)
        assert again.value.result == third and self.match.photos.count() == 3

    def test_a_full_report_refuses_before_the_picture_is_worked_on(self, media_root):
        for _ in range(3):
            add(self.match, self.match.away.coach)
        with mock.patch("matches.photos.services.process_photo") as process, pytest.raises(Refusal, match="three"):
            add(self.match, self.match.away.coach)
        process.assert_not_called()

    def test_a_deletion_removes_the_files_once_committed_and_is_recorded(
        self, media_root, django_capture_on_commit_callbacks
    ):
        photo = add(self.match, self.match.away.coach)
        with django_capture_on_commit_callbacks(execute=True):
            delete_photo(match=self.match, photo_pk=photo.pk, by=self.match.away.coach)
        assert not ReportPhoto.objects.exists() and stored_files(media_root) == []
        deleted = ReportPhoto.history.get(history_type="-")
        assert (deleted.slot, deleted.history_user, deleted.uploaded_by) == (
            1,
            self.match.away.coach,
            self.match.away.coach,
        )

    def test_the_other_coach_may_not_delete_a_photo_he_did_not_add(self):
        photo = add(self.match, self.match.away.coach)
        with pytest.raises(Refusal, match="Only the one who added a photo"):
            delete_photo(match=self.match, photo_pk=photo.pk, by=self.match.home.coach)
        assert ReportPhoto.objects.filter(pk=photo.pk).exists()

    def test_a_photo_deleted_twice_is_already_done(self, board_member):
        photo = add(self.match, self.match.away.coach)
        delete_photo(match=self.match, photo_pk=photo.pk, by=board_member)
        with pytest.raises(AlreadyDone):
            delete_photo(match=self.match, photo_pk=photo.pk, by=board_member)


class TestThePages:
    @classmethod
    def setUpTestData(cls):
        cls.match = factories.league_match()

    def log_in(self, client, role, other_coach, board_member):
        user = user_for(role, self.match, other_coach, board_member)
        if user:
            client.force_login(user)
        return user

    @pytest.mark.parametrize("role", ROLES)
    def test_permission_matrix_upload(self, client, media_root, other_coach, board_member, role):
        self.log_in(client, role, other_coach, board_member)
        response = client.post(reverse("match_photo_add", args=[self.match.pk]), {"token": "b" * 22, "photo": upload()})
        allowed = role in {"home_coach", "away_coach", "board"}
        assert response.status_code == (302 if allowed else 403)
        assert ReportPhoto.objects.count() == (1 if allowed else 0)
        assert len(stored_files(media_root)) == (2 if allowed else 0)
        if allowed:
            assert response["Location"] == f"/matches/{self.match.pk}/#photos"

    @pytest.mark.parametrize("size", ["match_photo", "match_photo_small"])
    @pytest.mark.parametrize("role", ROLES)
    def test_permission_matrix_view(self, client, other_coach, board_member, role, size):
        photo = add(self.match, self.match.home.coach, phone_jpeg(1000, 750))
        self.log_in(client, role, other_coach, board_member)
        response = client.get(reverse(size, args=[self.match.pk, photo.pk]))
        if role in {"anonymous", "other_coach"}:
            assert response.status_code == 404
            return
        assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
        assert "private" in response["Cache-Control"]
        picture = Image.open(io.BytesIO(b"".join(response.streaming_content)))
        assert picture.size == ((1000, 750) if size == "match_photo" else (480, 360))
        picture.close()

    def test_a_photo_of_another_match_is_not_found_through_this_one(self, client):
        photo = add(self.match, self.match.home.coach)
        elsewhere = (
            Match.objects.exclude(pk=self.match.pk).filter(home=self.match.away).first()
            or Match.objects.exclude(pk=self.match.pk).first()
        )
        client.force_login(elsewhere.home.coach)
        assert client.get(reverse("match_photo", args=[elsewhere.pk, photo.pk])).status_code == 404

    @pytest.mark.parametrize("role", ROLES)
    def test_permission_matrix_delete(self, client, media_root, other_coach, board_member, role):
        photo = add(self.match, self.match.away.coach)
        self.log_in(client, role, other_coach, board_member)
        response = client.post(reverse("match_photo_delete", args=[self.match.pk, photo.pk]))
        deleted = not ReportPhoto.objects.filter(pk=photo.pk).exists()
        assert deleted == (role in {"away_coach", "board"})  # the one who added it, or the board
        assert response.status_code == (403 if role in {"anonymous", "other_coach"} else 302)

    def test_a_refused_upload_shows_the_norwegian_message_and_changes_nothing(self, client, media_root):
        client.cookies["django_language"] = "nb"
        client.force_login(self.match.home.coach)
        response = client.post(
            reverse("match_photo_add", args=[self.match.pk]),
            {"token": "c" * 22, "photo": upload(b"Trolls 2 - Saints 1", name="sheet.txt")},
        )
        assert response.status_code == 422
        assert "Dette er ikke et bilde ligaen kan lese" in response.content.decode()
        assert not ReportPhoto.objects.exists() and stored_files(media_root) == []

    def test_a_picture_bomb_is_refused_in_norwegian_on_the_form_without_decoding(self, client, media_root):
        bomb = io.BytesIO()
        Image.new("1", (7_000, 7_000)).save(bomb, format="PNG")  # 6 kB; 468 MB once decoded
        client.cookies["django_language"] = "nb"
        client.force_login(self.match.home.coach)
        with mock.patch.object(Image.Image, "load", side_effect=AssertionError("decoded")):
            response = client.post(
                reverse("match_photo_add", args=[self.match.pk]),
                {"token": "e" * 22, "photo": upload(bomb.getvalue(), name="sheet.png")},
            )
        assert response.status_code == 422
        assert "Bildet har for mange piksler (høyst 16 millioner)" in response.content.decode()
        assert stored_files(media_root) == []

    def test_an_upload_over_10_mb_is_refused_in_norwegian(self, client, media_root):
        client.cookies["django_language"] = "nb"
        client.force_login(self.match.home.coach)
        big = phone_jpeg() + b"\0" * (11 * 1024 * 1024)
        response = client.post(
            reverse("match_photo_add", args=[self.match.pk]), {"token": "d" * 22, "photo": upload(big)}
        )
        assert response.status_code == 422
        assert "Bildet er større enn 10 MB" in response.content.decode()
        assert stored_files(media_root) == []

    def test_no_file_chosen_is_said_in_norwegian(self, client):
        client.cookies["django_language"] = "nb"
        client.force_login(self.match.home.coach)
        response = client.post(reverse("match_photo_add", args=[self.match.pk]), {"token": "e" * 22})
        assert response.status_code == 422 and "Velg et bilde, eller ta ett." in response.content.decode()

    @pytest.mark.parametrize("role", ROLES)
    def test_the_match_page_shows_the_photos_to_the_coaches_and_the_board_only(
        self, client, other_coach, board_member, role
    ):
        photo = add(self.match, self.match.home.coach)
        self.log_in(client, role, other_coach, board_member)
        html = client.get(self.match.get_absolute_url()).content.decode()
        url = reverse("match_photo_small", args=[self.match.pk, photo.pk])
        seen = role in {"home_coach", "away_coach", "board"}
        assert (url in html) == seen
        assert ('id="photos"' in html) == seen
        assert ('capture="environment"' in html) == seen
        # the delete button for the one who added it and the board
        assert (reverse("match_photo_delete", args=[self.match.pk, photo.pk]) in html) == (
            role in {"home_coach", "board"}
        )

    def test_beside_a_disputed_report_with_who_added_it(self, client):
        match = factories.ready_match(self.match)
        file_report(match, a_report(match), by=match.home.coach)
        dispute_report(match, by=match.away.coach, comment="It was 2-2.")
        add(match, match.away.coach)
        client.cookies["django_language"] = "nb"
        client.force_login(factories.user("styret", board=True, coach=False))
        html = client.get(match.get_absolute_url()).content.decode()
        photos = html[html.index('id="photos"') :]
        assert html.index("It was 2-2.") < html.index('id="photos"')
        assert "Rapporten er bestridt: styret avgjør med det signerte skjemaet." in photos
        assert f"Lagt til av {match.away.coach.username}," in photos

    def test_the_form_is_gone_when_three_photos_are_there(self, client):
        for _ in range(3):
            add(self.match, self.match.home.coach)
        client.force_login(self.match.home.coach)
        html = client.get(self.match.get_absolute_url()).content.decode()
        assert f'action="/matches/{self.match.pk}/photos/"' not in html and 'capture="environment"' not in html
        assert html.count("/small/") == 3

    def test_a_deletion_is_shown_with_who_and_when(self, client, board_member):
        photo = add(self.match, self.match.home.coach)
        client.force_login(board_member)
        client.post(reverse("match_photo_delete", args=[self.match.pk, photo.pk]))
        html = client.get(self.match.get_absolute_url()).content.decode()
        assert f"Photo 1 deleted by {board_member.username}" in html
