import { expect } from 'chai';
import { z } from 'zod';
import { buildOpenApi, nameSchema } from './openapi.js';
import { defineRoute } from './route.js';

type Json = Record<string, any>;

const widget = z.object({ id: z.uuid(), size: z.number().int().default(1) }).describe('A widget.');
nameSchema(widget, 'TestWidget');

const route = (path: string, schema: z.ZodType, body?: z.ZodType) =>
  defineRoute({
    method: 'post',
    path,
    access: 'required',
    tag: 'Test',
    summary: 'A test route',
    operationId: path.slice(1),
    ...(body ? { request: { body } } : {}),
    responses: { 200: { description: 'OK.', schema } },
    handler: () => ({ status: 200, body: {} }),
  });

describe('OpenAPI document: named schemas', () => {
  it('puts a named response schema into components.schemas once and refers to it', () => {
    const document = buildOpenApi(
      [route('/one', widget), route('/many', z.object({ items: z.array(widget) }), z.object({ widget }))],
      { version: '1' },
    ) as Json;
    expect(document.components.schemas.TestWidget).to.deep.include({ type: 'object', description: 'A widget.' });
    expect(document.components.schemas.TestWidget.required).to.deep.equal(['id', 'size']);
    const one = document.paths['/one'].post.responses['200'].content['application/json'].schema;
    expect(one).to.deep.equal({ $ref: '#/components/schemas/TestWidget' });
    const many = document.paths['/many'].post.responses['200'].content['application/json'].schema;
    expect(many.properties.items.items).to.deep.equal({ $ref: '#/components/schemas/TestWidget' });
    // A request body keeps the input side inline: a field with a default is not required there.
    const body = document.paths['/many'].post.requestBody.content['application/json'].schema;
    expect(body.properties.widget.required).to.deep.equal(['id']);
    expect(JSON.stringify(body)).to.not.include('$ref');
  });

  it('refuses two different schemas under one name', () => {
    const impostor = z.object({ other: z.string() });
    nameSchema(impostor, 'TestImpostor');
    const twin = z.object({ different: z.number() });
    nameSchema(twin, 'TestImpostor');
    expect(() => buildOpenApi([route('/a', impostor), route('/b', twin)], { version: '1' })).to.throw(
      /Two different schemas are named TestImpostor/,
    );
  });
});
