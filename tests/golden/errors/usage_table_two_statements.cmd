// A table RANGE with more than one statement.
table {case} 'Nim(0..3) eval Nim(3)' # exit 2
