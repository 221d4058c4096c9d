import { expect } from 'chai';
import { embeddingThreads, inferenceThreads } from './inference-threads.js';

const variables = (values: Record<string, unknown>) => (name: string) => values[name];

describe('inference threads', () => {
  it('takes N_THREADS, never more than the cores, never fewer than one', () => {
    expect(inferenceThreads(variables({ N_THREADS: 8 }), 4)).to.equal(4);
    expect(inferenceThreads(variables({ N_THREADS: 3 }), 4)).to.equal(3);
    expect(inferenceThreads(variables({ N_THREADS: 0 }), 4)).to.equal(1);
  });

  it('leaves the embedded database a core: the embedding model gets one core less without DATABASE_URL', () => {
    expect(embeddingThreads(variables({ N_THREADS: 8 }), 2)).to.equal(1);
    expect(embeddingThreads(variables({ N_THREADS: 8 }), 8)).to.equal(7);
    expect(embeddingThreads(variables({ N_THREADS: 4 }), 8)).to.equal(4);
    expect(embeddingThreads(variables({ N_THREADS: 8 }), 1)).to.equal(1);
  });

  it('gives the embedding model every core N_THREADS allows on a PostgreSQL server', () => {
    expect(embeddingThreads(variables({ N_THREADS: 8, DATABASE_URL: 'postgres://db/docqa' }), 2)).to.equal(2);
  });
});
