// The VS Code client of `animc lsp`: starts the server over standard
// input/output for .anim files. Everything else (diagnostics, hover,
// completion, definitions, references, the outline, formatting, quick fixes,
// rename, signature help, inlay hints, semantic tokens) comes from the server.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("animc");
  const command = settings.get("path") || "animc";
  const server = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient("animc", "animc", { run: server, debug: server }, {
    documentSelector: [{ scheme: "file", language: "anim" }, { scheme: "untitled", language: "anim" }],
    initializationOptions: {
      inlayHints: {
        letDurations: settings.get("inlayHints.letDurations", true),
        callDurations: settings.get("inlayHints.callDurations", true),
      },
    },
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
