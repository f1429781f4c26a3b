// A --checkpoint file written by an older gdsl (format GDSLCKP1), whose rule fingerprints
// cannot be checked.
table {case} 'Nim(0..10)' --checkpoint errors/lib/older_gdsl.ckpt
