/**
 * Bundle shim for axios's optional `form-data` dependency. The extension never sends multipart bodies, and the
 * real module pulls in mime-db (about 140 KB minified). axios only uses this class for `instanceof` checks and
 * for building multipart bodies, which we never ask for.
 */
export default class FormData {
  constructor() {
    throw new Error('multipart bodies are not supported in this build');
  }
}
