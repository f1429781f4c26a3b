check --dump=ir {case}
