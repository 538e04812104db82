/**
 * "Go to revert": opens the place a call reverted, marks the line (a theme-coloured background, a gutter-side
 * ruler mark and the reason after the line's end) and gives it a hover with the reason, the transaction and a link
 * back to the inspector. A mark goes when the user clears it ("Hedera: Clear Revert Marks") or edits its line.
 * Places outside the workspace's own files open read-only (./sourceDocuments.ts). A workspace file whose text is no
 * longer the compiled one opens as the compiled text instead (read-only), so the line is the line that reverted.
 */
import * as vscode from 'vscode';
import { Command } from '../../api/commands';
import { ContextKey, setContext } from '../../core/contextKeys';
import { DisposableStore } from '../../core/disposables';
import { inert, mdEscape, oneLine } from '../../api/text';
import type { SourceTarget } from './revertSource';
import type { SourceDocuments } from './sourceDocuments';

export interface RevertMark {
  uri: vscode.Uri;
  range: vscode.Range;
  reason?: string;
  /** Where the step trace that placed it came from ("Traced by the mirror node", "Replayed locally · …"). */
  tracedBy?: string;
  /** The transaction (as Inspect Transaction takes it) and the network its panel is on. */
  transaction?: { ref: string; network: string };
}

const INSPECT = Command.inspectTransaction;

export class RevertMarks implements vscode.Disposable {
  private readonly marks = new Map<string, RevertMark>();
  private readonly decoration: vscode.TextEditorDecorationType;
  private readonly disposables = new DisposableStore();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly documents: SourceDocuments) {
    this.decoration = vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.errorForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Right,
      after: { color: new vscode.ThemeColor('editorError.foreground'), margin: '0 0 0 2em', fontStyle: 'italic' },
    });
    this.disposables.add(
      this.decoration,
      this.changed,
      vscode.window.onDidChangeVisibleTextEditors(() => this.paint()),
      // editing the marked line removes its mark (the line may no longer be the one that reverted)
      vscode.workspace.onDidChangeTextDocument((e) => {
        const m = this.marks.get(e.document.uri.toString());
        if (
          m &&
          e.contentChanges.some(
            (c) =>
              c.range.start.line <= m.range.end.line &&
              c.range.end.line >= m.range.start.line - (c.text.includes('\n') ? 1 : 0),
          )
        )
          this.clear(e.document.uri);
        else if (m && e.contentChanges.length) this.shift(e, m);
      }),
      vscode.languages.registerHoverProvider(
        [{ scheme: 'file' }, { scheme: 'hedera-source' }, { scheme: 'vscode-remote' }],
        { provideHover: (doc, pos) => this.hover(doc, pos) },
      ),
    );
  }

  /** The marks now (tests). */
  list(): RevertMark[] {
    return [...this.marks.values()];
  }

  /** Opens a place and marks it. The workspace's own file when it still holds the compiled text, else that text read-only. */
  async open(target: SourceTarget, transaction: RevertMark['transaction']): Promise<vscode.TextEditor> {
    let uri = target.uri;
    const compiled = target.compiled;
    if (!target.readonly && compiled) {
      const current = await vscode.workspace.fs.readFile(uri).then(
        (b) => new TextDecoder().decode(b),
        () => undefined,
      );
      // edited since the build (or gone): the compiled text, so that the line is the one that reverted
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const text = open?.isDirty ? open.getText() : current;
      if (text !== compiled.content) uri = this.documents.add(compiled.sourceName, compiled.content);
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    if (uri.scheme === 'hedera-source' && doc.languageId !== 'solidity') {
      try {
        await vscode.languages.setTextDocumentLanguage(doc, 'solidity');
      } catch {
        // no Solidity language installed: plain text
      }
    }
    const line = Math.min(target.range.start.line, Math.max(0, doc.lineCount - 1));
    const range = new vscode.Range(line, 0, line, doc.lineAt(line).text.length);
    const editor = await vscode.window.showTextDocument(doc, {
      selection: new vscode.Range(line, target.range.start.character, line, target.range.start.character),
      preview: true,
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.marks.set(doc.uri.toString(), {
      uri: doc.uri,
      range,
      reason: target.reason,
      tracedBy: target.tracedBy,
      transaction,
    });
    this.paint();
    this.announce();
    return editor;
  }

  /** Removes the mark of one document, or every mark. */
  clear(uri?: vscode.Uri): void {
    if (uri) this.marks.delete(uri.toString());
    else this.marks.clear();
    this.paint();
    this.announce();
  }

  /** Listeners, and "Clear Revert Marks" in the palette only while there is a mark to clear. */
  private announce(): void {
    setContext(ContextKey.hasRevertMarks, this.marks.size > 0);
    this.changed.fire();
  }

  private shift(e: vscode.TextDocumentChangeEvent, m: RevertMark): void {
    // lines added or removed above the mark move it
    let delta = 0;
    for (const c of e.contentChanges) {
      if (c.range.end.line < m.range.start.line)
        delta += (c.text.match(/\n/g)?.length ?? 0) - (c.range.end.line - c.range.start.line);
    }
    if (!delta) return;
    const line = m.range.start.line + delta;
    m.range = new vscode.Range(line, 0, line, e.document.lineAt(Math.min(line, e.document.lineCount - 1)).text.length);
    this.paint();
  }

  private paint(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const m = this.marks.get(editor.document.uri.toString());
      const text = m?.reason ? ` ⟵ ${inert(oneLine(m.reason, 120), 'label')}` : ` ⟵ ${vscode.l10n.t('reverted here')}`;
      editor.setDecorations(
        this.decoration,
        m ? [{ range: m.range, renderOptions: { after: { contentText: text } } }] : [],
      );
    }
  }

  private hover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const m = this.marks.get(doc.uri.toString());
    if (!m || pos.line !== m.range.start.line) return undefined;
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${mdEscape(vscode.l10n.t('Reverted here'))}**`);
    if (m.reason) md.appendMarkdown(`: ${mdEscape(oneLine(m.reason, 300))}`);
    if (m.tracedBy) md.appendMarkdown(`\n\n${mdEscape(oneLine(m.tracedBy, 300))}`);
    if (m.transaction) {
      const args = encodeURIComponent(
        JSON.stringify([{ transactionId: m.transaction.ref, network: m.transaction.network }]),
      );
      // a code span shows its text as it is: only a ref of id / hash / timestamp characters goes in one
      const ref = /^[0-9A-Za-z.@-]{1,120}$/.test(m.transaction.ref)
        ? `\`${m.transaction.ref}\``
        : mdEscape(m.transaction.ref);
      md.appendMarkdown(
        `\n\n${mdEscape(vscode.l10n.t('Transaction'))} ${ref} · [${mdEscape(vscode.l10n.t('Open in the inspector'))}](command:${INSPECT}?${args})`,
      );
      // only our command, with the arguments above (checked again by the command)
      md.isTrusted = { enabledCommands: [INSPECT] };
    }
    return new vscode.Hover(md, m.range);
  }

  dispose(): void {
    this.disposables.dispose();
    if (this.marks.size) setContext(ContextKey.hasRevertMarks, false);
    this.marks.clear();
  }
}
