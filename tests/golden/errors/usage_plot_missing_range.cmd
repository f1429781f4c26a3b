// gdsl plot without its RANGE.
plot {root}/examples/nim.game -o x.svg # exit 2
