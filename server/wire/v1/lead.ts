/**
 * The /v1 lead responses, presented from the internal Lead and lead batch: snake_case field names
 * (`postal_code`, `description_source`, `not_found`, `created_at`), optional company fields only
 * when a page stated them, and the model's fields only when a model wrote them.
 */
import type { LeadBatch, LeadBatchItem } from '../../../core/features/lead/store.ts';
import type { Lead } from '../../../core/features/lead/merge.ts';
import { presentUsage } from './present.ts';

export function presentLead(lead: Lead): Record<string, unknown> {
  const { address, ...company } = lead.company;
  return {
    url: lead.url,
    company: {
      ...company,
      address: address && {
        street: address.street,
        postal_code: address.postcode,
        locality: address.locality,
        region: address.region,
        country: address.country,
        text: address.text,
      },
    },
    contacts: lead.contacts,
    socials: lead.socials,
    pages: lead.pages,
    ...(lead.summary ? { summary: lead.summary } : {}),
    description_source: lead.descriptionSource,
    not_found: lead.notFound,
    ...(lead.model ? { model: lead.model, provider: lead.provider } : {}),
    ...(lead.usage ? { usage: presentUsage(lead.usage) } : {}),
    ...(lead.warnings.length ? { warnings: lead.warnings } : {}),
  };
}

export function presentLeadBatch(batch: LeadBatch, items?: LeadBatchItem[]): Record<string, unknown> {
  return {
    id: batch.id,
    status: batch.status,
    total: batch.total,
    completed: batch.completed,
    failed: batch.failed,
    created_at: batch.createdAt,
    completed_at: batch.completedAt,
    ...(items
      ? {
          data: items.map((item) => ({
            url: item.url,
            status: item.status,
            ...(item.lead ? { lead: presentLead(item.lead) } : {}),
            ...(item.error !== null ? { error: item.error } : {}),
          })),
        }
      : {}),
  };
}
