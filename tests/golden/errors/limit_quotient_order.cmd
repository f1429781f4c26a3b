// A wild quotient that grows past --max-order stops there; what was computed
// (heaps 0 to the heap named) is printed, and gdsl exits with status 1.
quotient {case} Dawson --max-order 20 # exit 1
