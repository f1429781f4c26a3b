// A --table-file written by a gdsl with another table format.
table {case} 'Nim(0..10)' --table-file errors/lib/other_version.tab
