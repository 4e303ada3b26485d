/**
 * The OpenAPI of POST /v1/brand: the request from the zod schema that validates it, and the Brand
 * record with where each colour comes from.
 */
import { errorBody, jsonBody, schemaRef, toJson } from '../../openapi-shapes.ts';
import { v1BrandSchema } from './request.ts';

const color = { type: ['string', 'null'], pattern: '^#[0-9a-f]{6}$' };
const logo = {
  type: 'object',
  required: ['url', 'source'],
  properties: {
    url: { type: 'string' },
    source: { type: 'string', enum: ['json-ld', 'header', 'apple-touch-icon', 'manifest'] },
    width: { type: 'integer' },
  },
};
const SOURCES =
  'Each colour names its source in `color_sources`: `css-variable` (a custom property named for the ' +
  'role: `--primary`, `--brand-color`, `--bg`, `--text`, `--link`, bare shadcn-style HSL channels included), ' +
  '`computed` (the rendered page: background and text of the page, button backgrounds and text-link colours ' +
  'weighted by the area they paint in the first 3,000 px), `theme-color`, `manifest`, `stylesheet` (the rules for ' +
  'html/body, links and buttons, then the most used saturated colours). Sources are tried in that order; ' +
  '`secondary` and `accent` must differ visibly (CIEDE2000 > 12) from the colours already chosen. Colours are ' +
  '`#rrggbb`; one no source gave is null and listed in `not_found`.';

export const brandOpenApi = {
  paths: {
    '/v1/brand': {
      post: {
        summary: 'Brand identity extraction',
        description:
          'Reads `url` as served (head and navigation included) through the `brand` format, rendered in the ' +
          'browser with a script that measures colours and fonts when `brand.browser` is on and the browser ' +
          'fetcher runs (else plainly, with a warning), then fetches its stylesheets (at most ' +
          '`brand.maxStylesheets`, `brand.maxCssBytes` of CSS in all) and web app manifest through the HTTP ' +
          'client. `name`: JSON-LD Organization, og:site_name, application-name, the manifest, the title. `logo`: ' +
          'the JSON-LD logo or the header image marked as the logo, else the largest touch or manifest icon; the ' +
          'other candidates are its `alternatives`. ' +
          SOURCES +
          ' `color_scheme` is `dark` ' +
          'when the background is dark (WCAG luminance < 0.2), else `light`. `fonts`: the first non-generic ' +
          'family of the computed, custom-property or rule font stacks for `heading`, `body` and `code`. ' +
          'Deterministic: the same page gives the same profile. With a language model configured, `tone` and ' +
          "`personality` are the model's reading of the page's text; without one they are absent.",
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('BrandRequest') } } },
        responses: {
          200: jsonBody(schemaRef('Brand'), 'The brand profile'),
          400: errorBody('Invalid request, e.g. `Missing required field: url`'),
          401: errorBody('Invalid or missing API key'),
          422: errorBody('The page could not be fetched or read (`Failed to fetch URL: …`)'),
        },
      },
    },
  },
  schemas: {
    BrandRequest: toJson(v1BrandSchema),
    Brand: {
      type: 'object',
      required: [
        'url',
        'name',
        'logo',
        'favicon',
        'colors',
        'color_sources',
        'color_scheme',
        'fonts',
        'images',
        'socials',
        'rendered',
        'not_found',
      ],
      properties: {
        url: { type: 'string' },
        name: { type: ['string', 'null'] },
        logo: {
          oneOf: [{ allOf: [logo, { type: 'object', properties: { alternatives: { type: 'array', items: logo } } }] }, { type: 'null' }],
        },
        favicon: { type: ['string', 'null'] },
        colors: {
          type: 'object',
          properties: { primary: color, secondary: color, accent: color, background: color, text: color, link: color },
        },
        color_sources: {
          type: 'object',
          additionalProperties: { type: 'string', enum: ['css-variable', 'computed', 'theme-color', 'manifest', 'stylesheet'] },
        },
        color_scheme: { type: 'string', enum: ['light', 'dark'] },
        fonts: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              family: { type: 'string' },
              role: { type: 'string', enum: ['heading', 'body', 'code'] },
              source: { type: 'string', enum: ['computed', 'css-variable', 'stylesheet', 'web-font'] },
            },
          },
        },
        images: {
          type: 'object',
          properties: { og_image: { type: ['string', 'null'] }, logo: { type: ['string', 'null'] }, favicon: { type: ['string', 'null'] } },
        },
        socials: { type: 'object', additionalProperties: { type: 'string' }, description: 'Profile URL by network.' },
        rendered: { type: 'boolean', description: 'Colours and fonts were measured on the page rendered in the browser.' },
        tone: { type: 'string', description: 'With a language model only.' },
        personality: {
          type: 'array',
          items: { type: 'string' },
          description: 'With a language model only: ' + 'three to five adjectives.',
        },
        not_found: {
          type: 'array',
          items: { type: 'string' },
          description: 'What no source gave, e.g. ' + '`colors.accent`, `fonts.code`.',
        },
        model: { type: 'string' },
        provider: { type: 'string' },
        usage: schemaRef('LlmUsage'),
        warnings: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};
