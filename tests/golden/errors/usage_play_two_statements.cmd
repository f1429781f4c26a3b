// gdsl play with more than one statement as its position.
play {case} 'Nim(3) eval Nim(1)' # exit 2
