/**
 * What the `brand` format reads from a page as served (names, logo candidates, icons, theme
 * colours, the manifest and stylesheet addresses, inline CSS, font links, social profiles), as the
 * plugin hands it to the brand feature, which fetches the stylesheets and manifest and decides the
 * profile. Shapes only: the reading is the plugin's. Keys are single words: the format can be asked
 * for on /v1/scrape too, where outputs appear as they are.
 */

export interface BrandLogo {
  url: string;
  /** `json-ld`, `header` (an image marked as the logo), `apple-touch-icon`, `manifest`. */
  source: string;
  /** Declared pixel width, when known. */
  width?: number;
}

export interface BrandFacts {
  /** Name candidates, best source first: `json-ld`, `og:site_name`, `application-name`, `title`. */
  names: Array<{ value: string; source: string }>;
  logos: BrandLogo[];
  /** `<link rel="icon">` addresses. */
  icons: string[];
  /** `<meta name="theme-color">` values with their media query, if any. */
  themes: Array<{ color: string; media?: string }>;
  /** `<meta name="color-scheme">`. */
  scheme: string | null;
  manifest: string | null;
  /** Linked stylesheets, in page order (at most the plugin's limit). */
  stylesheets: string[];
  /** The page's `<style>` text, in page order, capped. */
  css: string;
  /** Families named by web-font links (Google Fonts and the like). */
  fonts: string[];
  /** og:image, else twitter:image. */
  image: string | null;
  socials: Record<string, string>;
}
