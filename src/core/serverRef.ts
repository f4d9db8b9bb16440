/**
 * The identity of a server as the ports see it. A module of its own because both the ports (ports.ts)
 * and the port types they are made of (auth/types.ts) name it: defined in either, the two would import
 * each other.
 */

/** Identifies the server a request comes from, for consent UIs ("server X asks …"). */
export interface ServerRef {
  readonly name: string;
  readonly title?: string;
}
