/**
 * Image parts for language-model requests. `LanguageModelDataPart` and a chat model's
 * `capabilities.supportsImageToText` exist at run time in the VS Code versions we test (1.139), but
 * not in the @types/vscode 1.104 typings this extension builds against; without either, images stay
 * the text placeholders every model gets.
 */
import * as vscode from 'vscode';
import type { ModelImage } from '../../core';

interface DataPartClass { image(data: Uint8Array, mime: string): unknown }
const DataPart = (vscode as unknown as { LanguageModelDataPart?: DataPartClass }).LanguageModelDataPart;

/** Whether `model` reads images and this VS Code can send them. */
export function readsImages(model: vscode.LanguageModelChat): boolean {
  return !!DataPart && (model as { capabilities?: { supportsImageToText?: boolean } }).capabilities?.supportsImageToText === true;
}

/** Whether this VS Code can send images at all (the language-model tools do not know the caller's model). */
export const canSendImages = (): boolean => !!DataPart;

export function imageParts(images: readonly ModelImage[]): unknown[] {
  return DataPart ? images.map(i => DataPart.image(Buffer.from(i.base64, 'base64'), i.mimeType)) : [];
}
