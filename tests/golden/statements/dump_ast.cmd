check --dump=ast {case}
