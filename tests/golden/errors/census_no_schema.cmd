// An SQLite database with a meta table but no schema name in it.
census '0.1' --to 10 --db errors/lib/census_no_schema.db
