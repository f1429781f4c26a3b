// gdsl plot of a table over three ranges: a usage error that says why
plot {case} 'Chomp(a in 1..2, b in 0..a, c in 0..b)' -o x.svg # exit 2
