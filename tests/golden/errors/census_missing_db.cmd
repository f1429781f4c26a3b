// gdsl census without --db.
census '0.1' --to 10 # exit 2
