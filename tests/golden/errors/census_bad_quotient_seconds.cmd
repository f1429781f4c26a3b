// --quotient-seconds must be a number of seconds in range.
census '0.1' --to 10 --db /nonexistent/x.db --quotient 10 --quotient-seconds 0 # exit 2
