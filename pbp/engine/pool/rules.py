"""The numbers seed 004 itself gives. They are rules, so they live in code (R-FIX-10); everything the seed
leaves open comes from the campaign pack."""

from __future__ import annotations

from fractions import Fraction

from pbp.engine.pool.types import Options

STAGES = 5  # R-GAUGE-1: every gauge has five stages
STAGE_NAMES = {  # R-GAUGE-2/3: the seed's names of each gauge's stages, in order
    "injury": ("HP", "軽傷", "重傷", "瀕死", "死亡"),
    "damage": ("装甲", "小破", "中破", "大破", "破壊"),
}
DEATH_STAGE = 4  # 死亡 (injury) / 破壊 (damage): the last stage

# R-GAUGE-2/3 with R-GAUGE-4: the deepest checked stage's bonus to every parent stat.
INJURY_STAT_BONUS = {2: 1, 3: 3}  # 重傷 +1, 瀕死 +3, while NOT riding
DAMAGE_STAT_BONUS = {2: 1, 3: 3}  # 中破 +1, 大破 +3, while riding
DESTROYED_SUCCESS_BONUS = 5  # 破壊: +5 successes on every check while riding

LOCK_ON_DAMAGE = 30  # ロックオン: the beam at the cleanup of the next round
HEAT_DAMAGE = 10  # ヒート
STUN_ROUNDS = 3  # スタン
STUN_FACTOR = Fraction(3, 4)  # スタン: every stat x0.75
LEG_DAMAGE_EVASION = -20  # 脚部損傷: -20 successes on evasion
SYSTEM_DOWN_BASE_NEED = 6  # システムダウン: 情報処理 needs (6 - rounds elapsed) successes
REDIRECT_PENALTY = 6  # R-DMG-3: +6 when the named gauge cannot take the damage
ENGAGEMENT_CAP = 10  # R-ENG-3
AIR_DISTANCE_FACTOR = 2  # R-AIR-1
MIN_ROUGH_FACTOR = 0.25  # R-ROUGH-1: rough ground multiplies by a factor "down to 0.25"
FULL_MOVE_FACTOR = 3  # R-MAJOR-1: full move = move x3

EVASION_SKILL = "回避"  # R-HIT-1
EVASION_STAT = "肉体"
INITIATIVE_STAT = "感覚"  # R-ROUND-1
RECOVERY_SKILL = "情報処理"  # system_down's removal check

STATUSES = ("lock_on", "heat", "stun", "leg_damage", "arm_damage", "system_down")
GAUGES = ("injury", "damage")
SLOTS = ("arm", "torso", "spare")
MOVEMENTS = ("ground", "air")
SIDES = ("pc", "enemy")
MINOR_TYPES = ("move", "reload", "swap", "ability")
MAJOR_TYPES = ("attack", "full_move", "leave", "reload", "recover", "ability", "check")
TIMINGS = ("setup", "minor", "major")
GIMMICK_TIMINGS = ("setup", "cleanup", "round_start")
EFFECT_KINDS = ("dice", "successes", "status", "cure", "restore")
EFFECT_TARGETS = ("self", "target", "area")
DEFAULT_OPTIONS: Options = {"clamp_successes": False, "destroyed_kills_pilot": True}
