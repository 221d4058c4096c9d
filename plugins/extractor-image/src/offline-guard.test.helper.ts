// Test support, not shipped: a guard that refuses every outgoing network connection except to loopback.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What the guard writes to stderr for each connection it refuses. */
export const refusedMarker = 'OFFLINE-GUARD-REFUSED';

/**
 * Plain JavaScript, because it is also preloaded (`node --import`) into every thread of a child
 * process, tesseract.js's own thread included, where no TypeScript loader is ready yet. It wraps
 * net.Socket#connect (which http, https, tls and the built-in fetch all go through) and fetch itself
 * (so a URL is refused before its host name is even looked up).
 */
const guardModuleSource = `
import net from 'node:net';

function isLoopback(host) {
  if (host === undefined || host === '' || host === 'localhost') return true;
  const bare = host.replace(/^\\[|\\]$/g, '');
  return /^127\\./.test(bare) || bare === '::1' || /^::ffff:127\\./i.test(bare);
}

// Where a Socket#connect call goes, or null for loopback and local (Unix socket, pipe) connections.
function remoteTarget(args) {
  // net.connect() hands Socket#connect its arguments already normalised, as an array.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === 'string') return null;
  if (typeof first === 'number') {
    const host = typeof args[1] === 'string' ? args[1] : undefined;
    return isLoopback(host) ? null : args[1] + ':' + first;
  }
  const options = first ?? {};
  if (options.path !== undefined) return null;
  return isLoopback(options.host) ? null : options.host + ':' + options.port;
}

export function installOfflineGuard(report) {
  const originalConnect = net.Socket.prototype.connect;
  const originalFetch = globalThis.fetch;
  net.Socket.prototype.connect = function guardedConnect(...args) {
    const target = remoteTarget(args);
    if (target !== null) {
      report(target);
      throw new Error('offline guard: outgoing connection to ' + target + ' refused');
    }
    return originalConnect.apply(this, args);
  };
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== 'file:' && !isLoopback(url.hostname)) {
      report(url.href);
      throw new Error('offline guard: fetch of ' + url.href + ' refused');
    }
    return originalFetch(input, init);
  };
  return () => {
    net.Socket.prototype.connect = originalConnect;
    globalThis.fetch = originalFetch;
  };
}
`;

// Reports with a synchronous write to fd 2: it works from any thread and is not lost if the thread dies next.
const preloadSource = `
import { writeSync } from 'node:fs';
import { installOfflineGuard } from './offline-guard.mjs';
installOfflineGuard((target) => writeSync(2, '${refusedMarker} ' + target + '\\n'));
`;

export type InstallOfflineGuard = (report: (target: string) => void) => () => void;

/** Writes the guard into dir: a module to install it in this thread, and a preload for `node --import`. */
export async function writeOfflineGuard(
  dir: string,
): Promise<{ installOfflineGuard: InstallOfflineGuard; preloadUrl: string }> {
  await writeFile(join(dir, 'offline-guard.mjs'), guardModuleSource);
  await writeFile(join(dir, 'offline-guard-preload.mjs'), preloadSource);
  const guard = (await import(pathToFileURL(join(dir, 'offline-guard.mjs')).href)) as {
    installOfflineGuard: InstallOfflineGuard;
  };
  return {
    installOfflineGuard: guard.installOfflineGuard,
    preloadUrl: pathToFileURL(join(dir, 'offline-guard-preload.mjs')).href,
  };
}
