// The Relay extension's client: it starts `relay --lsp` (the binary named by the setting
// `relay.path`) for the documents of language `relay` and restarts it when the setting changes.
// esbuild bundles this file with vscode-languageclient into dist/extension.js (editors/build-vsix.sh).
'use strict';
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client = null;

function serverCommand() {
  const configured = vscode.workspace.getConfiguration('relay').get('path');
  return typeof configured === 'string' && configured.trim() !== '' ? configured.trim() : 'relay';
}

async function start() {
  const command = serverCommand();
  const serverOptions = { command, args: ['--lsp'], transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'relay' },
      { scheme: 'untitled', language: 'relay' },
    ],
  };
  client = new LanguageClient('relay', 'Relay', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    const reason = err && err.message ? err.message : String(err);
    vscode.window.showErrorMessage(
      `Relay: could not start \`${command} --lsp\` (${reason}). Set "relay.path" to the relay binary, ` +
        'such as the build/relay of a checkout.');
  }
}

async function stop() {
  const running = client;
  client = null;
  if (running) {
    try {
      await running.stop();
    } catch (err) {
      // a server that never started, or is gone already: nothing to stop
    }
  }
}

async function restart() {
  await stop();
  await start();
}

function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('relay.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('relay.path')) restart();
    }),
  );
  return start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
