// Child processes and temp dirs that never outlive the script that created them.
//
//   spawnGroup(cmd, args, opts)  starts a child in its OWN process group (detached), keeps its output,
//                                 returns { child, output(), waitFor(regex, ms), stop() }; stop() ends the
//                                 whole group (SIGTERM, SIGKILL after 5 s): VS Code's server leaves children.
//   tempDir(prefix)              mkdtemp that is removed on exit (unless KEEP=1).
//   onCleanup(fn) / cleanup()    everything registered is undone on normal exit, on SIGINT/SIGTERM and on
//                                 uncaught errors, in reverse order.
//   exitWhenOrphaned()           same cleanup when the parent dies (npm killed, sh does not forward signals)
//   setSignalExitCode(n)         exit code used after a signal (default 130)
//   freePort(preferred)          the preferred port if free, else any free 127.0.0.1 port.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const cleanups = [];
let cleaning = null;
let signalExitCode = 130;
/** Exit code after SIGINT/SIGTERM (npm start: 0, Ctrl-C is the normal way to stop it). */
export function setSignalExitCode(code) {
  signalExitCode = code;
}

export function onCleanup(fn) {
  cleanups.push(fn);
}

export function cleanup() {
  cleaning ??= (async () => {
    while (cleanups.length) {
      try {
        await cleanups.pop()();
      } catch (e) {
        console.error('[harness] cleanup:', e.message);
      }
    }
  })();
  return cleaning;
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    cleanup().finally(() => process.exit(signalExitCode));
  });
}
process.on('uncaughtException', (e) => {
  console.error(e);
  cleanup().finally(() => process.exit(1));
});
process.on('unhandledRejection', (e) => {
  console.error(e);
  cleanup().finally(() => process.exit(1));
});
// Last resort for a plain process.exit() without awaiting cleanup(): synchronously kill groups.
const groups = new Set();
process.on('exit', () => {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

/**
 * Cleans up and exits when the parent process goes away. `npm start` runs us under `sh -c`, and a SIGTERM
 * to npm kills sh without reaching us: without this we would keep the servers running as orphans.
 */
export function exitWhenOrphaned() {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) cleanup().finally(() => process.exit(signalExitCode));
  }, 1000).unref();
}

export function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  onCleanup(() => {
    if (!process.env.KEEP) fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

export function freePort(preferred = 0) {
  const tryPort = (port) =>
    new Promise((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(null));
      srv.listen(port, '127.0.0.1', () => {
        const p = srv.address().port;
        srv.close(() => resolve(p));
      });
    });
  return tryPort(preferred).then((p) => p ?? tryPort(0));
}

export function spawnGroup(name, cmd, args, { env = process.env, cwd, echo = !!process.env.VERBOSE } = {}) {
  const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  groups.add(child.pid);
  let out = '';
  const onData = (d) => {
    out += d;
    if (echo) process.stderr.write(`[${name}] ${d}`);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));

  const waitFor = (regex, ms = 60000) =>
    new Promise((resolve, reject) => {
      const t0 = Date.now();
      const iv = setInterval(() => {
        const m = out.match(regex);
        if (m) {
          clearInterval(iv);
          resolve(m);
        } else if (child.exitCode !== null || child.signalCode) {
          clearInterval(iv);
          reject(
            new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before ${regex}:\n${out.slice(-3000)}`),
          );
        } else if (Date.now() - t0 > ms) {
          clearInterval(iv);
          reject(new Error(`${name}: no ${regex} after ${ms} ms:\n${out.slice(-3000)}`));
        }
      }, 50);
    });

  const stop = async () => {
    if (!groups.has(child.pid)) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
    // The leader may exit before its children: make sure nothing of the group is left.
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    groups.delete(child.pid);
  };
  onCleanup(stop);
  return { child, output: () => out, waitFor, stop, exited };
}
