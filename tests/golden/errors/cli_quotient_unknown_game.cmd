// gdsl quotient with a game the file does not have.
quotient {case} Nope # exit 2
