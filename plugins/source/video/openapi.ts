/** The video source's OpenAPI contribution (its `api` metadata): the metadata fields it adds and what a watch page becomes. */
import type { PluginApi } from '../../../core/kit.ts';

const count = (description: string) => ({ type: 'integer', description });
const str = (description: string) => ({ type: ['string', 'null'], description });

const videoDescription =
  '\n\nVideo watch pages (youtube.com/watch, youtu.be, /shorts/, /live/, m.youtube.com) become a page with the title, a list of channel, views, ' +
  'published date and duration, the description, and a "Transcript" section with one `m:ss` timed line per caption (the page language\'s ' +
  "track, else English, else the first; people's captions before automatic ones). Without captions the transcript section holds a note and " +
  '`warnings` says so. `rawHtml` is the watch page as received. An unavailable video is 422 `Video unavailable: <reason>`.';

export const videoApi: PluginApi = {
  metadataProperties: {
    videoId: str('Video pages: the video id.'),
    channel: str('Video pages: channel name (also in `author`).'),
    viewCount: count('Video pages: views.'),
    durationSeconds: count('Video pages: length in seconds.'),
    transcriptLanguage: str('Video pages: language code of the caption track the transcript came from; null without one.'),
  },
  description: videoDescription,
};
