/**
 * The compiler output of a deployed build the workspace holds the input of only (Hardhat 3: Ignition's copy of a
 * build-profile build), produced with the compiler of that exact version the machine already has (Hardhat's
 * compiler cache, Foundry's svm, or the workspace's npm `solc`: src/workspace/compiler.ts): only in a trusted
 * workspace (in Restricted Mode a sentence and a button offer to trust the folder), in a child process, with progress
 * and Cancel, cached on disk (the extension's global storage) by the compiler version and the input. Otherwise one
 * sentence says what to run. Nothing is downloaded. Revert to source and the debugger both need it; each says in its
 * own words what happens next.
 */
import * as vscode from 'vscode';
import { attachOutput, type BuildInfo } from '../workspace/buildInfo';
import { localCompile } from '../workspace/platform/node';
import { COMPILE_CACHE } from './compileCache';

/** What a feature that needs the outputs tells the compile step. */
export interface MissingOutputsHost {
  /** The extension's global storage: the outputs are kept in its COMPILE_CACHE folder. */
  globalStorageUri: vscode.Uri;
  log: { info(line: string): void; warn(line: string): void };
  /** The feature, first in its log lines ("Revert to source"). */
  feature: string;
  /** What happens once the folder is trusted (in Restricted Mode's sentence). */
  afterTrust: string;
  /** How to compile after a Cancel. */
  toRetry: string;
}

/** What to run when the extension cannot produce the output itself. */
export const BUILD_HINT = 'npx hardhat build --build-profile production';

export class MissingOutputs {
  /** One production per build (several frames, several panels ask for the same one). */
  private readonly running = new Map<BuildInfo, Promise<true | { problem: string }>>();

  /** Whether this window already offered to trust the folder (once: every frame and panel may ask). */
  private offered = false;

  constructor(private readonly host: MissingOutputsHost) {}

  /** Restricted Mode: says what trust would give, with a button to VS Code's trust editor. */
  private offerTrust(file: string): void {
    if (this.offered) return;
    this.offered = true;
    const manage = vscode.l10n.t('Manage Workspace Trust');
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t(
          'Trust this folder to compile {0}: the deployed build holds only its compiler input, and Restricted Mode runs no compiler.',
          file,
        ),
        manage,
      )
      .then((choice) => {
        if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
      });
  }

  /**
   * Adds the compiler output to `build` (attachOutput) or says why it could not. `folderPaths`: the workspace
   * folders on disk (their node_modules may hold npm `solc`).
   */
  produce(build: BuildInfo, folderPaths: readonly string[]): Promise<true | { problem: string }> {
    let p = this.running.get(build);
    if (!p) {
      p = this.run(build, folderPaths).finally(() => this.running.delete(build));
      this.running.set(build, p);
    }
    return p;
  }

  private async run(build: BuildInfo, folderPaths: readonly string[]): Promise<true | { problem: string }> {
    const version = build.compilerVersion;
    if (!localCompile)
      return {
        problem: vscode.l10n.t(
          '{0} holds only the compiler input, and VS Code for the web cannot run a compiler: run {1} in a desktop VS Code or a terminal, commit the output, and try again.',
          build.file,
          BUILD_HINT,
        ),
      };
    if (!vscode.workspace.isTrusted) {
      this.offerTrust(build.file);
      return {
        problem: vscode.l10n.t(
          '{0} holds only the compiler input, and compiling it runs a compiler the workspace may provide. Trust this folder to compile it (Manage Workspace Trust; {2}), or run {1} and try again.',
          build.file,
          BUILD_HINT,
          this.host.afterTrust,
        ),
      };
    }
    if (!version)
      return {
        problem: vscode.l10n.t(
          '{0} holds only the compiler input and does not say its compiler version: run {1} and try again.',
          build.file,
          BUILD_HINT,
        ),
      };
    try {
      const r = await localCompile(version, build.input, {
        workspaceRoots: [...folderPaths],
        cacheDir: vscode.Uri.joinPath(this.host.globalStorageUri, COMPILE_CACHE).fsPath,
        run: (compiler, compile) => {
          this.host.log.info(
            `${this.host.feature}: compiling ${build.file} with solc ${version} from ${compiler.where}.`,
          );
          return vscode.window.withProgress(
            {
              location: vscode.ProgressLocation.Notification,
              cancellable: true,
              title: vscode.l10n.t('Compiling the deployed build {0} with solc {1}', build.file, version),
            },
            (progress, token) => {
              progress.report({ message: vscode.l10n.t('from {0}…', compiler.where) });
              const abort = new AbortController();
              const sub = token.onCancellationRequested(() => abort.abort());
              return compile(abort.signal).finally(() => sub.dispose());
            },
          );
        },
      });
      if ('missing' in r) {
        return {
          problem: vscode.l10n.t(
            "{0} holds only the compiler input, and solc {1} is not on this machine (Hardhat's compiler cache, Foundry's svm, node_modules/solc): run {2} and try again.",
            build.file,
            version,
            BUILD_HINT,
          ),
        };
      }
      if ('errors' in r) {
        this.host.log.warn(`${this.host.feature}: solc ${version} failed on ${build.file}: ${r.errors[0]}`);
        return {
          problem: vscode.l10n.t(
            'solc {0} could not compile {1} ({2} errors; see the log): run {3} and try again.',
            version,
            build.file,
            String(r.errors.length),
            BUILD_HINT,
          ),
        };
      }
      if (!attachOutput(build, r.output).output)
        return {
          problem: vscode.l10n.t(
            'solc {0} compiled {1} but gave no contracts: run {2} and try again.',
            version,
            build.file,
            BUILD_HINT,
          ),
        };
      if (r.cached) this.host.log.info(`${this.host.feature}: the output of ${build.file} read from the cache.`);
      return true;
    } catch (e) {
      if (e instanceof Error && e.name === 'AbortError')
        return {
          problem: vscode.l10n.t(
            'Compiling {0} was cancelled: run {1}, or {2}.',
            build.file,
            BUILD_HINT,
            this.host.toRetry,
          ),
        };
      this.host.log.warn(
        `${this.host.feature}: compiling ${build.file} failed: ${e instanceof Error ? e.message : String(e)}`,
      );
      return {
        problem: vscode.l10n.t(
          'Compiling {0} with solc {1} failed (see the log): run {2} and try again.',
          build.file,
          version,
          BUILD_HINT,
        ),
      };
    }
  }
}
