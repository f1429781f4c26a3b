// --jobs must be from 1 to 1024.
census '0.1' --to 10 --db /nonexistent/x.db --jobs 0 # exit 2
