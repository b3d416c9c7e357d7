import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who holds a pending Idempotency-Key claim: `<machine>:<pid>:<start>`. `machine` names one
 * process table (host name, kernel boot and PID namespace together), `start` is the process's
 * start time in clock ticks since boot, so a PID reused by a later process is not mistaken for the
 * claimer. Where these cannot be read (not Linux), the owner is `-` and only the lease frees a claim.
 */
export interface ProcessIdentity {
  machine: string;
  pid: number;
  start: string;
}

/** Reads `/proc/<pid>/stat`: the start time, or undefined when there is no such live process. */
function startOf(pid: number | 'self'): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  if (state === 'Z' || state === 'X' || state === 'x') return undefined; // killed, not yet reaped
  return fields[19]; // field 22 of the whole line: starttime
}

function readIdentity(): ProcessIdentity | null {
  try {
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const pidNamespace = readlinkSync('/proc/self/ns/pid');
    const start = startOf('self');
    if (!bootId || !start) return null;
    const machine = createHash('sha256')
      .update(`${hostname()}\n${bootId}\n${pidNamespace}`)
      .digest('hex')
      .slice(0, 16);
    return { machine, pid: process.pid, start };
  } catch {
    return null;
  }
}

let own: ProcessIdentity | null | undefined;

/** This process, as it is recorded on the claims it takes. */
export function ownIdentity(): ProcessIdentity | null {
  if (own === undefined) own = readIdentity();
  return own;
}

export function formatOwner(identity: ProcessIdentity | null): string {
  return identity ? `${identity.machine}:${identity.pid}:${identity.start}` : '-';
}

/**
 * True only when the claimer is known to be gone: it ran in this process table and no process
 * with its PID and start time is alive any more. Any doubt (another machine, unreadable owner)
 * answers false, and the claim waits for its lease.
 */
export function ownerIsGone(owner: string | null): boolean {
  const mine = ownIdentity();
  if (!mine || !owner) return false;
  const [machine, pidText, start] = owner.split(':');
  if (machine !== mine.machine || !/^[0-9]+$/.test(pidText ?? '') || !start) return false;
  const pid = Number(pidText);
  if (pid === mine.pid && start === mine.start) return false; // this very process (another thread)
  return startOf(pid) !== start;
}
