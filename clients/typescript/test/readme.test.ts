// README.md, run: its two install commands in a fresh project (the package as npm packs
// it), and its TypeScript examples (test/readme.generated.ts, made from the README by
// scripts/readme.mjs and type-checked by tsc), in order, against a real server.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { BLOCKS, example } from "./readme.generated.js";
import { ROOT, Server } from "./server.js";

const server = new Server();
const README = fileURLToPath(new URL("../../README.md", import.meta.url));

before(() => server.start());
after(() => server.stop());

test("the install commands make a project that imports the client", () => {
  const [install] = [...readFileSync(README, "utf8").matchAll(/```sh\n([\s\S]*?)```/g)];
  assert.ok(install);
  const project = mkdtempSync(join(tmpdir(), "triform-ts-project-"));
  try {
    writeFileSync(join(project, "package.json"), '{"name": "app", "type": "module"}\n');
    const script = install[1]!.replaceAll("./clients/typescript", join(ROOT, "clients", "typescript"));
    execFileSync("bash", ["-e", "-c", script], { cwd: project, stdio: "pipe" });
    const probe = "import('triform-client').then((m) => console.log(typeof m.Client, " +
      "Object.keys(m).includes('TriformError')))";
    const out = execFileSync("node", ["-e", probe], { cwd: project, encoding: "utf8" });
    assert.equal(out.trim(), "function true");
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

test("the examples run, in order, and print what the README says", async () => {
  assert.ok(BLOCKS >= 8);
  process.env["TRIFORM_URL"] = server.url;
  process.env["TOKEN"] = server.admin;
  const printed: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    printed.push(args.map((a) => typeof a === "string" ? a : JSON.stringify(a)).join(" "));
  };
  const cwd = process.cwd();
  const scratch = mkdtempSync(join(tmpdir(), "triform-ts-readme-"));
  try {
    process.chdir(scratch);
    await example();
  } finally {
    console.log = log;
    process.chdir(cwd);
    rmSync(scratch, { recursive: true, force: true });
  }
  const out = printed.join("\n");
  assert.match(out, /^3 memories$/m);
  assert.match(out, /"deleted":1/);
  assert.match(out, /404 MEMORY_NOT_FOUND not_found false/);
  assert.match(out, /MEMORY_INVALID_CATEGORY/);
  assert.match(out, /CONNECTION_FAILED false/);
  assert.match(out, /^true$/m);
  assert.match(out, /resume after \d+/);
  assert.match(out, /\/git\/demo\/notes\.git/);
  assert.match(out, /"imported":\d/);
});
