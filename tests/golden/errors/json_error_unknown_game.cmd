// With --json, a compile error is a JSON object on standard output too.
eval {case} --json
