"""Character icons (issue 30, item 6): an uploaded picture, checked and made again by the site before anything
keeps it. Only what Pillow decodes as PNG, JPEG, GIF or WebP is taken; its size is read from the header before any
pixel is decoded, so a decompression bomb (a small file of a huge picture) is refused without its memory; it is
turned upright (EXIF), cropped to a square and made `SIZE` px WebP, which drops its metadata (camera, place) with
the rest of the original. The result lives in the database beside the sheet (`CharacterIcon`): small, backed up
and moved with everything else, and the same for every web worker."""

from __future__ import annotations

import hashlib
import io
import warnings

from PIL import Image, ImageOps, UnidentifiedImageError

from pbp.db import retried, write_transaction
from pbp.errors import N_, Forbidden, UserError
from pbp.models import Character, CharacterIcon
from pbp.services import audit
from pbp.services._common import get_or_fail
from pbp.services.clock import SYSTEM, Clock, to_db

#: The icon's side in pixels, as stored and served.
SIZE = 256
#: The largest upload taken, in bytes (a phone's photo fits).
UPLOAD_LIMIT = 8 * 1024 * 1024
#: The most pixels an upload may have (a 40-megapixel photo fits; more is a decompression bomb or no icon).
PIXEL_LIMIT = 40_000_000
#: The formats taken, as Pillow names them.
FORMATS = ("PNG", "JPEG", "GIF", "WEBP")
#: The type every icon is served as.
CONTENT_TYPE = "image/webp"
FIELD = "icon"


def too_large(size: int) -> UserError:
    """The refusal of an upload of `size` bytes over `UPLOAD_LIMIT` (said beside the field, whoever measured it)."""
    return UserError(
        N_(
            "the picture has %(size)s MB, over the limit of %(limit)s MB: choose a smaller one",
            size=f"{size / 1024 / 1024:.1f}",
            limit=UPLOAD_LIMIT // 1024 // 1024,
        ),
        FIELD,
    )


def made_icon(data: bytes) -> bytes:
    """The icon (WebP, `SIZE` px square, no metadata) made from an upload's bytes, or a UserError beside the field
    saying what is wrong with it: empty, too large, not a picture, too many pixels."""
    if not data:
        raise UserError(N_("choose a picture (PNG, JPEG, GIF or WebP)"), FIELD)
    if len(data) > UPLOAD_LIMIT:
        raise too_large(len(data))
    too_many = UserError(
        N_("the picture has more than %(limit)s million pixels: choose a smaller one", limit=PIXEL_LIMIT // 1_000_000),
        FIELD,
    )
    not_a_picture = UserError(N_("the file is not a picture this site takes (PNG, JPEG, GIF or WebP)"), FIELD)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=FORMATS) as picture:
                width, height = picture.size  # from the header: nothing decoded yet
                if width * height > PIXEL_LIMIT:
                    raise too_many
                picture.draft("RGB", (SIZE * 2, SIZE * 2))  # a JPEG decodes at a smaller scale: less memory, faster
                upright = ImageOps.exif_transpose(picture)
                square = ImageOps.fit(upright.convert("RGBA"), (SIZE, SIZE), Image.Resampling.LANCZOS)
    except UserError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise too_many from None
    except UnidentifiedImageError:
        raise not_a_picture from None
    except (OSError, ValueError, SyntaxError, EOFError):  # a truncated or broken file Pillow could not decode
        raise not_a_picture from None
    out = io.BytesIO()
    square.save(out, "WEBP", quality=85, method=4)
    return out.getvalue()


def _require_owner(character_id: int, user_id: int) -> None:
    if get_or_fail(Character, character_id, N_("character")).owner_id != user_id:
        raise Forbidden(N_("character %(id)s is not yours", id=character_id))


def digest(image: bytes) -> str:
    return hashlib.blake2b(image, digest_size=16).hexdigest()


@retried
def set_icon(character_id: int, user_id: int, data: bytes, *, clock: Clock = SYSTEM) -> CharacterIcon:
    """Make the character's icon from an upload (its owner only); the sheet's time moves, so every page that shows
    the character shows the new one."""
    _require_owner(character_id, user_id)
    image = made_icon(data)
    now = to_db(clock.now())
    with write_transaction():
        fields = {"image": image, "digest": digest(image), "updated_at": now}
        if not CharacterIcon.update(**fields).where(CharacterIcon.character == character_id).execute():
            CharacterIcon.create(character=character_id, **fields)
        Character.update(updated_at=now).where(Character.id == character_id).execute()
        audit.log("character.icon", f"character:{character_id}", now, actor_id=user_id, size=len(image))
    return CharacterIcon.get(CharacterIcon.character == character_id)


@retried
def remove_icon(character_id: int, user_id: int, *, clock: Clock = SYSTEM) -> bool:
    """Take the character's icon away (its owner only); whether it had one."""
    _require_owner(character_id, user_id)
    now = to_db(clock.now())
    with write_transaction():
        removed = CharacterIcon.delete().where(CharacterIcon.character == character_id).execute()
        if removed:
            Character.update(updated_at=now).where(Character.id == character_id).execute()
            audit.log("character.icon_removed", f"character:{character_id}", now, actor_id=user_id)
    return bool(removed)


def icon(character_id: int) -> CharacterIcon | None:
    """The character's icon, its picture included (what its address serves)."""
    return CharacterIcon.get_or_none(CharacterIcon.character == character_id)


def digests(character_ids: list[int]) -> dict[int, str]:
    """Which of the characters have an icon, with its digest (the version in its address); no picture is read."""
    if not character_ids:
        return {}
    query = CharacterIcon.select(CharacterIcon.character, CharacterIcon.digest)
    return {row.character_id: row.digest for row in query.where(CharacterIcon.character.in_(character_ids))}
