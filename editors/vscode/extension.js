// The VS Code client of gdsl's language server: starts `gdsl lsp` (the
// executable named by the setting gdsl.path) for .game files. See
// docs/editors.md for installing it.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("gdsl").get("path") || "gdsl";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "gdsl",
    "gdsl language server",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "gdsl" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
