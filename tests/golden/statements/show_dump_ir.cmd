// --dump=ir prints the show form, with constants folded and the symbols of each drawing.
check --dump=ir {case}
