/**
 * Skills in an `@mcp` request (Skills extension, SEP-2640): the model is offered the name and
 * description of each skill of the servers in the request's scope, and a `load_skill` tool. Loading
 * reads the skill's SKILL.md from its server, verifies size, digest and frontmatter (core/skills) and
 * gives the model the body, cleaned, in a block of its server; a refused skill gives the model and
 * the user the reason. Nothing of a skill is read before the model loads it.
 */
import * as vscode from 'vscode';
import { loadedSkillText, loadSkillDefinition, MAX_OFFERED_SKILLS, skillsOfferMessage, SkillRefusedError, type McpHost, type SkillEntry } from '../../core';
import { markdownText } from './markdownText';

export class ChatSkills {
  private constructor(private readonly host: McpHost, readonly offered: readonly SkillEntry[]) {}

  /** The skills of `servers` (running ones that declare the extension), listed now. */
  static async of(host: McpHost, servers: readonly string[]): Promise<ChatSkills> {
    const offered: SkillEntry[] = [];
    for (const name of servers) {
      const conn = host.get(name);
      if (!conn || offered.length >= MAX_OFFERED_SKILLS) continue;
      try { offered.push(...(await host.skills.list(conn)).skills); } catch { /* logged by the directory */ }
    }
    return new ChatSkills(host, offered.slice(0, MAX_OFFERED_SKILLS));
  }

  /** The message that tells the model which skills there are; none when there are none. */
  messages(): vscode.LanguageModelChatMessage[] {
    const text = skillsOfferMessage(this.offered);
    return text ? [vscode.LanguageModelChatMessage.User(text)] : [];
  }

  tools(): vscode.LanguageModelChatTool[] { return this.offered.length ? [loadSkillDefinition] : []; }

  /** Loads the skill the model asked for: its text for the model, and whether it was refused. */
  async load(input: unknown, stream: vscode.ChatResponseStream): Promise<{ text: string; isError: boolean }> {
    const { server, name } = (input ?? {}) as { server?: unknown; name?: unknown };
    const entry = this.offered.find(s => s.server === server && s.name === name);
    if (!entry) return { text: `There is no offered skill named ${JSON.stringify(name)} of server ${JSON.stringify(server)}.`, isError: true };
    const conn = this.host.get(entry.server);
    try {
      if (!conn) throw new SkillRefusedError(entry.server, entry.name, 'the server is gone.');
      const loaded = await this.host.skills.load(conn, entry.name);
      stream.markdown(vscode.l10n.t('_Loaded skill {0} of {1}._\n\n', markdownText(entry.name, 64), markdownText(entry.server, 100)));
      return { text: loadedSkillText(loaded), isError: false };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      stream.markdown(`\n\n> ${markdownText(message, 500)}\n\n`);
      return { text: message, isError: true };
    }
  }
}
