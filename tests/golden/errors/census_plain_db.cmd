// An SQLite database that is not a census database.
census report errors/lib/census_plain.db
