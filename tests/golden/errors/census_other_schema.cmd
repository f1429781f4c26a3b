// A census database of another schema version: refused, left unchanged.
census '0.1' --to 10 --db errors/lib/census_other_schema.db
