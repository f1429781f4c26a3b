// A move whose successors grow without end: the search stops once a chain of --max-states / 16
// moves kept growing, and names the move. The finite G, whose chain grows for 10^5 moves and
// then ends, still answers.
eval {case} --max-states 2000000
