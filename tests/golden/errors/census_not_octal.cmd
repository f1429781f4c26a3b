// A census family that is not an octal code or pattern (8 is not an octal digit).
census '0.8' --to 10 --db /nonexistent/x.db # exit 2
