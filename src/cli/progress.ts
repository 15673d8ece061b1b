import yoctoSpinner from 'yocto-spinner';

/**
 * Runs a long operation (an import, many pages) with a spinner on stderr, only when stderr is a
 * terminal: piped or redirected output stays free of control characters.
 */
export async function withProgress<T>(text: string, operation: (update: (text: string) => void) => Promise<T>): Promise<T> {
  if (!process.stderr.isTTY) return operation(() => undefined);
  const spinner = yoctoSpinner({ text, stream: process.stderr }).start();
  try {
    return await operation((next) => (spinner.text = next));
  } finally {
    spinner.stop();
  }
}
