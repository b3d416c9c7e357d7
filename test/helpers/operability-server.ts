import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

/** A `tv2 serve` (or `npm start`) child process with its log lines and exit. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** JSON log lines so far (stdout). */
  lines: Array<Record<string, unknown>>;
  stderr(): string;
  /** Resolves with the exit code (null when ended by a signal). */
  exited: Promise<number | null>;
  /** Waits until a log line's msg matches. */
  waitForLog(pattern: RegExp): Promise<Record<string, unknown>>;
}

/**
 * Starts a process and waits until Fastify logs "Server listening at http://host:port" (PORT=0
 * lets the system choose the port). The process's output is JSON lines (not a terminal).
 */
export async function startServerProcess(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<ServerProcess> {
  const child = spawn(command, args, {
    env: { ...process.env, LOG_FORMAT: 'json', LOG_LEVEL: 'info', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: Record<string, unknown>) => void }> = [];
  let buffered = '';
  let errText = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const text = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf('\n');
      if (!text.startsWith('{')) continue;
      const line = JSON.parse(text) as Record<string, unknown>;
      lines.push(line);
      for (const w of waiters.splice(0)) {
        if (w.pattern.test(String(line.msg))) w.resolve(line);
        else waiters.push(w);
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    errText += chunk;
  });
  // 'close': the process ended and its output has been read to the end
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waitForLog = (pattern: RegExp) => {
    const seen = lines.find((l) => pattern.test(String(l.msg)));
    if (seen) return Promise.resolve(seen);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      waiters.push({ pattern, resolve });
      void exited.then((code) =>
        reject(new Error(`the server exited (${code}) before logging ${pattern}: ${errText}`)),
      );
    });
  };
  const listening = await waitForLog(/^Server listening at http:\/\/127\.0\.0\.1:/);
  const port = Number(/:(\d+)$/.exec(String(listening.msg))?.[1]);
  return { child, port, lines, stderr: () => errText, exited, waitForLog };
}

export interface Answer {
  status: number;
  body: string;
}

/**
 * An HTTP request on a connection of its own; `sent` resolves once the whole request has been
 * handed to the kernel (it is then in the server's socket buffer or accept queue).
 */
export function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): { sent: Promise<void>; answer: Promise<Answer> } {
  let markSent: () => void = () => {};
  const sent = new Promise<void>((resolve) => {
    markSent = resolve;
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.on('finish', markSent);
    req.end(body);
  });
  return { sent, answer };
}

/** A request whose headers and the start of whose body are sent; the rest waits for `finish()`. */
export async function startSlowUpload(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ socket: Socket; finish(): void; answer: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  const answer = new Promise<string>((resolve) => {
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      received += c;
    });
    socket.on('close', () => resolve(received));
    socket.on('error', () => {});
  });
  const head = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  socket.write(head + body.slice(0, 1));
  return { socket, finish: () => socket.write(body.slice(1)), answer };
}

/** Whether a new TCP connection to the port is accepted. */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether a process id is alive (and not a zombie). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
