"""A scenario's watched secret terms (issue 31, item 4): one a line, as the GM typed them, beside its GM notes in the
GM-only table. The leak check finds each in any text about to be published, whatever its length."""

from peewee import TextField


def up(migrator, db):
    migrator.migrate(migrator.add_column("scenario_secret", "secret_terms", TextField(default="")))


def down(migrator, db):
    migrator.migrate(migrator.drop_column("scenario_secret", "secret_terms"))
