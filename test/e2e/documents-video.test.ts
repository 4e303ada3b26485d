/**
 * End to end: video watch pages through /v1/scrape and the CLI. Real youtube.com, youtu.be and
 * m.youtube.com URLs are requested; the video source is configured to fetch from a local stand-in
 * that serves watch pages and caption tracks shaped like the real site's.
 */
import { afterAll, beforeAll, expect, test, setDefaultTimeout } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { ferryVideo, videoRoutes, type FakeVideo } from '../../plugins/source/video/fixtures/video-site.ts';

// Real documents are built and parsed here; on a busy shared machine that can outlast Bun's 5 s
// default (this Bun does not apply bunfig's test timeout).
setDefaultTimeout(30_000);

const silent: FakeVideo = { ...ferryVideo, id: 'NoCaptions1', title: 'Silent harbour', tracks: [] };
const short: FakeVideo = {
  ...ferryVideo,
  id: 'ShortClip01',
  title: 'Ferry in 30 seconds',
  lengthSeconds: 30,
  tracks: [
    {
      lang: 'en',
      name: 'English (auto-generated)',
      kind: 'asr',
      fmt: 'json3',
      cues: [
        [0, 2, 'the ferry leaves'],
        [2, 2, 'and we are off'],
      ],
    },
  ],
};

let site: FixtureSite;
let server: TestServer;
beforeAll(async () => {
  site = startFixtureSite(videoRoutes([ferryVideo, silent, short]));
  server = await startTrawlServer({ overrides: { plugins: { source: { video: { origin: site.url } } } } });
});
afterAll(async () => {
  await server.stop();
  await site.stop();
});

const scrape = (url: string, formats = ['markdown']) => server.post('/v1/scrape', { url, formats });

test('a watch page: structured markdown, text and json with the full transcript', async () => {
  const res = await scrape('https://www.youtube.com/watch?v=dQw4w9WgXcQ', ['markdown', 'text', 'json']);
  expect(res.status).toBe(200);
  expect(res.body.markdown).toBe(
    [
      '# Crossing the Sound: a day on the ferry',
      '',
      '- **Channel:** [Harbour TV](http://www.youtube.com/@HarbourTV)',
      '- **Views:** 1,234,567',
      '- **Published:** 2024-05-01',
      '- **Duration:** 1:02:05',
      '',
      '## Description',
      '',
      'We spend a day with the crew of the North Sound ferry.',
      '',
      'Timetable: [https://ferries.example/timetable](https://ferries.example/timetable)  ',
      'Music by "Tide & Time"}; {not json',
      '',
      '## Transcript',
      '',
      '_Captions: English_',
      '',
      '**0:00** Welcome aboard the North Sound ferry.',
      '',
      "**0:04** It's a calm morning & the crew are ready.",
      '',
      '**1:15** We arrive at the pier.',
    ].join('\n'),
  );
  expect(res.body.text).toContain('Transcript\n\nCaptions: English\n\n0:00 Welcome aboard the North Sound ferry.');
  expect(res.body.metadata).toMatchObject({
    title: 'Crossing the Sound: a day on the ferry',
    author: 'Harbour TV',
    published_date: '2024-05-01T14:00:05.000Z',
    site_name: 'YouTube',
    channel: 'Harbour TV',
    view_count: 1234567,
    duration_seconds: 3725,
    transcript_language: 'en',
  });
  expect(res.body.extraction.links).toContainEqual({
    text: 'https://ferries.example/timetable',
    href: 'https://ferries.example/timetable',
  });
});

test('youtu.be, /shorts/ and m.youtube.com URLs are the same video pages', async () => {
  for (const url of [
    'https://youtu.be/ShortClip01',
    'https://www.youtube.com/shorts/ShortClip01',
    'https://m.youtube.com/watch?v=ShortClip01',
  ]) {
    const res = await scrape(url, ['text']);
    expect(res.status).toBe(200);
    expect(res.body.text).toStartWith('Ferry in 30 seconds\n\nChannel: Harbour TV');
    expect(res.body.text).toEndWith('Captions: English (auto-generated)\n\n0:00 the ferry leaves\n\n0:02 and we are off');
  }
});

test('a video without captions returns everything else and a note', async () => {
  const res = await scrape('https://www.youtube.com/watch?v=NoCaptions1');
  expect(res.status).toBe(200);
  expect(res.body.markdown).toContain('- **Views:** 1,234,567');
  expect(res.body.markdown).toEndWith('## Transcript\n\n_No captions are available for this video._');
  expect(res.body.warnings).toEqual(['source.video: The video has no captions; the transcript is missing']);
});

test('an unknown video is a 422', async () => {
  const res = await scrape('https://www.youtube.com/watch?v=Missing0000');
  expect(res.status).toBe(422);
  expect(res.body).toEqual({ error: 'Could not read the video page: the server answered HTTP 404' });
});

test('the CLI scrapes a video page', async () => {
  const child = Bun.spawn(['bun', 'cli/main.ts', 'scrape', 'https://youtu.be/dQw4w9WgXcQ', '--format', 'text'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: {
      ...process.env,
      TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true',
      TRAWL_DATA_DIR: ':memory:',
      TRAWL_LOG_LEVEL: 'silent',
      TRAWL_PLUGINS_SOURCE_VIDEO_ORIGIN: site.url,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, exitCode] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  expect(exitCode).toBe(0);
  expect(stdout).toContain('1:15 We arrive at the pier.');
}, 30_000);
