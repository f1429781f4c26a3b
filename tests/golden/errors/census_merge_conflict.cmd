// Two census databases that disagree on a game's values: nothing is merged, no output is made.
census merge errors/lib/census_a.db errors/lib/census_b.db -o /nonexistent/merged.db
