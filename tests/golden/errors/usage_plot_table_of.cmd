// gdsl plot of a table written as a comprehension
plot {case} '[G(n) for n in 0..3]' -o /dev/null # exit 2
