import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import { DocqaError, type OutboundGuard } from '@docqa/plugin-api';
import { abortableHttp } from './abortable-http.js';
import type { GitSourceConfig } from './config.js';

/**
 * The local clone of one source: `<stateDir>/<sourceId>`, objects only (no checkout: documents
 * are read from blobs). It keeps the commit of every earlier sync, so the next one can diff.
 */
export class WorkingClone {
  readonly dir: string;
  private readonly markerFile: string;

  constructor(
    stateDir: string,
    sourceId: string,
    private readonly config: GitSourceConfig,
    /** The plugin's outboundAllow policy, applied to every request and redirect. */
    private readonly guard: OutboundGuard,
  ) {
    // encodeURIComponent: a source id never becomes a path of its own (no '..', no '/').
    this.dir = path.join(stateDir, encodeURIComponent(sourceId));
    this.markerFile = path.join(this.dir, 'docqa-source.json');
  }

  /** Clones on the first sync (depth 1, one branch) or fetches the branch; answers its commit oid. */
  async update(signal: AbortSignal): Promise<string> {
    const common = { fs, http: abortableHttp(signal, this.guard), dir: this.dir, headers: this.authHeaders() };
    const remoteRef = `refs/remotes/origin/${this.config.branch}`;
    try {
      if (await this.isUsable()) {
        // depth 1 again: only the new tip is needed; the previous sync's commit is already here.
        await git.fetch({
          ...common,
          url: this.config.url,
          ref: this.config.branch,
          singleBranch: true,
          depth: 1,
          tags: false,
        });
      } else {
        await fs.promises.rm(this.dir, { recursive: true, force: true });
        await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
        await git.clone({
          ...common,
          url: this.config.url,
          ref: this.config.branch,
          singleBranch: true,
          depth: 1,
          noCheckout: true,
          noTags: true,
        });
        // Written last: a clone cut short (abort, crash) has no marker and is made again next time.
        await fs.promises.writeFile(
          this.markerFile,
          JSON.stringify({ url: this.config.url, branch: this.config.branch }),
        );
      }
      return await git.resolveRef({ fs, dir: this.dir, ref: remoteRef });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw this.describeFailure(error);
    }
  }

  async hasCommit(oid: string): Promise<boolean> {
    try {
      await git.readCommit({ fs, dir: this.dir, oid });
      return true;
    } catch {
      return false;
    }
  }

  async commitTime(oid: string): Promise<Date> {
    const { commit } = await git.readCommit({ fs, dir: this.dir, oid });
    return new Date(commit.committer.timestamp * 1000);
  }

  async readBlob(oid: string): Promise<Uint8Array> {
    return (await git.readBlob({ fs, dir: this.dir, oid })).blob;
  }

  /** A clone made for this URL and branch (another one, after a config change, is cloned anew). */
  private async isUsable(): Promise<boolean> {
    try {
      const marker = JSON.parse(await fs.promises.readFile(this.markerFile, 'utf8')) as {
        url?: string;
        branch?: string;
      };
      return marker.url === this.config.url && marker.branch === this.config.branch;
    } catch {
      return false;
    }
  }

  /** Sent with every request, so a private repository needs no 401 round trip first. */
  private authHeaders(): Record<string, string> {
    if (!this.config.token) return {};
    const username = this.config.username ?? 'x-access-token';
    return { authorization: `Basic ${Buffer.from(`${username}:${this.config.token}`).toString('base64')}` };
  }

  /**
   * Turns isomorphic-git's errors into DocqaErrors a user can act on. The token never appears: it
   * is not in the URL (the config schema refuses credentials there) and is scrubbed from messages;
   * an authentication failure keeps no `cause`, whose details we do not control.
   */
  private describeFailure(error: unknown): DocqaError {
    // The outbound guard's refusal already names the host and the option to change.
    if (DocqaError.is(error)) return error;
    const repository = `Git repository ${this.config.url}`;
    const data = (error as { data?: { statusCode?: number } }).data;
    const code = (error as { code?: string }).code;
    const message = this.scrub((error as Error).message ?? String(error));
    if (code === 'HttpError' && (data?.statusCode === 401 || data?.statusCode === 403)) {
      // 'unavailable', not 'unauthorized': the DocQA caller is signed in; the *source* refused us, and
      // a 401 from DocQA's API would make clients sign the user out.
      return new DocqaError(
        'unavailable',
        `${repository} refused the credentials (HTTP ${data.statusCode}); check the integration's username and token`,
      );
    }
    if (
      code === 'NotFoundError' ||
      code === 'CommitNotFetchedError' ||
      (/could not find|not found/i.test(message) && !code?.startsWith('Http'))
    ) {
      return new DocqaError(
        'validation_failed',
        `${repository} has no branch '${this.config.branch}'; check the integration's branch`,
        {
          errors: [{ field: 'branch', message: `no branch '${this.config.branch}' in the repository` }],
        },
      );
    }
    return new DocqaError('unavailable', `Cannot read ${repository}: ${message}`, {
      cause: this.config.token ? undefined : error,
    });
  }

  private scrub(text: string): string {
    return this.config.token ? text.split(this.config.token).join('***') : text;
  }
}
