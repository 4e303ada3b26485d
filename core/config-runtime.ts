/**
 * The configuration sections of the machinery a process runs besides its HTTP server, part of
 * the core schema (config-schema.ts): the content workers (`[workers]`), the browser (`[browser]`)
 * and the job queue (`[jobs]`), with their defaults, some of which follow the machine's cores and
 * memory.
 */
import { availableParallelism, totalmem } from 'node:os';
import { z } from 'zod';

export const workersConfig = z
  .strictObject({
    /**
     * Worker threads; 0 runs the content stages on the server thread (no isolation, no deadline
     * kill). Default one core fewer than the machine has (at least 1): the server thread fetches,
     * stores and answers for every page, and a worker for each core made it compete with them
     * (on 2 cores: more CPU per page and a higher resident peak, for no more pages a second).
     */
    size: z
      .number()
      .int()
      .min(0)
      .max(256)
      .default(Math.max(1, availableParallelism() - 1)),
    /** Pages that may wait for a worker; one more is a 503 with Retry-After. */
    maxQueue: z.number().int().min(0).default(256),
    /** Heavy pages (a body of `heavyBytes` or more) processed at once; default half the workers, at least 1. */
    maxHeavy: z.number().int().min(1).optional(),
    heavyBytes: z
      .number()
      .int()
      .min(0)
      .default(2 * 1024 * 1024),
    /** A worker whose JavaScript heap passes this is stopped (422); 0 = no limit. */
    memoryLimitMb: z.number().int().min(0).default(2048),
    /**
     * The process's resident memory budget: past it, the busy page most likely to blame is stopped
     * (422); 0 = none. Default half the machine's memory: a 10 MB page with every format legitimately
     * takes ~1.3 GB, so a fixed small default would refuse real pages on a big machine.
     */
    maxRssMb: z
      .number()
      .int()
      .min(0)
      .default(Math.floor(totalmem() / 2 / 2 ** 20)),
    /**
     * A busy worker runs a full garbage collection after a page at most this often (ms), and so
     * does the server thread after a worker's reply, so memory follows what the threads hold;
     * 0 = when the runtime decides.
     */
    collectEveryMs: z.number().int().min(0).default(500),
    /**
     * Worker threads run at this nice value (Linux): when cores are short, the API thread and a
     * browser rendering for a request go first and the workers take what is left. 0 = same priority.
     */
    nice: z.number().int().min(0).max(19).default(5),
  })
  .prefault({});

export const browserConfig = z
  .strictObject({
    /** Debian's package; Trawl never downloads a browser. */
    executablePath: z.string().min(1).default('/usr/bin/chromium'),
    /** Jobs rendering at once (a context each, plus one warm spare); further jobs wait for a free one. */
    maxContexts: z.number().int().min(1).max(64).default(4),
    /** Open the next job's context ahead, so it does not wait for a renderer to start (one extra context). */
    warmSpare: z.boolean().default(true),
    /** A browser that has served this many pages is replaced (Chromium grows with use). */
    recycleAfterPages: z.number().int().min(1).default(200),
    /** Limit for one job's use of the browser, on top of the scrape's own time limit. */
    jobTimeoutMs: z.number().int().positive().default(60_000),
    launchTimeoutMs: z.number().int().positive().default(30_000),
    /** Resource types not loaded at all: faster, but screenshots lack them. */
    blockResources: z.array(z.enum(['image', 'font', 'media'])).default([]),
    /** Extra Chromium flags, after Trawl's own. */
    args: z.array(z.string().min(1)).default([]),
    /**
     * Body bytes of one response the guard proxy passes to Chromium; a longer one is cut, and a page
     * whose own document is cut answers 422. Stricter than `fetch.maxBodyBytes`: a renderer needs
     * hundreds of bytes of memory per byte of HTML.
     */
    maxResponseBytes: z
      .number()
      .int()
      .positive()
      .default(8 * 1024 * 1024),
    /** Body bytes of all a page's responses together (plain HTTP bodies and TLS tunnels); past it the page answers 422. */
    maxPageBytes: z
      .number()
      .int()
      .positive()
      .default(32 * 1024 * 1024),
    /**
     * One renderer process's resident memory ceiling: a tab past it is killed and its page answers
     * 422. Its JavaScript heap is capped at half of it (V8's old space). 0 = none.
     */
    maxRendererMb: z.number().int().min(0).default(1024),
    /** How often the browser's processes are measured while pages render (ms). */
    memorySampleMs: z.number().int().min(10).max(10_000).default(200),
  })
  .prefault({});

export const jobsConfig = z
  .strictObject({
    /** A claimed job is another worker's to take once its lease lapses (renewed while it runs). */
    leaseSeconds: z.number().int().min(1).max(3600).default(30),
    /** How often an idle worker looks for due jobs (local enqueues wake it at once). */
    pollIntervalMs: z.number().int().min(10).max(60_000).default(500),
    /** Runs per job before it fails, unless its kind or the job says otherwise. */
    maxAttempts: z.number().int().min(1).max(100).default(5),
    /** Retry n waits retryBaseMs·2^(n-1), capped at retryMaxMs, scaled by a random 50–150 %. */
    retryBaseMs: z.number().int().min(1).default(1000),
    retryMaxMs: z.number().int().min(1).default(300_000),
    /** On shutdown, running jobs get this long to finish before they are released to other workers. */
    shutdownGraceMs: z.number().int().min(0).default(10_000),
    /** How often a process running workers claims due slots of the shared schedule (watches, monitors). */
    scheduleTickSeconds: z.number().int().min(1).max(3600).default(5),
    /** Largest fixed offset a scheduled subject gets (also at most a tenth of its interval), so equal intervals do not fire together. */
    scheduleJitterSeconds: z.number().int().min(0).max(86_400).default(300),
    /** Due slots claimed per statement. */
    scheduleBatch: z.number().int().min(1).max(5000).default(500),
  })
  .prefault({});
