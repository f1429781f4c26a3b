// The AST printer writes show forms back in source form.
check --dump=ast {case}
