/** Test helper: awaits a promise that must reject with a TrawlError and returns that error. */
import { expect } from 'bun:test';
import { TrawlError } from '../../core/errors.ts';

export async function failure(promise: Promise<unknown>): Promise<TrawlError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(TrawlError);
    return err as TrawlError;
  }
  throw new Error('expected the promise to reject');
}
