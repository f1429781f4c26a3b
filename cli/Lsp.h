// gdsl lsp: the Language Server Protocol over standard input and output.
#pragma once

namespace gdsl {

// Serves until `exit` or the end of input; the exit status LSP asks for (0
// after `shutdown`, else 1).
int runLanguageServer();

}  // namespace gdsl
