// With --json, the results before an error are printed, then the error as a JSON object.
eval {case} --json
