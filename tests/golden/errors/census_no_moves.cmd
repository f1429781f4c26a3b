// A census family whose codes have no move at all.
census '0.0,0.00' --to 10 --db /nonexistent/x.db # exit 2
