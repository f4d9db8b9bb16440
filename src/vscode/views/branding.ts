/**
 * A running server's website and icons as the Servers view shows them, checked once per connection:
 * `serverInfo` is one object for the life of a connection, and the icon check decodes and hashes up
 * to 16 images, which a repaint must not redo.
 */
import { serverIcons, serverWebsite, type ServerConnection, type ServerIcons, type ServerWebsite } from '../../core';

export interface Branding { readonly icons?: ServerIcons; readonly website?: ServerWebsite }

const checked = new WeakMap<object, Branding>();

/** What of `conn`'s serverInfo may be shown; nothing for a server that is not connected. */
export function brandingOf(conn: ServerConnection): Branding {
  const info = conn.serverInfo;
  if (!info) return {};
  let b = checked.get(info);
  if (!b) {
    b = { icons: serverIcons(info), website: serverWebsite(info) };
    checked.set(info, b);
  }
  return b;
}

/** The icon files the running servers show now (kept when the folder is pruned). */
export function iconFilesInUse(servers: readonly ServerConnection[]): Set<string> {
  const names = new Set<string>();
  for (const conn of servers) {
    if (conn.state !== 'running') continue;
    const icons = brandingOf(conn).icons;
    if (icons) names.add(icons.light.fileName).add(icons.dark.fileName);
  }
  return names;
}
