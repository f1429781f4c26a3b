// A census of a .game file without a game of one integer parameter.
census {case} --to 10 --db /nonexistent/x.db
