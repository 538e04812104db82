// A throw-away VS Code profile in a temp dir (removed on exit), so nothing is written into $HOME.
//
//   makeProfile(prefix, settings) -> { dir, userDataDir, extensionsDir, serverDataDir, configFile, env }
//     userDataDir/User/settings.json  QUIET_SETTINGS + the given settings
//     configFile                      code-server's --config (else it creates ~/.config/code-server)
//     env                             process env with XDG_DATA_HOME / XDG_CONFIG_HOME / XDG_CACHE_HOME
//                                     (code-server, Chromium) and TMPDIR (the server's sockets) in the dir
//   languagePack(userDataDir, language)  an empty language pack registered, so that VS Code can run in `language`
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './processes.mjs';

/** User settings that keep the workbench quiet and offline-friendly. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': 'off', // the workbench migrates false to 'off' (rewriting the file)
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'window.restoreWindows': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

export function makeProfile(prefix, settings = {}) {
  const dir = tempDir(prefix);
  const p = {
    dir,
    userDataDir: path.join(dir, 'user-data'),
    extensionsDir: path.join(dir, 'extensions'),
    serverDataDir: path.join(dir, 'server-data'),
    configFile: path.join(dir, 'code-server.yaml'),
  };
  for (const d of ['xdg-data', 'xdg-config', 'xdg-cache', 'tmp', 'extensions'])
    fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.mkdirSync(path.join(p.userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(p.userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2),
  );
  fs.writeFileSync(p.configFile, 'auth: none\ncert: false\n');
  p.env = {
    ...process.env,
    XDG_DATA_HOME: path.join(dir, 'xdg-data'),
    XDG_CONFIG_HOME: path.join(dir, 'xdg-config'),
    XDG_CACHE_HOME: path.join(dir, 'xdg-cache'),
    TMPDIR: path.join(dir, 'tmp'),
  };
  return p;
}

/**
 * The web workbench takes a display language other than English (--locale) only from an installed language pack (the
 * server hands it the pack's messages, and the language comes with them); without one it stays English and extensions
 * get `vscode.env.language` "en". An empty pack (no VS Code message translated) registered in the profile's
 * languagepacks.json, as an installed language pack extension would be, gives the language alone.
 */
export function languagePack(userDataDir, language) {
  if (language.startsWith('en')) return;
  const translations = path.join(userDataDir, 'languagepack', 'main.i18n.json');
  fs.mkdirSync(path.dirname(translations), { recursive: true });
  fs.writeFileSync(translations, JSON.stringify({ contents: {} }));
  const pack = {
    hash: 'hedera-test',
    extensions: [{ extensionIdentifier: { id: 'hedera-test.language-pack' }, version: '1.0.0' }],
    translations: { vscode: translations },
    label: language,
  };
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify({ [language]: pack }));
}
