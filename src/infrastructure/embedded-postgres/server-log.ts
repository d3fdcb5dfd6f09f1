// initdb and the postmaster write to a log file in the data folder, never to
// our stdout/stderr: the CLI's stdout carries JSON only.
import { closeSync, openSync, readFileSync } from 'node:fs';
import type { FolderLayout } from './folder-layout.js';

/** An append descriptor for a child's stdout and stderr; close it after spawn. */
export function openServerLog(layout: FolderLayout): number {
  return openSync(layout.logFile, 'a', 0o600);
}

export function closeServerLog(fd: number): void {
  closeSync(fd);
}

export function serverLogTail(layout: FolderLayout, lines = 25): string {
  try {
    const text = readFileSync(layout.logFile, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** The environment for server binaries: fixed English messages, nothing of ours (PG* variables) leaking in. */
export function serverEnvironment(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LC_ALL: 'C',
    LANG: 'C',
    ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
  };
}
