// Starts auto's language server (`auto lsp` by default) for .auto files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const [command, ...args] = vscode.workspace.getConfiguration("auto").get("server.command");
  client = new LanguageClient("auto", "auto", { command, args }, { documentSelector: [{ language: "auto" }] });
  client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
