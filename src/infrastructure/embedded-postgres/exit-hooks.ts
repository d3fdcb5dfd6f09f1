// Releasing the embedded server when the process ends without calling
// release(): on a normal end of work (beforeExit), on process.exit() (exit,
// synchronous only), and on SIGINT/SIGTERM/SIGHUP when nobody else handles
// them. When the application has its own listener for a signal it owns the
// shutdown (it may be draining requests); we then leave that signal alone and
// rely on the 'exit' hook once it exits.
export interface ExitHandlers {
  releaseAll(): Promise<void>;
  releaseAllSync(): void;
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

let installed: { uninstall(): void } | undefined;

export function installExitHooks(handlers: ExitHandlers): void {
  if (installed) return;
  const onExit = (): void => handlers.releaseAllSync();
  const onBeforeExit = (): void => {
    void handlers.releaseAll();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (process.listenerCount(signal) > 1) return;
    void handlers.releaseAll().finally(() => {
      uninstallExitHooks();
      // Die of the signal, as if we had never listened.
      process.kill(process.pid, signal);
    });
  };
  process.on('exit', onExit);
  process.on('beforeExit', onBeforeExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  installed = {
    uninstall() {
      process.off('exit', onExit);
      process.off('beforeExit', onBeforeExit);
      for (const signal of SIGNALS) process.off(signal, onSignal);
    },
  };
}

export function uninstallExitHooks(): void {
  installed?.uninstall();
  installed = undefined;
}
