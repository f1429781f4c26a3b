// Errors in a gdsl repl session: each is reported and the session goes on
// (exit status 0 at the end of the input).
repl {case} # exit 0
