// A --checkpoint path that is a directory.
table {case} 'Nim(0..10)' --checkpoint errors/lib
