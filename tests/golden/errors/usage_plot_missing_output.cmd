// gdsl plot without -o.
plot {case} 'Nim(0..3)' # exit 2
