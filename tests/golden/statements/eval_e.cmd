eval {case} -e Sub(5)+Sub(6) -e Sub(7)
