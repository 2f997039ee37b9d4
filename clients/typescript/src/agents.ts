/**
 * Agents (docs/agents.md): the subconscious `observe` and the conscious memory tools. Both
 * a triformer (an agent, bonding memories) and a memory element (its own single bond)
 * answer them, so both handles share AgentFacing.
 */

import { Element } from "./elements.js";
import type { Answer, JSONObject, ObserveRequest, Observation, SubjectType,
  Turn } from "./types.js";

export interface SubjectOptions {
  subject_type?: SubjectType;
  subject_id?: string;
}

export class AgentFacing extends Element {
  /** Let the subconscious decide what to add, update or forget from `turns`. Never
   * repeated after a lost answer: observing twice could act twice. */
  observe(turns: Turn[], options: Omit<ObserveRequest, "turns"> = {}): Promise<Observation> {
    return this.postJson("observe", { turns, ...options }, false);
  }

  /** The conscious tools (MCP `tools/list` shape) and the bonded memories. */
  tools(): Promise<Answer<"tools">> {
    return this.getJson("tools");
  }

  /** Call one tool with the conversation's subject fixed; answer its `result`.
   * @throws Forbidden the memory's `conscious_access` does not allow the tool. */
  async callTool(name: string, args: JSONObject = {},
                 subject: SubjectOptions = {}): Promise<unknown> {
    const answer = await this.postJson<Answer<"tools_call">>("tools/call", {
      name, arguments: args, ...subject }, false);
    return answer.result;
  }
}

/** A triformer element. */
export class Agent extends AgentFacing {}
