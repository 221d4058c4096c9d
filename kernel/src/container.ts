import 'reflect-metadata';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { DocqaError, type Token } from '@docqa/plugin-api';

/**
 * A typed facade over a tsyringe child container. Every kernel has its own, so two kernels in one
 * process (tests) never share registrations; nothing registers in the global container.
 */
export class Container {
  readonly #inner: DependencyContainer;

  constructor() {
    this.#inner = rootContainer.createChildContainer();
  }

  register<T>(token: Token<T>, value: T): void {
    if (!token.multi && this.#inner.isRegistered(token.key)) {
      throw new DocqaError('plugin_invalid', `'${token.id}' is already registered and takes exactly one provider`);
    }
    this.#inner.register(token.key, { useValue: value });
  }

  resolve<T>(token: Token<T>): T {
    if (!this.#inner.isRegistered(token.key)) {
      throw new DocqaError('internal', `Nothing is registered for '${token.id}'`);
    }
    return this.#inner.resolve<T>(token.key);
  }

  resolveAll<T>(token: Token<T>): T[] {
    return this.#inner.isRegistered(token.key) ? this.#inner.resolveAll<T>(token.key) : [];
  }

  has(token: Token<unknown>): boolean {
    return this.#inner.isRegistered(token.key);
  }

  /** What a plugin or module dependency gets: a multi token's list, an absent optional one's undefined. */
  resolveDependency(token: Token<unknown>): unknown {
    if (token.multi) return this.resolveAll(token);
    if (token.optional && !this.has(token)) return undefined;
    return this.resolve(token);
  }
}
