#!/usr/bin/env node
// Loads a built extension bundle (dist/extension.js) outside VS Code, with a stand-in for the
// `vscode` module, and checks that it exports activate and deactivate: a bundle that lost a module
// or was built for the wrong module format fails here.
//   node editors/tests/load_extension.js STAGE/dist/extension.js
'use strict';
const Module = require('module');

// Any property of the stand-in is a class whose instances are stand-ins too, so that the client
// library's `class X extends vscode.Y` and top-level look-ups work.
function standIn() {
  const fn = function () {};
  return new Proxy(fn, {
    get: (target, prop) => (prop === 'prototype' ? target.prototype : prop in target ? target[prop] : standIn()),
    construct: () => standIn(),
    apply: () => standIn(),
  });
}

const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return standIn();
  return load.call(this, request, parent, isMain);
};

const ext = require(require('path').resolve(process.argv[2]));
const missing = ['activate', 'deactivate'].filter((name) => typeof ext[name] !== 'function');
if (missing.length) {
  console.error(`the bundle does not export ${missing.join(' and ')}`);
  process.exit(1);
}
console.log('loaded: exports activate and deactivate');
