// Events over SSE: a replay from Last-Event-ID, a limit, a stream that breaks and is
// opened again without losing or repeating an event, a close that ends it at once.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { Client, Forbidden, type Event } from "triform-client";

import { Proxy } from "./proxy.js";
import { Server } from "./server.js";

const server = new Server();
let tf: Client;
let proxy: Proxy;

before(async () => {
  await server.start();
  tf = new Client(server.url, server.admin);
  proxy = await new Proxy(server.url).start();
});
after(async () => {
  await proxy.close();
  await server.stop();
});

async function lastSeq(): Promise<number> {
  return (await tf.circle("demo").activityPage({ limit: 1 })).events[0]?.seq ?? 0;
}

test("events after Last-Event-ID arrive once, in order, up to the limit", async () => {
  const start = await lastSeq();
  const memory = tf.memory("demo/memory");
  await memory.store({ content: "Ben lives in Lyon", category: "fact" });
  await memory.store({ content: "Ben likes jazz", category: "preference" });
  const stream = tf.events({ path: "demo/memory", lastEventId: start, limit: 2 });
  const seen: Event[] = [];
  for await (const event of stream) seen.push(event);
  assert.deepEqual(seen.map((e) => e.op), ["store", "store"]);
  assert.deepEqual(seen.map((e) => e.seq), [start + 1, start + 2]);
  assert.equal(stream.lastEventId, start + 2);
  assert.equal(stream.received, 2);
});

test("a stream that breaks is opened again and misses nothing", async () => {
  const start = await lastSeq();
  const memory = tf.memory("demo/memory");
  for (let i = 0; i < 4; i += 1) await memory.store({ content: `note ${i}`, category: "fact" });
  // The first connection is cut after its first chunks; the next one replays from the id.
  proxy.plan.push({ cut: 2 });
  const through = new Client(proxy.url, server.admin);
  const stream = through.events({ path: "demo/memory", lastEventId: start, limit: 4,
    reconnectDelay: 0.05, timeout: 30 });
  const seqs: number[] = [];
  for await (const event of stream) seqs.push(event.seq);
  assert.deepEqual(seqs, [start + 1, start + 2, start + 3, start + 4]);
  assert.ok(stream.reconnects >= 1);
  const opened = proxy.seen.filter((s) => s.path.startsWith("/api/events"));
  assert.ok(opened.length >= 2);
  assert.match(String(opened.at(-1)!.headers["last-event-id"]), /^\d+$/);
});

test("live events arrive as they happen, and close() ends the stream", async () => {
  const stream = tf.events({ path: "demo/memory", keepalive: 1 });
  const next = stream.next();
  await new Promise((resolve) => setTimeout(resolve, 300));
  await tf.memory("demo/memory").store({ content: "live one", category: "fact" });
  const first = await next;
  assert.equal(first.done, false);
  assert.equal((first.value as Event).op, "store");
  await stream.close();
  assert.deepEqual(await stream.next(), { done: true, value: undefined });
});

test("close() while a next() waits ends both at once, without a rejection", async () => {
  const stream = tf.events({ path: "demo/memory", keepalive: 30 });
  const pending = stream.next();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = Date.now();
  await stream.close();
  assert.deepEqual(await pending, { done: true, value: undefined });
  assert.ok(Date.now() - started < 2000);
});

test("close() while a refused stream waits to retry ends it at once", async () => {
  // The server gives one token a quarter of its streams (here one): a second stream of
  // the same token is refused 429 with Retry-After: 5, and waits to try again.
  const holder = tf.events({ path: "demo/memory", keepalive: 30 });
  const held = holder.next();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const retries: number[] = [];
  const other = new Client(server.url, server.admin, {
    onRetry: (event) => retries.push(event.delay) });
  const waiting = other.events({ path: "demo/memory", keepalive: 30 });
  const pending = waiting.next();
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(retries.length >= 1 && retries[0]! >= 1, `retries: ${retries}`);
  const started = Date.now();
  await waiting.close();
  assert.deepEqual(await pending, { done: true, value: undefined });
  assert.ok(Date.now() - started < 2000);
  await holder.close();
  assert.deepEqual(await held, { done: true, value: undefined });
});

test("a refused stream rejects with the server's error", async () => {
  const stream = tf.events({ circle: "other" });
  await assert.rejects(stream.next(), Forbidden);
});
