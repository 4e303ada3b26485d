// The video source against a local stand-in for the video site: URL recognition, player data and
// caption parsing, track choice, and whole watch pages through the real HTTP client, including
// videos without captions, caption tracks that fail, and unavailable videos.
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { textOf, type TrawlError } from '../../../core/kit.ts';
import { startFixtureSite, testDocument, testHttpContext } from '../../../core/testing.ts';
import type { FixtureSite } from '../../../core/testing.ts';
import { htmlStages } from '../../../test/helpers/html-page.ts';
import { videoIdOf, videoSource } from './video.ts';
import { assignedObject, pageLanguage } from './player.ts';
import { chooseTrack, clock, parseCaptions } from './transcript.ts';
import { ferryVideo, videoRoutes, watchPage, type FakeVideo } from './fixtures/video-site.ts';

// Real documents are built and parsed here; on a busy shared machine that can outlast Bun's 5 s
// default (this Bun does not apply bunfig's test timeout).
setDefaultTimeout(30_000);

const HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be']);
const silent: FakeVideo = { ...ferryVideo, id: 'NoCaptions1', title: 'Silent harbour', tracks: [], description: '' };
const broken: FakeVideo = {
  ...ferryVideo,
  id: 'BrokenCaps1',
  tracks: [{ lang: 'en', name: 'English', fmt: 'srv1', cues: [], empty: true }],
};
const gone: FakeVideo = {
  ...ferryVideo,
  id: 'PrivateVid1',
  title: '',
  playability: { status: 'LOGIN_REQUIRED', reason: 'This video is private' },
};
const german: FakeVideo = { ...ferryVideo, id: 'GermanPage1', pageLang: 'de-DE' };

let site: FixtureSite;
beforeAll(() => {
  site = startFixtureSite(videoRoutes([ferryVideo, silent, broken, gone, german]));
});
afterAll(() => site.stop());

async function fetchVideo(url: string, pluginOptions: Record<string, unknown> = {}) {
  const source = await videoSource.setup(videoSource.options!.parse({ origin: site.url, ...pluginOptions }), testHttpContext());
  const doc = testDocument({ url });
  expect(source.matches(doc.job)).toBe(true);
  await source.fetch(doc);
  htmlStages(doc);
  return doc;
}

test('watch URLs in every form, and nothing else', () => {
  const id = 'dQw4w9WgXcQ';
  for (const url of [
    `https://www.youtube.com/watch?v=${id}&t=42s`,
    `https://youtube.com/watch?feature=share&v=${id}`,
    `https://m.youtube.com/watch?v=${id}`,
    `https://youtu.be/${id}?si=abc`,
    `https://www.youtube.com/shorts/${id}`,
    `https://www.youtube.com/live/${id}`,
    `https://www.youtube.com/embed/${id}`,
  ]) {
    expect(videoIdOf(url, HOSTS)).toBe(id);
  }
  for (const url of [
    'https://www.youtube.com/',
    'https://www.youtube.com/@HarbourTV',
    `https://www.youtube.com/watch?v=short`,
    `https://vimeo.com/watch?v=${id}`,
    `https://youtu.be.evil.test/${id}`,
  ]) {
    expect(videoIdOf(url, HOSTS)).toBeNull();
  }
});

test('player data is cut out of the page intact, even with "};" inside strings', () => {
  const player = assignedObject(watchPage(ferryVideo), 'ytInitialPlayerResponse') as { videoDetails: { shortDescription: string } };
  expect(player.videoDetails.shortDescription).toBe(ferryVideo.description);
  expect(assignedObject('<script>var ytInitialPlayerResponse = {"a": "unterminated', 'ytInitialPlayerResponse')).toBeNull();
  expect(assignedObject('<p>no data</p>', 'ytInitialPlayerResponse')).toBeNull();
  expect(pageLanguage(watchPage({ ...ferryVideo, pageLang: 'de-DE' }))).toBe('de-de');
});

test('caption track choice: page language, then English, then the first; people before machines', () => {
  const track = (languageCode: string, kind?: string) => ({
    baseUrl: `/t?${languageCode}${kind ?? ''}`,
    languageCode,
    name: languageCode,
    kind,
  });
  const tracks = [track('fr'), track('en', 'asr'), track('en'), track('de', 'asr')];
  expect(chooseTrack(tracks, 'de')).toEqual(track('de', 'asr'));
  expect(chooseTrack(tracks, 'de-DE')).toEqual(track('de', 'asr'));
  expect(chooseTrack(tracks, 'en')).toEqual(track('en'));
  expect(chooseTrack(tracks, 'ja')).toEqual(track('en'));
  expect(chooseTrack(tracks, null)).toEqual(track('en'));
  expect(chooseTrack([track('fr'), track('es')], 'ja')).toEqual(track('fr'));
  expect(chooseTrack([], 'en')).toBeNull();
});

test('the three timed-text formats', () => {
  expect(
    parseCaptions(
      '<?xml version="1.0"?><transcript><text start="1.5" dur="2">It&amp;#39;s &amp;amp; more</text><text start="3" dur="1">\n</text></transcript>',
    ),
  ).toEqual([{ start: 1.5, text: "It's & more" }]);
  expect(
    parseCaptions(
      '<timedtext format="3"><body><p t="2000" d="500"><s>Hello</s><s t="200"> there</s></p><p t="3000"></p></body></timedtext>',
    ),
  ).toEqual([{ start: 2, text: 'Hello there' }]);
  expect(
    parseCaptions(
      '{"events":[{"tStartMs":0},{"tStartMs":4500,"segs":[{"utf8":"Good"},{"utf8":" day"}]},{"tStartMs":9000,"segs":[{"utf8":"\\n"}]}]}',
    ),
  ).toEqual([{ start: 4.5, text: 'Good day' }]);
  expect([clock(5), clock(75), clock(3725)]).toEqual(['0:05', '1:15', '1:02:05']);
  // Hostile bodies: openings that never close (a regex would backtrack quadratically), look-alike tags.
  expect(parseCaptions(`<transcript>${'<text start="1">never closed '.repeat(50_000)}`)).toEqual([]);
  expect(parseCaptions('<timedtext><body><pen id="1"/><para>x</para><p t="10">y</p></body></timedtext>')).toEqual([
    { start: 0.01, text: 'y' },
  ]);
});

describe('a watch page with captions', () => {
  test('title, facts, description with links, and the transcript in the page language', async () => {
    const doc = await fetchVideo('https://youtu.be/dQw4w9WgXcQ');
    const body = doc.root!.innerHTML;
    expect(body).toStartWith(
      '<h1>Crossing the Sound: a day on the ferry</h1>\n<ul><li><strong>Channel:</strong> <a href="http://www.youtube.com/@HarbourTV">Harbour TV</a></li><li><strong>Views:</strong> 1,234,567</li><li><strong>Published:</strong> 2024-05-01</li><li><strong>Duration:</strong> 1:02:05</li></ul>',
    );
    expect(body).toContain(
      '<p>We spend a day with the crew of the North Sound ferry.</p><p>Timetable: <a href="https://ferries.example/timetable">https://ferries.example/timetable</a><br>Music by "Tide &amp; Time"}; {not json</p>',
    );
    expect(body).toContain(
      "<h2>Transcript</h2>\n<p><em>Captions: English</em></p>\n<p><strong>0:00</strong> Welcome aboard the North Sound ferry.</p>\n<p><strong>0:04</strong> It's a calm morning &amp; the crew are ready.</p>\n<p><strong>1:15</strong> We arrive at the pier.</p>",
    );
    expect(doc.metadata).toMatchObject({
      title: 'Crossing the Sound: a day on the ferry',
      author: 'Harbour TV',
      publishedDate: '2024-05-01T14:00:05.000Z',
      siteName: 'YouTube',
      language: 'en',
      image: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/maxresdefault.jpg?w=1280',
      videoId: 'dQw4w9WgXcQ',
      channel: 'Harbour TV',
      viewCount: 1234567,
      durationSeconds: 3725,
      transcriptLanguage: 'en',
      statusCode: 200,
      finalUrl: `${site.url}/watch?v=dQw4w9WgXcQ`,
    });
    expect(doc.metadata.description).toStartWith('We spend a day with the crew of the North Sound ferry. Timetable:');
    expect(doc.response?.text).toContain('ytInitialPlayerResponse');
    expect(doc.messages).toEqual([]);
  });

  test('captions are fetched from the configured origin, not the host in the player data', async () => {
    const before = site.hits.length;
    await fetchVideo('https://www.youtube.com/shorts/dQw4w9WgXcQ');
    expect(site.hits.slice(before)).toEqual([
      '/watch?v=dQw4w9WgXcQ',
      expect.stringMatching(/^\/api\/timedtext\?v=dQw4w9WgXcQ&.*&lang=en&fmt=srv1$/),
    ]);
  });

  test('the page language picks the track; timestamps can be switched off', async () => {
    const doc = await fetchVideo('https://m.youtube.com/watch?v=GermanPage1', { timestamps: false });
    expect(doc.root!.innerHTML).toContain('<p><em>Captions: German</em></p>\n<p>Willkommen an Bord</p>');
    expect(doc.metadata).toMatchObject({ transcriptLanguage: 'de', language: 'de' });
  });
});

test('a video without captions still has everything else, and a note', async () => {
  const doc = await fetchVideo('https://www.youtube.com/watch?v=NoCaptions1');
  const text = textOf(doc.root!);
  expect(text).toStartWith('Silent harbour\n\nChannel: Harbour TV\n\nViews: 1,234,567');
  expect(text).toEndWith('Description\n\nNo description.\n\nTranscript\n\nNo captions are available for this video.');
  expect(doc.metadata.transcriptLanguage).toBeNull();
  expect(doc.messages.map((m) => m.message)).toEqual(['The video has no captions; the transcript is missing']);
});

test('a caption track that answers empty becomes a note and a warning', async () => {
  const doc = await fetchVideo('https://www.youtube.com/watch?v=BrokenCaps1');
  expect(textOf(doc.root!)).toEndWith('Transcript\n\nThe captions of this video could not be downloaded.');
  expect(doc.messages.map((m) => m.message)).toEqual(['The caption track could not be read: the caption track is empty']);
});

test('unavailable videos and pages without player data are 422s', async () => {
  const failure = (url: string) =>
    fetchVideo(url).then(
      () => null,
      (err: unknown) => err as TrawlError,
    );
  expect(await failure('https://www.youtube.com/watch?v=PrivateVid1')).toMatchObject({
    status: 422,
    message: 'Video unavailable: This video is private',
  });
  expect(await failure('https://www.youtube.com/watch?v=Missing0000')).toMatchObject({
    status: 422,
    message: 'Could not read the video page: the server answered HTTP 404',
  });
});

test('only the configured hosts are matched', async () => {
  const source = await videoSource.setup(videoSource.options!.parse({ hosts: ['videos.example'] }), testHttpContext());
  expect(source.matches(testDocument({ url: 'https://videos.example/watch?v=dQw4w9WgXcQ' }).job)).toBe(true);
  expect(source.matches(testDocument({ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }).job)).toBe(false);
  expect(() => videoSource.options!.parse({ origin: 'ftp://x' })).toThrow();
});
