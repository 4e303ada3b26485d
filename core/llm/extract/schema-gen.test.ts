// The schema built from the model's field list: names made snake_case and unique, every field
// required and nullable (or a list), lists of objects with their own fields; always a valid schema.
import { expect, test } from 'bun:test';
import { checkedSchema } from '../schema.ts';
import { FIELD_LIST_SCHEMA, schemaFromFields } from './schema-gen.ts';

test('a field list becomes a strict, nullable JSON Schema', () => {
  const fields = {
    fields: [
      { name: 'Product Name', kind: 'string', description: 'the name', item_fields: [] },
      { name: 'product name', kind: 'number', description: 'a second one', item_fields: [] },
      { name: 'tags', kind: 'string_list', description: 'labels', item_fields: [] },
      {
        name: 'reviews',
        kind: 'object_list',
        description: 'what buyers said',
        item_fields: [
          { name: 'stars', kind: 'integer', description: '1-5' },
          { name: 'Author!', kind: 'string', description: 'who' },
        ],
      },
      { name: 'links', kind: 'object_list', description: 'no fields given', item_fields: [] },
      { name: 'homepage', kind: 'url', description: 'the maker', item_fields: [] },
    ],
  };
  expect(checkedSchema(FIELD_LIST_SCHEMA, 100_000).validate(fields)).toBeNull();
  const schema = schemaFromFields(fields);
  expect(schema).toEqual({
    type: 'object',
    properties: {
      product_name: { type: ['string', 'null'], description: 'the name' },
      product_name_2: { type: ['number', 'null'], description: 'a second one' },
      tags: { type: 'array', items: { type: 'string' }, description: 'labels' },
      reviews: {
        type: 'array',
        description: 'what buyers said',
        items: {
          type: 'object',
          properties: {
            stars: { type: ['integer', 'null'], description: '1-5' },
            author: { type: ['string', 'null'], description: 'who' },
          },
          required: ['stars', 'author'],
          additionalProperties: false,
        },
      },
      links: { type: 'array', items: { type: 'string' }, description: 'no fields given' },
      homepage: { type: ['string', 'null'], description: 'the maker (an absolute URL)' },
    },
    required: ['product_name', 'product_name_2', 'tags', 'reviews', 'links', 'homepage'],
    additionalProperties: false,
  });
  const checked = checkedSchema(schema, 100_000);
  expect(
    checked.validate({ product_name: null, product_name_2: 3, tags: [], reviews: [{ stars: 5, author: null }], links: [], homepage: null }),
  ).toBeNull();
});
