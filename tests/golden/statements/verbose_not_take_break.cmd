eval --backend interp --verbose {case}  # exit 0
