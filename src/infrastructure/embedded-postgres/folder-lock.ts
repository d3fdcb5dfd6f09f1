// An exclusive lock file shared by every process that uses one data folder.
//
// The lock appears atomically with its content (written to a private file,
// then hard-linked into place; link fails if the name exists), so a reader
// never sees a half-written holder. A lock whose holder process is gone is
// stale. Breaking a stale lock is itself serialized by a second lock file, so
// two processes that both notice the same stale lock cannot remove the fresh
// lock one of them has just taken. Only the rare case of a breaker dying in
// the microseconds while it holds the break lock is resolved without that
// guarantee (its stale break lock is simply removed).
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentProcess, isRunning, type ProcessIdentity } from './process-identity.js';

export interface HeldLock {
  release(): void;
}

const held = new Map<string, string>();

function ownContent(): string {
  return JSON.stringify({ ...currentProcess, nonce: randomBytes(8).toString('hex') });
}

function readContent(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function holderOf(content: string): ProcessIdentity | null {
  try {
    const parsed = JSON.parse(content) as { pid?: unknown; startTime?: unknown };
    if (typeof parsed.pid !== 'number') return null;
    return { pid: parsed.pid, startTime: typeof parsed.startTime === 'string' ? parsed.startTime : null };
  } catch {
    return null;
  }
}

function isStale(content: string): boolean {
  const holder = holderOf(content);
  return holder === null || !isRunning(holder);
}

function createExclusively(file: string, content: string): boolean {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, content, { mode: 0o600 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

function removeIfUnchanged(file: string, content: string): void {
  if (readContent(file) === content) {
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

function breakStaleLock(lockFile: string, staleContent: string): void {
  const breakFile = `${lockFile}.break`;
  const breakContent = ownContent();
  if (!createExclusively(breakFile, breakContent)) {
    const other = readContent(breakFile);
    if (other !== null && isStale(other)) removeIfUnchanged(breakFile, other);
    return;
  }
  try {
    // Only breakers remove a lock they do not hold, and they take turns, so
    // the content cannot have changed between this check and the unlink.
    removeIfUnchanged(lockFile, staleContent);
  } finally {
    removeIfUnchanged(breakFile, breakContent);
  }
}

function tryTake(lockFile: string): HeldLock | null {
  const content = ownContent();
  if (createExclusively(lockFile, content)) {
    held.set(lockFile, content);
    return {
      release() {
        held.delete(lockFile);
        removeIfUnchanged(lockFile, content);
      },
    };
  }
  const current = readContent(lockFile);
  if (current !== null && isStale(current)) breakStaleLock(lockFile, current);
  return null;
}

function pause(): number {
  return 20 + Math.floor(Math.random() * 40);
}

/** Waits for the lock; null when it stayed busy for timeoutMs. */
export async function takeFolderLock(lockFile: string, timeoutMs: number): Promise<HeldLock | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lock = tryTake(lockFile);
    if (lock) return lock;
    if (Date.now() >= deadline) return null;
    await sleep(pause());
  }
}

/** For 'exit' handlers, where nothing asynchronous runs any more. */
export function takeFolderLockSync(lockFile: string, timeoutMs: number): HeldLock | null {
  const deadline = Date.now() + timeoutMs;
  const waiter = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const lock = tryTake(lockFile);
    if (lock) return lock;
    if (Date.now() >= deadline) return null;
    Atomics.wait(waiter, 0, 0, pause());
  }
}

/** Drops every lock this process holds; used when the process is exiting. */
export function releaseHeldLocksSync(): void {
  for (const [file, content] of held) {
    held.delete(file);
    removeIfUnchanged(file, content);
  }
}
