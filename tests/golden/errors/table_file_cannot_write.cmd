// A --table-file path that cannot be written.
table {case} 'Nim(0..10)' --table-file /nonexistent/dir/x.tab
