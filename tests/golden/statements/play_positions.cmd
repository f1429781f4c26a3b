// gdsl play shows positions as `moves` does (empty rows K(0) included, the moved component
// replaced in place) and lists moves that reach the same position once, with every label:
// knock(k=1, a=0) and knock(k=1, a=2) from K(3), and either K(1) of K(1) + K(1).
play {case} 'K(3) + K(1) + K(1)' --seed 1 # exit 0
