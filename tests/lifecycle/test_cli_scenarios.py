"""`pbp campaigns list`, `pbp scenarios list [CAMPAIGN]`, `pbp scenario import CAMPAIGN FILE` and
`pbp campaign load DIR --owner NAME`, run as a user would (issue 10, item 2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from pbp.paths import DEMO_PACK_DIR
from tests.lifecycle.conftest import pbp
from tests.scenario_toml import SCENE


def test_campaigns_and_scenarios_are_listed_as_text_and_json(instance: Path) -> None:
    text = pbp("campaigns", "list", check=True).stdout.splitlines()
    assert text[0].split() == ["slug", "name", "ruleset", "pack", "owner", "scenarios"]
    assert text[1].split() == ["demo", "ヤマツカミ迎撃戦線", "pool", "demo", "gm", "2"]
    assert json.loads(pbp("campaigns", "list", "--json", check=True).stdout)[0]["owner"] == "gm"
    listed = pbp("scenarios", "list", "demo", check=True).stdout.splitlines()
    assert listed[0].split()[:6] == ["campaign", "slug", "kind", "source", "state", "slots"]
    tama = next(line.split() for line in listed if "tama_river" in line)
    assert tama[:7] == ["demo", "tama_river", "battle", "pack", "under_way", "4", "2"]
    rows = json.loads(pbp("scenarios", "list", "--json", check=True).stdout)
    assert {r["slug"]: r["state"] for r in rows} == {"hangar_eve": "signup_open", "tama_river": "under_way"}
    unknown = pbp("scenarios", "list", "nowhere")
    assert unknown.returncode == 2 and unknown.stderr == "pbp: no campaign 'nowhere'\n"


def test_a_scenario_toml_is_imported_or_refused_on_one_line(instance: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(SCENE.replace('skill = "知覚"', 'skill = "千里眼"').replace('en = "Briefing"\n', ""), "utf-8")
    refused = pbp("scenario", "import", "demo", str(bad))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "scenarios.briefing.en: missing" in refused.stderr
    assert "scenarios.briefing.checks[0].skill: unknown skill '千里眼'" in refused.stderr
    assert "briefing" not in pbp("scenarios", "list", check=True).stdout
    good = tmp_path / "good.toml"
    good.write_text(SCENE, "utf-8")
    done = pbp("scenario", "import", "demo", str(good))
    assert done.returncode == 0 and done.stdout.startswith("scenario briefing (id 3): 作戦会議")
    assert "console" in next(line for line in pbp("scenarios", "list").stdout.splitlines() if "briefing" in line)


def test_campaign_load_names_its_owner_and_a_reload_keeps_the_console_scenarios(instance: Path, tmp_path) -> None:
    pack = tmp_path / "rival"
    shutil.copytree(DEMO_PACK_DIR, pack)
    toml = pack / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('id = "demo"', 'id = "rival"', 1), encoding="utf-8")
    assert pbp("campaign", "load", str(pack), "--owner", "player2").returncode == 0
    assert "player2" in next(line for line in pbp("campaigns", "list").stdout.splitlines() if "rival" in line)
    unknown = pbp("campaign", "load", str(pack), "--owner", "nobody")
    assert unknown.returncode == 2 and "no user 'nobody'" in unknown.stderr
    good = tmp_path / "good.toml"
    good.write_text(SCENE, "utf-8")
    assert pbp("scenario", "import", "rival", str(good)).returncode == 0
    assert pbp("campaign", "load", str(pack)).returncode == 0  # the reload is an upgrade: the console's scenario stays
    assert "briefing" in pbp("scenarios", "list", "rival", check=True).stdout
    (pack / "scenarios.toml").unlink()
    refused = pbp("campaign", "load", str(pack))
    assert (
        refused.returncode == 2 and "scenario tama_river: the new pack has no scenario 'tama_river'" in refused.stderr
    )
