// gdsl census without a family.
census --to 10 --db /nonexistent/x.db # exit 2
