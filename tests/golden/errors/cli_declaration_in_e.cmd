// A declaration in -e, which takes a position.
eval {case} -e 'Nim(3) const x = 1'
