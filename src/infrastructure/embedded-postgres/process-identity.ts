// Is a process still the one we recorded? A pid alone is not enough: pids are
// reused, and on machines whose init does not reap orphans a dead process
// lingers as a zombie that still answers kill(pid, 0). On Linux the start time
// from /proc tells a reused pid apart and the state field tells a zombie.
import { readFileSync, readlinkSync } from 'node:fs';

export interface ProcessIdentity {
  readonly pid: number;
  /** Start time in clock ticks since boot (Linux); null where /proc is absent. */
  readonly startTime: string | null;
}

interface ProcStat {
  readonly state: string;
  readonly startTime: string;
}

function readProcStat(pid: number): ProcStat | null | 'unsupported' {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return process.platform === 'linux' ? null : 'unsupported';
    }
    return 'unsupported';
  }
  // The command name (field 2) may contain spaces and parentheses; the fields
  // after the last ')' are fixed: state is field 3, starttime field 22.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  if (state === undefined || startTime === undefined) return 'unsupported';
  return { state, startTime };
}

export function identityOf(pid: number): ProcessIdentity {
  const stat = readProcStat(pid);
  return { pid, startTime: stat !== null && stat !== 'unsupported' ? stat.startTime : null };
}

export const currentProcess: ProcessIdentity = identityOf(process.pid);

export function isRunning(process_: ProcessIdentity): boolean {
  const { pid } = process_;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const stat = readProcStat(pid);
  if (stat === null) return false;
  if (stat !== 'unsupported') {
    if (stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
    return process_.startTime === null || process_.startTime === stat.startTime;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The directory a process runs in, where the platform tells us (Linux). */
export function workingDirectoryOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}
