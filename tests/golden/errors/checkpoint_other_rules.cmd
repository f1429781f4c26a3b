// A --checkpoint file saved by a program with other rules.
table {case} 'Nim(0..10)' --checkpoint errors/lib/other_rules.ckpt
