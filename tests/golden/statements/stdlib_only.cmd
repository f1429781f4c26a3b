eval --stdlib-only -e Nim(3)+Kayles(4) -e Moore([1,2]) -e Cut(6,7)
