// --table-file with a game of two parameters, whose positions are searched, not tabled.
table {case} 'Two(0..3, 0..3)' --table-file x.tab
