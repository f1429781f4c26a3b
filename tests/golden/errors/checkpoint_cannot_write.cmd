// A --checkpoint path that cannot be written.
table {case} 'Nim(0..10)' --checkpoint /nonexistent/dir/x.ckpt
