/**
 * Typed tokens: the only way code asks the container for something. A token's id is namespaced
 * (`'<area>.<name>'`) so that two packages cannot collide by accident, and its type parameter makes
 * every lookup typed — there are no string lookups anywhere else.
 */
declare const tokenType: unique symbol;

export interface Token<T> {
  readonly id: string;
  /** A multi token collects every registration (all connectors); a single one allows exactly one. */
  readonly multi: boolean;
  /** The container key; Symbol.for so that two copies of this package still agree on it. */
  readonly key: symbol;
  /** As a dependency: resolved to undefined when nothing provides it, instead of refusing to start. */
  readonly optional?: boolean;
  readonly [tokenType]?: T;
}

export type TokenValue<K> = K extends Token<infer T> ? T : never;

const tokenId = /^[a-z][a-zA-Z0-9]*\.[a-z][a-zA-Z0-9.]*$/;

/** A multi token's type says so, so that a dependency on it is typed as the list it resolves to. */
export type MultiToken<T> = Token<T> & { readonly multi: true };

export function createToken<T>(id: string, options: { multi: true }): MultiToken<T>;
export function createToken<T>(id: string, options?: { multi?: false }): Token<T>;
export function createToken<T>(id: string, options: { multi?: boolean } = {}): Token<T> {
  if (!tokenId.test(id)) {
    throw new TypeError(`Token id '${id}' must be namespaced as '<area>.<name>'`);
  }
  return Object.freeze({ id, multi: options.multi ?? false, key: Symbol.for(`docqa.token.${id}`) });
}

/**
 * A dependency that may be absent, such as the license gate of an edition that loads none: the
 * dependent gets undefined and decides what that means, instead of the kernel refusing to start.
 */
export function optional<T>(token: Token<T>): Token<T | undefined> {
  if (token.multi)
    throw new TypeError(`Token '${token.id}' is a multi token: it resolves to a list, empty when absent`);
  return Object.freeze({ ...token, optional: true }) as Token<T | undefined>;
}
