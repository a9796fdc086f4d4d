/**
 * The real gateways against local fakes of their HTTP APIs (127.0.0.1): the Android SMS Gateway app and
 * SMS.ru, chosen by SMS_PROVIDER; a device command goes out through the Android fake.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AndroidSmsGateway } from '@propusk/sms/android';
import { SmsGatewayError } from '@propusk/sms/gateway';
import { SmsRuGateway } from '@propusk/sms/smsru';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processBarrier } from '../src/engine/send/index.ts';
import { createSmsGateway } from '../src/lib/sms-gateway.ts';
import { createDeviceHarness } from './device-harness.ts';
import { createAdmin } from './factories.ts';
import { createTestApp } from './test-app.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A fake HTTP API: records requests and answers with whatever `answer` returns. */
async function fakeApi(answer: (request: Received) => { status: number; body: unknown }) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      received.push(entry);
      const { status, body: out } = answer(entry);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('Android SMS Gateway adapter', () => {
  let status = 202;
  let api: Awaited<ReturnType<typeof fakeApi>>;
  beforeAll(async () => {
    api = await fakeApi(() => ({
      status,
      body: status < 300 ? { id: 'msg-1', state: 'Pending' } : { message: 'x' },
    }));
  });
  afterAll(() => api.close());

  it('posts the message with basic auth and returns its id', async () => {
    const gateway = new AndroidSmsGateway({ url: `${api.url}/`, login: 'sms', password: 'secret' });
    expect(await gateway.send({ to: '+79161234567', text: '1234A001#79161234567#' })).toEqual({
      providerId: 'msg-1',
    });
    const [request] = api.received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/message');
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('sms:secret').toString('base64')}`);
    expect(JSON.parse(request?.body ?? '')).toEqual({
      message: '1234A001#79161234567#',
      phoneNumbers: ['+79161234567'],
    });
    expect(await gateway.balance()).toBeNull();
  });

  it('reports a server error as temporary and a refusal as permanent', async () => {
    const gateway = new AndroidSmsGateway({ url: api.url, login: 'sms', password: 'secret' });
    status = 503;
    await expect(gateway.send({ to: '+79161234567', text: 'x' })).rejects.toMatchObject({
      isTemporary: true,
    });
    status = 401;
    await expect(gateway.send({ to: '+79161234567', text: 'x' })).rejects.toMatchObject({
      isTemporary: false,
    });
    status = 202;
  });

  it('reports an unreachable gateway as temporary', async () => {
    const gateway = new AndroidSmsGateway({ url: 'http://127.0.0.1:1', login: 'a', password: 'b' });
    await expect(gateway.send({ to: '+79161234567', text: 'x' })).rejects.toBeInstanceOf(SmsGatewayError);
  });

  it('carries device commands when SMS_PROVIDER=android', async () => {
    const t = await createTestApp({
      env: {
        SMS_PROVIDER: 'android',
        ANDROID_SMS_URL: api.url,
        ANDROID_SMS_LOGIN: 'sms',
        ANDROID_SMS_PASSWORD: 'pw',
      },
      configure: (deps) => {
        deps.sms = createSmsGateway(deps.config, () => {});
      },
    });
    try {
      expect(t.deps.sms.name).toBe('android');
      const h = createDeviceHarness(t, { manual: false });
      const admin = await createAdmin(t);
      const barrier = await h.createBarrier({ ownerId: admin.id, password: '4321' });
      const phone = await h.addPhone(barrier.id, { userId: admin.id });
      const before = api.received.length;
      expect((await processBarrier(t.deps, barrier.id)).state).toBe('sent');
      const request = api.received[before];
      expect(JSON.parse(request?.body ?? '')).toEqual({
        // The attempt's idempotency key (hand-off.test.ts): the gateway sends one message per id.
        id: expect.stringMatching(/^c\d+a1t[0-9a-z]+$/),
        message: `4321A001#0007${phone.number.slice(2)}#`,
        phoneNumbers: [barrier.devicePhone],
      });
    } finally {
      await t.close();
    }
  });
});

describe('SMS.ru adapter', () => {
  let mode: 'ok' | 'refused' | 'down' = 'ok';
  let api: Awaited<ReturnType<typeof fakeApi>>;
  beforeAll(async () => {
    api = await fakeApi((request) => {
      if (mode === 'down') return { status: 502, body: {} };
      if (request.url.startsWith('/my/balance'))
        return { status: 200, body: { status: 'OK', status_code: 100, balance: 4122.56 } };
      if (mode === 'refused')
        return {
          status: 200,
          body: { status: 'ERROR', status_code: 200, status_text: 'Неправильный api_id' },
        };
      const to = new URLSearchParams(request.body).get('to') ?? '';
      return {
        status: 200,
        body: {
          status: 'OK',
          status_code: 100,
          sms: { [to]: { status: 'OK', status_code: 100, sms_id: '000000-10000000' } },
          balance: 4122.56,
        },
      };
    });
  });
  afterAll(() => api.close());

  it('sends form-encoded with api_id and json=1', async () => {
    const gateway = new SmsRuGateway({ apiId: 'API-ID', url: api.url });
    expect(await gateway.send({ to: '+79161234567', text: 'Привет' })).toEqual({
      providerId: '000000-10000000',
    });
    const request = api.received.at(-1);
    expect(request?.url).toBe('/sms/send');
    const form = new URLSearchParams(request?.body);
    expect(Object.fromEntries(form)).toEqual({
      api_id: 'API-ID',
      json: '1',
      to: '79161234567',
      msg: 'Привет',
    });
  });

  it('reads the balance', async () => {
    const gateway = new SmsRuGateway({ apiId: 'API-ID', url: api.url });
    expect(await gateway.balance()).toEqual({ amount: 4122.56, currency: 'RUB' });
  });

  it('tells a refusal (permanent) from an outage (temporary)', async () => {
    const gateway = new SmsRuGateway({ apiId: 'API-ID', url: api.url });
    mode = 'refused';
    await expect(gateway.send({ to: '+79161234567', text: 'x' })).rejects.toMatchObject({
      isTemporary: false,
    });
    mode = 'down';
    await expect(gateway.send({ to: '+79161234567', text: 'x' })).rejects.toMatchObject({
      isTemporary: true,
    });
    mode = 'ok';
  });

  it('is chosen by SMS_PROVIDER=smsru and shows its balance to administrators', async () => {
    const t = await createTestApp({
      env: { SMS_PROVIDER: 'smsru', SMSRU_API_ID: 'API-ID', SMSRU_URL: api.url },
      configure: (deps) => {
        deps.sms = createSmsGateway(deps.config, () => {});
      },
    });
    try {
      const admin = await createAdmin(t);
      const response = await t.request({ method: 'GET', url: '/api/admin/balance/', token: admin.token });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ balance: 4122.56, currency: 'RUB' });
      mode = 'down';
      const unknown = await t.request({ method: 'GET', url: '/api/admin/balance/', token: admin.token });
      expect(unknown.json()).toEqual({ balance: null, currency: null });
      mode = 'ok';
    } finally {
      await t.close();
    }
  });
});
