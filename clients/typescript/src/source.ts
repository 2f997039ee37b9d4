/**
 * The git side of an element (docs/source-ops.md): `element.source.<op>()`. Each method is
 * one op under `/api/<path>/ops/source...`; a merge with conflicts throws Conflict whose
 * `body` holds `conflicts`, `ours` and `theirs`.
 */

import type { Transport } from "./transport.js";
import { defined, opUrl } from "./transport.js";
import type { Answer, Body, QueryOf } from "./types.js";

export type Branch = "draft" | "demo" | "live";

export class Source {
  constructor(private readonly t: Transport, readonly path: string) {}

  private async get<T>(op: string, params: Record<string, string | undefined> = {}
  ): Promise<T> {
    return this.t.call<T>("GET", opUrl(this.path, op), { safe: true, params });
  }

  private async post<T>(op: string, body: object, safe: boolean): Promise<T> {
    return this.t.call<T>("POST", opUrl(this.path, op), { safe, json: defined(body) });
  }

  /** Branches, clone URL and checkout lines, findings, files. */
  status(): Promise<Answer<"source_status">> {
    return this.get("source/status");
  }

  /** Each branch's tip and the promotion steps' ahead/behind. */
  branches(): Promise<Answer<"source_branches">> {
    return this.get("source/branches");
  }

  /** One file of a branch: `exists`, `content`, `encoding`. */
  file(path: string, branch?: Branch): Promise<Answer<"source">> {
    return this.get("source", { path, branch });
  }

  /** Preview merging `theirs` into `ours` (default the draft tip); writes nothing. */
  diff3(theirs: string, ours?: string): Promise<Answer<"source_diff3">> {
    return this.get("source/diff3", { theirs, ours } satisfies Partial<QueryOf<"source_diff3">>);
  }

  /** Merge a commit into draft. @throws Conflict the merge has conflicts; nothing written. */
  merge(theirs: string, message?: string): Promise<Answer<"source_merge">> {
    // Merging the same commit again finds draft up to date: safe to repeat.
    return this.post("source/merge", { theirs, message } satisfies Body<"source_merge">, true);
  }

  /** Fast-forward demo to draft, or live to demo, through the element's promotion gates
   * (docs/evals.md): an admin passes failing gates with `force` and a `reason` (recorded).
   * @throws Conflict the target diverged, or a gate failed (`PROMOTION_GATE_FAILED`).
   * @throws Forbidden `force`, or a protected property's change, by a non-admin. */
  promote(to: "demo" | "live", options: { force?: boolean; reason?: string } = {}
  ): Promise<Answer<"source_promote">> {
    return this.post("source/promote", { to, ...options } satisfies Body<"source_promote">,
                     true);
  }

  /** Validate a branch (default draft): `ok` and `findings`. */
  validate(branch?: string): Promise<Answer<"source_validate">> {
    return this.post("source/validate", { branch }, true);
  }

  /** Check (and with `dryRun: false` fix) refs, objects, spec, memory runtime. */
  repair(options: { dryRun?: boolean; pruneAge?: string } = {}): Promise<Answer<"source_repair">> {
    return this.post("source/repair", { dry_run: options.dryRun ?? true,
      prune_age: options.pruneAge }, true);
  }

  /** Report (or apply, with `dryRun: false, confirm: true`) the branch's fixtures. */
  fixtures(options: { dryRun?: boolean; confirm?: boolean; branch?: string } = {}
  ): Promise<Answer<"source_fixtures">> {
    return this.post("source/fixtures", { dry_run: options.dryRun ?? true,
      confirm: options.confirm ?? false, branch: options.branch }, true);
  }
}
