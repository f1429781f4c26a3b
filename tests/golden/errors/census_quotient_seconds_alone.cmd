// --quotient-seconds alone: it bounds the quotients of --quotient HEAPS.
census '0.1' --to 10 --db /nonexistent/x.db --quotient-seconds 5 # exit 2
