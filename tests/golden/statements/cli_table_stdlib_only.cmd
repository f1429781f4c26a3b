table --stdlib-only 'Kayles(0..20)'
