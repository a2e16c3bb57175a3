import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openDataFolder(): void;
  openApiDocs(): void;
  quit(): void;
}

/**
 * The app's own small menu: open the data folder, the API docs, zoom, quit. No devtools and no
 * reload unless the debug switch is on; in kiosk mode there is no menu at all (see window.ts).
 */
export function menuTemplate(actions: MenuActions, options: { debug: boolean; isMac: boolean }): MenuItemConstructorOptions[] {
  const station: MenuItemConstructorOptions = {
    label: 'Station',
    submenu: [
      { label: 'Open Data Folder', click: () => actions.openDataFolder() },
      { label: 'API Documentation', click: () => actions.openApiDocs() },
      { type: 'separator' },
      { label: 'Quit', accelerator: 'CmdOrCtrl+Q', click: () => actions.quit() },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { role: 'resetZoom' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
      ...(options.debug ? ([{ type: 'separator' }, { role: 'reload' }, { role: 'toggleDevTools' }] as MenuItemConstructorOptions[]) : []),
    ],
  };
  // macOS keeps copy and paste shortcuts in the Edit menu: without it they stop working in text fields.
  const edit: MenuItemConstructorOptions = { role: 'editMenu' };
  return options.isMac ? [{ role: 'appMenu' }, station, edit, view] : [station, edit, view];
}
