// gdsl census without --to.
census '0.1' --db /nonexistent/x.db # exit 2
