/** `mcpHost.registry.url` (application scope: a workspace cannot point the browser at its own registry). */
import * as vscode from 'vscode';
import { DEFAULT_REGISTRY_URL } from '../../core/registry';
import { SECTION } from '../config';

export function registryUrl(): string {
  const value = vscode.workspace.getConfiguration(SECTION).inspect<string>('registry.url')?.globalValue;
  return typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_REGISTRY_URL;
}
