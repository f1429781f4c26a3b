// --quotient must be a whole number of heaps, at least 1.
census '0.1' --to 10 --db /nonexistent/x.db --quotient 0 # exit 2
