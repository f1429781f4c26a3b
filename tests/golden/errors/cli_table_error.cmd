// gdsl table with a range that does not fit the game (errors in RANGE point into <command line>).
table {case} Sub(0..3,1)
