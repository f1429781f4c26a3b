// A hexadecimal census pattern with a digit that is not hexadecimal.
census 'hex 0.G?' --to 10 --db /nonexistent/x.db # exit 2
