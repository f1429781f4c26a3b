repl {case} --max-memory 150M --backend interp # exit 0
