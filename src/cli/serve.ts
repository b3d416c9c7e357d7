import closeWithGrace from 'close-with-grace';
import { type Running, startApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { startupFailure } from './startup-errors.ts';

/**
 * `tv2 serve`: start, listen, and on SIGTERM or SIGINT shut down gracefully: stop accepting, answer
 * every request already received, close the database, exit 0. Past TV2_SHUTDOWN_TIMEOUT_SECONDS
 * (or on a second signal) the process exits 1 anyway. A start-up failure an operator can fix is one
 * line on stderr naming the cause and the setting, and exit code 1.
 */
export async function serve(env: NodeJS.ProcessEnv, opts: { demo: boolean }): Promise<void> {
  let config: Config | undefined;
  let running: Running | undefined;
  let stopping = false;
  try {
    config = loadConfig(env);
    config.demo = opts.demo && env.TV2_DEMO !== '0';
    running = await startApp(config);
    // Signals are handled from before the port opens: a SIGTERM that arrives as soon as the port
    // accepts connections still shuts down gracefully (before, it could arrive ahead of the
    // handler and end the process at once, without closing the database).
    handleSignals(running, config, () => {
      stopping = true;
    });
    await running.app.listen({ host: config.host, port: config.port });
  } catch (error) {
    if (stopping) return; // a signal came during start-up: the shutdown handler ends the process
    await running?.close().catch(() => {});
    const line = startupFailure(error, config);
    if (line === undefined) throw error;
    console.error(`tv2: ${line}`);
    process.exit(1);
  }

  const { app } = running;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  app.log.info(
    `API: ${base}/TV2/Execute/${config.packageAliases[0]}.<Operation>  token: ${base}/TV2/GetToken`,
  );
  app.log.info(
    `reference: ${base}/TV2/docs  OpenAPI: ${base}/TV2/openapi.json  health: ${base}/health/ready`,
  );
}

/** SIGTERM/SIGINT: stop accepting, finish what was received, close the database; exit 1 past the deadline. */
function handleSignals(running: Running, config: Config, onStop: () => void): void {
  const { app } = running;
  const deadlineMs = config.shutdownTimeoutSeconds * 1000;
  closeWithGrace(
    {
      delay: deadlineMs > 0 ? deadlineMs : undefined,
      logger: { error: (message: unknown) => app.log.error(message) },
      onTimeout: () =>
        app.log.error(
          `shutdown deadline (TV2_SHUTDOWN_TIMEOUT_SECONDS=${config.shutdownTimeoutSeconds}) passed with requests still open; exiting`,
        ),
    },
    async ({ signal, err }) => {
      onStop();
      if (err) app.log.error({ err }, 'unexpected error; shutting down');
      else app.log.info(`${signal ?? 'exit'}: shutting down`);
      await running.close();
    },
  );
}
