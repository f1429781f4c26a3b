check {case}
