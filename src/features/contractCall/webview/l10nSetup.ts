/**
 * The page's translations: the host writes VS Code's bundle of the extension's messages into a JSON block
 * (src/ui/webviewPanel.ts, absent in English). Imported first by the page's main module, so that @vscode/l10n has
 * them before any other module runs.
 */
import * as l10n from '@vscode/l10n';

const data = document.getElementById('hedera-l10n')?.textContent;
if (data) {
  try {
    l10n.config({ contents: data });
  } catch {
    // an unreadable block: the page stays in English
  }
}
