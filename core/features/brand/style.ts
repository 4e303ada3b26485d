/**
 * The brand's look from its CSS and what the rendered page painted: the stylesheets read into one
 * set of facts (css.ts), then colours (palette.ts) and fonts (fonts.ts) decided from them. Loaded
 * by the brand service when the first brand is asked for: css-tree and culori cost the server a
 * tenth of a second at start otherwise.
 */
import { emptyCssFacts, readCss } from './css.ts';
import { decideFonts } from './fonts.ts';
import { decidePalette, type PaletteInput } from './palette.ts';
import type { Rendered } from './rendered.ts';

export function decideStyle(
  stylesheets: string[],
  input: Omit<PaletteInput, 'css' | 'computed'>,
  rendered: Rendered | null,
  scheme: string | null,
  webFonts: readonly string[],
) {
  const css = emptyCssFacts();
  for (const sheet of stylesheets) readCss(sheet, css);
  return {
    palette: decidePalette({ ...input, css, computed: rendered?.colors ?? null }, scheme),
    fonts: decideFonts(css, rendered?.fonts ?? null, webFonts),
  };
}
