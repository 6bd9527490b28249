// Starts `loony lsp` for .cgt files (the binary is the `loony.server.path` setting, `loony` on
// the PATH by default) and stops it with the editor.
const { workspace } = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

exports.activate = function activate() {
  const command = workspace.getConfiguration("loony").get("server.path") || "loony";
  client = new LanguageClient(
    "loony",
    "Loony",
    { command, args: ["lsp"] },
    { documentSelector: [{ scheme: "file", language: "loony" }] },
  );
  return client.start();
};

exports.deactivate = function deactivate() {
  return client ? client.stop() : undefined;
};
