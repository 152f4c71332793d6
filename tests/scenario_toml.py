"""A scenario TOML the console's and the command line's import tests share: one scene with one check."""

SCENE = """
[scenarios.briefing]
ja = "作戦会議"
en = "Briefing"
kind = "scene"
[[scenarios.briefing.checks]]
id = "plan"
skill = "知覚"
need = 2
ja = "地図を読む"
en = "Read the map"
success = { ja = "抜け道", en = "A way round" }
failure = { ja = "なし", en = "Nothing" }
"""
