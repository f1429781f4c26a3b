// A database that names the census schema but whose results table lacks its columns.
census report errors/lib/census_old_results.db
