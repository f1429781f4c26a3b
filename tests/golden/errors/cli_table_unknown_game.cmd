// gdsl table with a game the file does not have.
table {case} Nope(0..3)
