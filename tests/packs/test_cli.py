"""`pbp pack validate` from the outside: exit 0 with a summary, or exit 2 with one line per problem."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pbp.paths import DEMO_PACK_DIR


def pbp(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pbp", *args], capture_output=True, text=True, cwd=cwd, timeout=60)


def test_validate_demo_from_any_directory(tmp_path: Path) -> None:
    for target in (str(DEMO_PACK_DIR), "demo"):
        r = pbp("pack", "validate", target, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("ok: demo (4 stats, 17 skills, ")


def test_validate_broken_pack_exits_2_with_every_problem(demo_dir: Path) -> None:
    text = (demo_dir / "weapons.toml").read_text(encoding="utf-8")
    (demo_dir / "weapons.toml").write_text(
        text.replace('skill = "射撃"\ndamage = 8', 'skill = "狙撃"\ndamage = 8'), encoding="utf-8"
    )
    (demo_dir / "oops.toml").write_text("this is = = not toml\n", encoding="utf-8")
    r = pbp("pack", "validate", "demo", cwd=demo_dir.parent)
    assert (r.returncode, r.stderr) == (2, "pbp: demo: 2 problems (listed on stdout)\n")
    lines = r.stdout.splitlines()
    assert any(line.endswith("weapons.toml: weapons.beam_rifle.skill: unknown skill '狙撃'") for line in lines)
    assert any("oops.toml: not valid TOML" in line for line in lines)
    assert len(lines) == 2


def test_show_prints_names_and_never_gm_notes(tmp_path: Path) -> None:
    r = pbp("pack", "show", "demo", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "肉体 Body" in r.stdout and "葵 / Aoi" in r.stdout
    assert "三宅" not in r.stdout  # a GM secret of hangar_eve


def test_a_pack_file_that_is_not_utf8_is_one_line_naming_it(demo_dir: Path) -> None:
    (demo_dir / "sjis.toml").write_bytes('[items.charm]\nja = "お守り"\n'.encode("shift_jis"))
    r = pbp("pack", "validate", str(demo_dir), cwd=demo_dir.parent)
    assert (r.returncode, r.stderr) == (2, f"pbp: {demo_dir}: 1 problem (listed on stdout)\n")
    assert r.stdout == f"{demo_dir / 'sjis.toml'}: must be UTF-8 text\n"


def test_validate_refuses_a_campaign_id_that_is_not_a_slug(demo_dir: Path) -> None:
    text = (demo_dir / "campaign.toml").read_text(encoding="utf-8")
    (demo_dir / "campaign.toml").write_text(text.replace('id = "demo"', 'id = "de/mo x"', 1), encoding="utf-8")
    r = pbp("pack", "validate", str(demo_dir), cwd=demo_dir.parent)
    assert r.returncode == 2 and r.stdout == (
        f"{demo_dir / 'campaign.toml'}: campaign.id: 'de/mo x' is not a campaign id "
        "(1-64 letters, digits, '_' or '-')\n"
    )
