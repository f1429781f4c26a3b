// gdsl plot without a range in RANGE.
plot {case} 'Nim(3)' -o x.svg # exit 2
