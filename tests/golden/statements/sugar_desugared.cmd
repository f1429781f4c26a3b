check --dump=desugared {case}
