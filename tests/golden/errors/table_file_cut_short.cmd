// A --table-file cut short: its header counts more values than it holds.
table {case} 'Nim(0..10)' --table-file errors/lib/cut_short.tab
