// A real `triform serve` on 127.0.0.1 for one test file: a fresh home (the hashing
// embedder: these tests are not about meaning), its first admin token, and tokens of the
// other roles made with `triform token create`. Stopped (SIGTERM) after the file.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The repository's root (this file is build/test/server.js in clients/typescript). */
export const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const PYTHON = process.env.TRIFORM_PYTHON ?? join(ROOT, ".venv", "bin", "python");

// A rejection nobody handled fails the file, whatever the test runner would do with it.
process.on("unhandledRejection", (reason) => {
  console.error("unhandled rejection:", reason);
  process.exitCode = 1;
  throw reason;
});

export class Server {
  url = "";
  admin = "";
  readonly home: string;
  private process: ChildProcess | undefined;

  constructor() {
    this.home = join(mkdtempSync(join(tmpdir(), "triform-ts-")), "home");
  }

  cli(...args: string[]): string {
    return execFileSync(PYTHON, ["-m", "api.cli", "--home", this.home, "--embedder", "hashing",
      ...args], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  }

  /** A new token of `role` in circle demo. */
  token(role: "viewer" | "member" | "admin"): string {
    return this.cli("token", "create", "--circle", "demo", "--role", role, "--name", role);
  }

  async start(): Promise<Server> {
    const child = spawn(PYTHON, ["-m", "api.cli", "--home", this.home, "--embedder", "hashing",
      "serve", "--port", "0", "--sweep-seconds", "0"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] });
    this.process = child;
    const ready = new Promise<void>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.on("line", (line) => {
        const text = line.trim();
        if (text.startsWith("tfm_") && this.admin === "") this.admin = text;
        if (text.startsWith("serving ") && text.includes(" on http://")) {
          this.url = text.split(" on ")[1]!.split(" ")[0]!;
          resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`triform serve exited with ${code}`)));
    });
    await ready;
    return this;
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(join(this.home, ".."), { recursive: true, force: true });
  }
}
