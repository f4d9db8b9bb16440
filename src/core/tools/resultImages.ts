/**
 * Images in tool results, for models that read images. They count in the result budget at a fixed
 * cost each: providers bill an image by its pixel size (Anthropic: width × height / 750 tokens,
 * about 1,600 for the largest image it reads without scaling; OpenAI: at most 1,105 tokens in high
 * detail for a 512-pixel-tiled image), and the host does not decode images to measure them. A fixed,
 * generous cost keeps the budget deterministic and never undercounts a large image by much.
 */
import type { ToolResultPart } from './toolResults';

/** Tokens one image counts for in a tool result's budget. */
export const IMAGE_TOKEN_COST = 1_600;
/** Image types the chat models read; others stay a text placeholder. */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Base64 length of the largest image sent (≈ 3.75 MB decoded); larger ones stay a placeholder. */
const MAX_IMAGE_BASE64 = 5_000_000;

export interface ModelImage { readonly mimeType: string; readonly base64: string }

/**
 * The images of `parts` a model may read, in order, as many as fit `budgetTokens` after
 * `textTokens` of text; the rest (and every image when `readsImages` is false) reach the model only
 * as the text placeholders it already gets.
 */
export function imagesForModel(parts: readonly ToolResultPart[], readsImages: boolean, budgetTokens: number, textTokens: number): ModelImage[] {
  if (!readsImages) return [];
  const out: ModelImage[] = [];
  let used = textTokens;
  for (const p of parts) {
    if (p.kind !== 'data' || p.what !== 'image') continue;
    const mimeType = p.mimeType.toLowerCase();
    if (!MODEL_IMAGE_TYPES.has(mimeType) || p.base64.length > MAX_IMAGE_BASE64 || !p.base64) continue;
    if (used + IMAGE_TOKEN_COST > budgetTokens) break;
    used += IMAGE_TOKEN_COST;
    out.push({ mimeType, base64: p.base64 });
  }
  return out;
}

/** Base64 length of the largest image shown in a chat response (≈ 750 KB decoded). */
const MAX_SHOWN_BASE64 = 1_000_000;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The images of `parts` a chat response may show inline as `data:` URIs: raster types only (no SVG,
 * which is a document), bounded in size, and strictly base64 — the data goes into Markdown, so a
 * server's `)` or `]` must not end the image and start a link.
 */
export function imagesToShow(parts: readonly ToolResultPart[]): ModelImage[] {
  const out: ModelImage[] = [];
  for (const p of parts) {
    if (p.kind !== 'data' || p.what !== 'image') continue;
    const mimeType = p.mimeType.toLowerCase();
    if (MODEL_IMAGE_TYPES.has(mimeType) && p.base64.length <= MAX_SHOWN_BASE64 && BASE64.test(p.base64)) out.push({ mimeType, base64: p.base64 });
  }
  return out;
}
