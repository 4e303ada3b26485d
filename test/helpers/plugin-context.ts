/**
 * The test kit's plugin context (core/testing.ts) with requests checked against the built-in
 * plugins, as the server checks them: for tests outside plugins/ that exercise the whole set.
 */
import type { PageDocument } from '../../core/document.ts';
import type { Job } from '../../core/job.ts';
import type { ScrapeRequest } from '../../core/model/request.ts';
import * as kit from '../../core/testing.ts';
import { builtinPlugins } from '../../plugins/index.ts';

export { testConfig, testContext } from '../../core/testing.ts';

/** An internal (camelCase) request with every default filled in, as a wire parser would hand it over. */
export const testRequest = (request: Record<string, unknown>): ScrapeRequest => kit.testRequest(request, builtinPlugins);
export const testJob = (request: Record<string, unknown>): Job => kit.testJob(request, builtinPlugins);
export const testDocument = (request: Record<string, unknown>): PageDocument => kit.testDocument(request, builtinPlugins);
