// A --checkpoint file that is not a checkpoint, or was cut short.
table {case} 'Nim(0..10)' --checkpoint errors/lib/damaged.ckpt
