// A --table-file path that is not a table file (here the game file itself).
table {case} 'Nim(0..10)' --table-file {case}
