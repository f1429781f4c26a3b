// --to must be a whole number of heaps, at least 1.
census '0.1' --to 0 --db /nonexistent/x.db # exit 2
