period --stdlib-only Kayles --max 300
