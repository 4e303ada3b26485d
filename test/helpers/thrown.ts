/** The message `run` throws with, or null when it does not throw: for tests of validation messages. */
export function thrownMessage(run: () => unknown): string | null {
  try {
    run();
  } catch (err) {
    return (err as Error).message;
  }
  return null;
}
