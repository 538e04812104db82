/**
 * The one `require('vscode')` of the extension bundle. Every module of the extension writes
 * `import * as vscode from 'vscode'`; the extension build (esbuild.js, `oneVscodeRequire`) points those imports
 * here, so that the bundle asks the extension host for the API once. Each `require('vscode')` goes through VS
 * Code's module interceptor, which looks the caller's extension up by file path: about 50 µs a call in the
 * activation bench, and the bundle's modules made 25 such calls while loading.
 */
import vscode = require('vscode');
export = vscode;
