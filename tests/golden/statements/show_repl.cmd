// The REPL prints positions by the show form; redefining only the show form keeps the values.
repl {case} # exit 0
