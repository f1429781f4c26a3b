// -e with more than one statement.
eval {case} -e 'Nim(3) eval Nim(4)' # exit 2
