// A --table-file whose values do not match the checksum in its header.
table {case} 'Nim(0..10)' --table-file errors/lib/damaged.tab
