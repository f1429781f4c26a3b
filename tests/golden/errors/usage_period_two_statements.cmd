// A period GAME with more than one statement.
period {case} 'Nim eval Nim(3)' # exit 2
