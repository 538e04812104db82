/**
 * The inspector panels' webview type (package.json's `onWebviewPanel:` activation event names it too). In its own
 * file so that the eager part (`index.ts`, the serializer) takes it without loading the panel's code.
 */
export const VIEW_TYPE = 'hederaExplorer.inspector';

export { COMPILE_CACHE } from '../../core/compileCache';
