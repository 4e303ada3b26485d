/**
 * The `screenshot` format: the full-page PNG (base64) the browser fetcher took of the rendered
 * page after its actions. Asking for this format makes the browser fetcher take the job.
 */
import { definePlugin, SCREENSHOT, TrawlError } from '../../../core/kit.ts';

export const screenshotFormat = definePlugin({
  kind: 'format',
  name: 'screenshot',
  description: 'Full-page screenshot of the rendered page as a base64 PNG (the page is rendered in the browser).',
  provides: ['format:screenshot'],
  dependsOn: ['fetcher.browser'],
  setup: () => ({
    render(doc) {
      const data = doc.data.get(SCREENSHOT);
      if (data === undefined) throw new TrawlError('unprocessable', 'No screenshot was taken: the page was not rendered in the browser');
      return data;
    },
  }),
});
