/**
 * POST /v1/brand: a site's brand profile (core/features/brand) — name, logo with alternatives,
 * favicon, colours by role with their sources, colour scheme, fonts by role, images and social
 * profiles; tone and personality only with a language model configured.
 */
import { BrandTokens } from '../../../core/features/brand/index.ts';
import type { BrandRequest } from '../../../core/features/brand/request.ts';
import { defineRoutes, route } from '../../route.ts';
import { presentBrand } from '../../wire/v1/brand.ts';
import { v1Field } from '../../wire/v1/names.ts';
import { v1BrandSchema } from '../../wire/v1/request.ts';
import { brandOpenApi } from '../../wire/v1/brand.docs.ts';

export const brandModule = defineRoutes({
  name: 'brand',
  needs: { brands: BrandTokens.Service },
  routes: ({ brands }) => [
    route<BrandRequest>({
      method: 'POST',
      path: '/v1/brand',
      input: v1BrandSchema,
      meter: { endpoint: 'brand', units: () => ({ brand: 1 }), url: (body) => body.url },
      async handle({ request, workspace, body }) {
        return presentBrand(await brands.brand(body, workspace, request.signal, v1Field));
      },
    }),
  ],
  openapi: () => brandOpenApi,
});
