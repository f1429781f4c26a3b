// An unknown game in a file run with --stdlib-only: the line is the file's.
eval --stdlib-only {case}
