/**
 * The Deployments feature's lazy entry (LAZY_ENTRIES in esbuild.js): the records and lookups (model.ts), the view's
 * rows (view.ts) and the CodeLens (codeLens.ts), loaded with the view's first rows or the first Solidity file shown,
 * not at activation. Everything else imports these with `import type`.
 */
export { DeploymentsModel } from './model';
export { DeploymentsTree } from './view';
export { DeploymentLenses, DeploymentLens } from './codeLens';
export { runCommand } from './commands';
