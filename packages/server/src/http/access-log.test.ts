import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { startTestKernel, type TestKernel } from '@docqa/kernel/testing';
import { standardModules } from '@docqa/core/modules';
import { createApp } from './app.js';
import { defineRoute } from './route.js';
import type { Authenticator } from './access.js';

const nobody: Authenticator = { authenticate: async () => null };

// Answers only once the client has gone, failing as a file send does then (ECONNABORTED).
const leftBehind = defineRoute({
  method: 'get',
  path: '/api/test/left-behind',
  access: 'public',
  tag: 'Test',
  operationId: 'leftBehind',
  summary: 'fails after the client left',
  responses: {},
  handler: ({ req }) =>
    new Promise((_resolve, reject) => {
      req.once('close', () => reject(Object.assign(new Error('Request aborted'), { code: 'ECONNABORTED' })));
    }),
});

describe('access log', function () {
  let kernel: TestKernel;
  let server: http.Server;
  const logs: string[] = [];

  before(async () => {
    // The app's services come from the standard modules, whatever routes it serves.
    kernel = await startTestKernel({
      env: { LOG_LEVEL: 'DEBUG' },
      logs,
      modules: standardModules,
    });
    server = createApp({ kernel, routes: [leftBehind], authenticator: nobody }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await kernel.dispose();
  });

  it('logs a request whose client went away as 499 aborted, and the failure after it not as an error', async () => {
    const { port } = server.address() as AddressInfo;
    const request = http.get({ host: '127.0.0.1', port, path: '/api/test/left-behind' });
    request.on('error', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    request.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const lines = logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.path === '/api/test/left-behind');
    expect(lines.find((line) => line.msg === 'request')).to.include({ status: 499, aborted: true });
    expect(
      lines.filter((line) => Number(line.level) >= 50),
      'nothing at error level',
    ).to.deep.equal([]);
    expect(lines.some((line) => line.msg === 'the client went away before the answer')).to.equal(true);
  });
});
