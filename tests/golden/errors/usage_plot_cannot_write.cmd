// gdsl plot to a file that cannot be written.
plot {case} 'Nim(0..3)' -o /nonexistent/dir/x.svg # exit 2
