/**
 * The Verification view's and commands' ids: imported by the view (dist/main.js) and by the lazily loaded
 * verification (dist/verify.js) without pulling the view's code into that chunk.
 */
export const VERIFICATION_VIEW = 'hederaExplorer.verification';
export const VERIFY_COMMAND = 'hederaExplorer.verifyContract';
export const CMD = {
  rerun: 'hederaExplorer.verification.rerun',
  clear: 'hederaExplorer.verification.clear',
  showKept: 'hederaExplorer.verification.showKept',
  copyAddress: 'hederaExplorer.verification.copyAddress',
  copyPath: 'hederaExplorer.verification.copyPath',
  copyResult: 'hederaExplorer.verification.copyResult',
  openFile: 'hederaExplorer.verification.openFile',
  openInHashScan: 'hederaExplorer.verification.openInHashScan',
} as const;
