// --json keeps the raw positions and adds *_shown fields where a game has a show form.
eval --json {case}
