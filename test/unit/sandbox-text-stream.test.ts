// writeTextPieces: a streamed answer encoded into reused blocks, over a real HTTP
// server and real undici requests.
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { createSandbox, generateDataset } from '../../src/sandbox';
import { TEXT_BLOCK_BYTES, TEXT_BLOCKS, writeTextPieces } from '../../src/sandbox/textStream';
import { bearer, signIn } from './sandbox-server-fixtures';

interface Served {
  url: string;
  close(): Promise<void>;
}

async function serve(handler: (res: http.ServerResponse) => Promise<void>): Promise<Served> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    void handler(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Pieces of every size and width: ASCII, two-byte (Japanese), four-byte (emoji, a surrogate pair). */
function* mixedPieces(count: number): Generator<string> {
  const words = ['{"Name":"作業 ', '"🙂 done"', ',', 'x'.repeat(70_000), '"フォルダー"'.repeat(20_000), ']}}', '𠮷'];
  for (let i = 0; i < count; i++) yield words[i % words.length]! + String(i);
}

/** `count` pieces of 64 KiB, counting how many were made (a generator is read only as far as the writer goes). */
function counted(count: number): { pieces: Generator<string>; made(): number } {
  let made = 0;
  function* pieces(): Generator<string> {
    for (let i = 0; i < count; i++) {
      made++;
      yield 'y'.repeat(64 * 1024);
    }
  }
  return { pieces: pieces(), made: () => made };
}

describe('sandbox: streamed answers (writeTextPieces)', function () {
  this.timeout(60_000);
  const agent = new Agent({ connections: 1 });
  after(() => agent.close());

  it('a streamed answer arrives byte for byte as UTF-8, characters split across blocks included', async () => {
    const expected = Buffer.from(['[', ...mixedPieces(400)].join(''), 'utf8');
    assert.ok(expected.length > 5 * TEXT_BLOCK_BYTES, 'the answer spans several blocks');
    const s = await serve((res) => writeTextPieces(res, mixedPieces(400), ['[']));
    try {
      const r = await request(s.url, { dispatcher: agent });
      const got = Buffer.from(await r.body.arrayBuffer());
      assert.equal(r.statusCode, 200);
      assert.equal(r.headers['transfer-encoding'], 'chunked');
      assert.equal(got.length, expected.length);
      assert.ok(got.equals(expected), 'same bytes');
    } finally {
      await s.close();
    }
  });

  it('a slow reader holds the server to a few blocks: the pieces are made only as the socket takes them', async () => {
    const c = counted(2000);
    let finished!: Promise<void>;
    const s = await serve((res) => (finished = writeTextPieces(res, c.pieces)));
    try {
      const r = await request(s.url, { dispatcher: agent });
      // Read nothing for a while: the server can run ahead by what the blocks and the socket buffers hold, no more.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const aheadBytes = c.made() * 64 * 1024;
      assert.ok(c.made() < 2000, 'the generator was not drained ahead of the reader');
      assert.ok(aheadBytes <= (TEXT_BLOCKS + 16) * TEXT_BLOCK_BYTES, `ran ahead by ${aheadBytes} bytes`);
      let total = 0;
      for await (const c of r.body) total += (c as Buffer).length;
      await finished;
      assert.equal(total, 2000 * 64 * 1024);
      assert.equal(c.made(), 2000);
    } finally {
      await s.close();
    }
  });

  it('a client that goes away stops the answer: the rest of the pieces is never made', async () => {
    const c = counted(100_000);
    let finished!: Promise<void>;
    const s = await serve((res) => (finished = writeTextPieces(res, c.pieces)));
    try {
      const controller = new AbortController();
      const r = await request(s.url, { dispatcher: agent, signal: controller.signal });
      let got = 0;
      await assert.rejects(async () => {
        for await (const c of r.body) {
          got += (c as Buffer).length;
          if (got > 3 * TEXT_BLOCK_BYTES) controller.abort();
        }
      });
      await finished; // returns instead of waiting for a socket that is gone
      assert.ok(c.made() < 1000, `made ${c.made()} of 100,000 pieces`);
    } finally {
      await s.close();
    }
  });

  it('a large user list is sent from its kept pieces with a Content-Length, the same bytes as JSON.stringify of the list', async () => {
    const sb = await createSandbox({ data: generateDataset({ users: 6000, organizations: 1, workItems: 2, processCategories: 0, seed: 5 }) });
    try {
      const h = bearer(await signIn(sb.url));
      for (let round = 0; round < 2; round++) {
        // Twice: the second answer is made from blocks the first one gave back.
        const r = await request(`${sb.url}/system/organizations/1/users`, { headers: h, dispatcher: agent });
        const bytes = Buffer.from(await r.body.arrayBuffer());
        assert.equal(r.statusCode, 200);
        assert.ok(bytes.length > 2 * TEXT_BLOCK_BYTES, `${bytes.length} bytes span several blocks`);
        assert.equal(r.headers['content-length'], String(bytes.length));
        const list = JSON.parse(bytes.toString('utf8')) as { totalCount: number; data: { id: string }[] };
        assert.equal(list.totalCount, list.data.length);
        assert.ok(Buffer.from(JSON.stringify(list), 'utf8').equals(bytes), 'byte for byte JSON.stringify of the answer');
      }
    } finally {
      await sb.close();
    }
  });
});
