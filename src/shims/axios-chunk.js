// Entry of dist/axios.js (see LAZY_CHUNKS in esbuild.js): axios's CommonJS build, loaded by src/api/http.ts on the
// first request instead of with the extension.
module.exports = require('axios');
