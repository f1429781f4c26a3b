repl {case} --timeout 0.5 --backend interp # exit 0
