/** The status feature's contributed ids (package.json): its view, its status bar item and its commands. */
export const STATUS_VIEW_ID = 'hederaExplorer.status';
export const STATUS_BAR_ID = 'hederaExplorer.networkStatus';
export const CMD_FOCUS_VIEW = 'hederaExplorer.status.focus';
export const CMD_REFRESH = 'hederaExplorer.status.refresh';
export const CMD_OPEN_LINK = 'hederaExplorer.status.openLink';
export const CMD_COPY_LINK = 'hederaExplorer.status.copyLink';
