// A quotient needs every move to leave smaller heaps.
quotient {case} Up # exit 1
