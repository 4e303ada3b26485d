/** The /v1 brand response, presented from the internal Brand: snake_case names, model fields only when a model wrote them. */
import type { Brand } from '../../../core/features/brand/service.ts';
import { presentUsage } from './present.ts';

export function presentBrand(brand: Brand): Record<string, unknown> {
  return {
    url: brand.url,
    name: brand.name,
    logo: brand.logo,
    favicon: brand.favicon,
    colors: brand.colors,
    color_sources: brand.colorSources,
    color_scheme: brand.colorScheme,
    fonts: brand.fonts,
    images: { og_image: brand.images.ogImage, logo: brand.images.logo, favicon: brand.images.favicon },
    socials: brand.socials,
    rendered: brand.rendered,
    ...(brand.tone ? { tone: brand.tone } : {}),
    ...(brand.personality ? { personality: brand.personality } : {}),
    not_found: brand.notFound,
    ...(brand.model ? { model: brand.model, provider: brand.provider } : {}),
    ...(brand.usage ? { usage: presentUsage(brand.usage) } : {}),
    ...(brand.warnings.length ? { warnings: brand.warnings } : {}),
  };
}
