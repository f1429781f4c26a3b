// A --table-file path that is a directory.
table {case} 'Nim(0..10)' --table-file errors/lib
