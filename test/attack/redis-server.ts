/**
 * @module A redis-server the test starts, kills and restarts itself (the binary `scripts/ensure-redis.sh`
 * installs), on a free loopback port that stays the same across restarts. When the binary is missing the
 * Redis tests are skipped with a message, except in CI (`CI=true`), where they fail.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/** The redis-server binary, or null when it is not installed (ensure-redis.sh installs it). */
export function redisBinary(): string | null {
  try {
    execFileSync(new URL('../../scripts/ensure-redis.sh', import.meta.url).pathname, { stdio: 'ignore', timeout: 240_000 });
  } catch {
    // The script prints why; the binary may still be there even if its server could not start.
  }
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** Whether Redis tests must run: in CI a missing redis-server is a failure, never a skip. */
export function requireRedis(binary: string | null): boolean {
  if (binary !== null) return true;
  if (process.env['CI'] === 'true') throw new Error('CI=true and redis-server is not installed: scripts/ensure-redis.sh must install it');
  console.warn('SKIPPED: the Redis attack tests need redis-server (scripts/ensure-redis.sh installs it)');
  return false;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const answers = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
    socket.on('data', (d: Buffer) => (socket.destroy(), resolve(d.toString().startsWith('+PONG'))));
    socket.on('error', () => resolve(false));
  });

/** A redis-server child process on one port. */
export class RedisProcess {
  #child: ChildProcess | null = null;
  private constructor(
    readonly binary: string,
    readonly port: number,
  ) {}

  /** Starts a server on a free port. */
  static async start(binary: string): Promise<RedisProcess> {
    const r = new RedisProcess(binary, await freePort());
    await r.restart();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** (Re)starts the server on the same port and waits until it answers PING. */
  async restart(): Promise<void> {
    this.#child = spawn(this.binary, ['--bind', '127.0.0.1', '--port', String(this.port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (await answers(this.port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not start on port ${this.port}`);
  }

  /** Freezes the server (SIGSTOP): connections stay open, nothing is answered, as a server stuck in a long pause. */
  freeze(): void {
    this.#child?.kill('SIGSTOP');
  }

  /** Lets a frozen server go on (SIGCONT). */
  thaw(): void {
    this.#child?.kill('SIGCONT');
  }

  /** Kills the server (SIGKILL, as a crash) and waits for it to exit. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.#child = null;
  }
}
