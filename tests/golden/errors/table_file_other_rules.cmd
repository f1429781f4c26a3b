// A --table-file written for other rules of the game (here Nim with take 1..2).
table {case} 'Nim(0..10)' --table-file errors/lib/other_rules.tab
