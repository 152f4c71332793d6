"""`pbp export-site DIR` writes only where an export belongs (issue 33: `pbp export-site ''` wrote into the current
folder, inside `campaigns/demo/` when run there): an empty DIR and a folder that holds files but no earlier export
(no `.pbp-export` marker) are refused with exit 2 and one line, nothing written; a new or empty folder, or one an
earlier export wrote, is exported into."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbp.web.export import MARKER
from tests.test_cli_errors import _db, one_line, pbp


def _files(folder: Path) -> set[Path]:
    return set(folder.rglob("*"))


@pytest.mark.parametrize("empty", ["", " "])
def test_an_empty_target_is_refused_and_nothing_is_written(tmp_path: Path, empty: str) -> None:
    (tmp_path / "scenarios.toml").write_text("x = 1\n", encoding="utf-8")
    before = _files(tmp_path)
    said = one_line(pbp("export-site", empty, cwd=tmp_path))
    assert "folder" in said
    assert _files(tmp_path) == before


def test_a_folder_with_other_files_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "pack"
    target.mkdir()
    (target / "campaign.toml").write_text("x = 1\n", encoding="utf-8")
    said = one_line(pbp("export-site", str(target)))
    assert str(target) in said and MARKER in said
    assert _files(target) == {target / "campaign.toml"}


def test_the_current_folder_is_refused_when_it_holds_other_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine\n", encoding="utf-8")
    one_line(pbp("export-site", ".", cwd=tmp_path))
    assert _files(tmp_path) == {tmp_path / "notes.txt"}


def test_a_new_an_empty_and_an_earlier_exports_folder_are_exported_into(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _db(tmp_path, monkeypatch)
    (tmp_path / "empty").mkdir()
    for target in (tmp_path / "new", tmp_path / "empty", tmp_path / "new"):  # the last: again, over its own export
        done = pbp("export-site", str(target))
        assert done.returncode == 0, done.stderr
        assert (target / MARKER).is_file() and (target / "blog" / "index.html").is_file()
