// A command gdsl does not have.
bogus {case} # exit 2
