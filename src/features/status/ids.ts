/** The status feature's contributed ids (package.json): its view, its status bar item and its commands (src/api/commands.ts). */
import { Command } from '../../api/commands';

export const STATUS_VIEW_ID = 'hederaExplorer.status';
export const STATUS_BAR_ID = 'hederaExplorer.networkStatus';
export const CMD_FOCUS_VIEW = 'hederaExplorer.status.focus';
export const CMD_REFRESH = Command.statusRefresh;
export const CMD_OPEN_LINK = Command.statusOpenLink;
export const CMD_COPY_LINK = Command.statusCopyLink;
/** True while the status page cannot be reached and nothing is known: the view shows that state's welcome. */
