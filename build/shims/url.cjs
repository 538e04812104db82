// `url` for the browser build: @vscode/debugadapter uses only its URL class, which web workers have.
module.exports = { URL: globalThis.URL };
