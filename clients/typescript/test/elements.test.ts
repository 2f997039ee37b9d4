// Elements, their source and promotion, bundles, agents and their tools, activity, and any
// other route through call().
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { Client, Conflict, Forbidden, NotFound, ValidationError, type Event
} from "triform-client";

import { Server } from "./server.js";

const server = new Server();
let tf: Client;

before(async () => {
  await server.start();
  tf = new Client(server.url, server.admin);
});
after(() => server.stop());

test("create an element, change its spec and README, read its versions", async () => {
  const demo = tf.circle("demo");
  const created = await demo.create("memory", "notes", { description: "team notes",
    properties: { max_memories: 500 } });
  assert.equal(created.path, "demo/notes");
  await assert.rejects(demo.create("memory", "notes"), Conflict);
  const notes = tf.element("demo/notes");
  const update = await notes.specUpdate({ subject_scoping: true },
                                        { message: "one person's notes stay theirs" });
  assert.equal(update.changed, true);
  const spec = await notes.spec();
  assert.equal((spec.spec as { properties: Record<string, unknown> }).properties["max_memories"],
               500);
  const version = await notes.version({ history: true });
  assert.equal(version["label"], "v2");
  assert.equal((await notes.readmeUpdate("# Team notes\n")).changed, true);
  assert.equal((await notes.readme()).content, "# Team notes\n");
  assert.equal((await notes.restore(1))["version"], 4);
  await assert.rejects(tf.element("demo/nothing").spec(), NotFound);
});

test("source: status, validate, promote draft to demo to live", async () => {
  const notes = tf.element("demo/source-notes");
  await tf.circle("demo").create("memory", "source-notes");
  const status = await notes.source.status();
  assert.match(String(status["clone_url"]), /\/git\/demo\/source-notes\.git$/);
  assert.equal((await notes.source.validate())["ok"], true);
  await notes.specUpdate({ max_memories: 42 });
  assert.equal((await notes.source.promote("demo"))["promoted"], true);
  assert.equal((await notes.source.promote("live"))["promoted"], true);
  const branches = await notes.source.branches();
  assert.ok(JSON.stringify(branches).includes("live"));
  const file = await notes.source.file(".triform/spec.yaml", "live");
  assert.match(String(file["content"]), /max_memories: 42/);
});

test("evals pushed with git run, and gate a member's promotion", async () => {
  await tf.circle("demo").create("memory", "gated");
  const gated = tf.memory("demo/gated");
  // A user's way in: clone, add a recall case, push to draft with stock git.
  const url = new URL(String((await gated.source.status())["clone_url"]));
  url.username = "triform";
  url.password = server.admin;
  const work = join(mkdtempSync(join(tmpdir(), "triform-ts-git-")), "gated");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: work, stdio: "pipe" });
  execFileSync("git", ["clone", "-q", "-b", "draft", url.href, work], { stdio: "pipe" });
  mkdirSync(join(work, ".triform", "evals"), { recursive: true });
  writeFileSync(join(work, ".triform", "evals", "team.yaml"), [
    "k: 1",
    "seed:",
    "  - {key: ana-tea, content: Ana prefers green tea, category: preference}",
    "cases:",
    "  - {id: ana, query: Ana prefers tea, expect: [{seed: ana-tea}]}", ""].join("\n"));
  git("add", ".");
  git("-c", "user.name=Ana", "-c", "user.email=ana@example.com", "commit", "-qm", "a case");
  git("push", "-q", "origin", "draft");

  const run = await gated.eval();
  assert.equal(run.summary.pass_rate, 1);
  assert.equal(run.cases[0]!.name, "team.yaml#ana");
  const status = await gated.evalStatus();
  assert.equal((status.last["draft"] as { commit: string }).commit, run.commit);
  await assert.rejects(gated.eval({ cases: ["team.yaml#nope"] }), ValidationError);

  await gated.specUpdate({ promotion_gates: { eval: { min_pass_rate: 1 } },
                           relevance_threshold: 0.999 });
  const member = new Client(server.url, server.token("member")).memory("demo/gated");
  await assert.rejects(member.source.promote("demo"), (error: unknown) =>
    error instanceof Conflict && error.code === "PROMOTION_GATE_FAILED" &&
    error.message.includes("team.yaml#ana"));
  await assert.rejects(member.source.promote("demo", { force: true, reason: "please" }),
                       Forbidden);
  const forced = await gated.source.promote("demo", { force: true, reason: "threshold trial" });
  assert.equal(forced.promoted, true);
  assert.equal((forced.gates as { forced: boolean }).forced, true);
});

test("a bundle exported as a stream imports as a new element", async () => {
  const chunks: Uint8Array[] = [];
  for await (const chunk of tf.element("demo/memory").exportBundle()) chunks.push(chunk);
  const bundle = Buffer.concat(chunks);
  assert.equal(bundle.subarray(0, 16).toString("latin1"), "# v2 git bundle\n");
  const report = await tf.circle("demo").importBundle(bundle, { slug: "memory-copy" });
  assert.deepEqual(report["counts"], { imported: 1, skipped: 0, errors: 0 });
  const envelope = await tf.circle("demo").exportEnvelope();
  assert.ok(Array.isArray(envelope["elements"]));
});

test("an agent observes and calls its memory's tools with the subject fixed", async () => {
  await tf.element("demo/memory").specUpdate({ conscious_access: "read" });
  await tf.circle("demo").create("triformer", "bot",
    { properties: { subconscious: { memory: { element: "memory" } } } });
  const bot = tf.agent("demo/bot");
  const seen = await bot.observe([{ role: "user", content: "I'm vegetarian.", name: "Cleo" }],
                                 { subject_type: "guest", subject_id: "cleo" });
  assert.ok(seen.decisions.some((d) => (d as { action?: string }).action === "add"));
  const tools = await bot.tools();
  assert.ok(tools.tools.some((t) => t.name === "memory_search"));
  const found = await bot.callTool("memory_search", { query: "Cleo is vegetarian" },
                                   { subject_type: "guest", subject_id: "cleo" });
  assert.ok(JSON.stringify(found).includes("vegetarian"));
});

test("activity pages through the circle's events, newest first", async () => {
  const ops: string[] = [];
  for await (const event of tf.circle("demo").activity({ pageSize: 2 })) {
    ops.push((event as Event).op);
  }
  assert.ok(ops.includes("create") && ops.includes("spec_update"));
  const seqs: number[] = [];
  for await (const event of tf.circle("demo").activity({ pageSize: 3 })) seqs.push(event.seq);
  assert.deepEqual(seqs, [...seqs].sort((a, b) => b - a));
});

test("any other route, the tree, the health check and the API document", async () => {
  const tree = await tf.call<{ element: { path: string } }>("GET", "/api/demo/ops/tree",
                                                            { params: { depth: 2 } });
  assert.equal(tree.element.path, "demo");
  assert.deepEqual(await tf.health(), { status: "ok" });
  assert.equal((await tf.openapi())["openapi"], "3.1.0");
  const meta = await tf.element("demo/memory").updateMeta({ team: "blue" });
  assert.equal((meta.meta as Record<string, unknown>)["team"], "blue");
});
