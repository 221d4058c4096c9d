#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig, readEnvironment, renderConfigurationReference, variables, type VariableSpec } from '@docqa/kernel';
import { runInit } from './cli/init.js';
import { describeStartupError, serve } from './cli/serve.js';
import { openApiDocument, startServer } from './server.js';

const usage = `Usage: docqa <command>

  serve              start the server (default)
  init [--if-missing] [--force]
                     write .env with generated secrets and an admin password
  migrate            apply pending database migrations and exit
  config check       validate the configuration and print what is in effect
  config reference   print the reference of every variable (docs/configuration.md)
  openapi            print the OpenAPI document
`;

const out = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'if-missing': { type: 'boolean', default: false }, force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  const [command = 'serve', sub] = positionals;
  if (values.help) {
    out(usage);
    return 0;
  }
  switch (command) {
    case 'serve':
      return serve();
    case 'init':
      return runInit({ cwd: process.cwd(), ifMissing: values['if-missing'], force: values.force, out });
    case 'migrate': {
      // Starting the kernel applies migrations (under a lock on a server); then stop again.
      const running = await startServer({ port: 0, host: '127.0.0.1' });
      await running.stop();
      out('Database is up to date.');
      return 0;
    }
    case 'config':
      if (sub === 'check') return configCheck();
      if (sub === 'reference') {
        out(renderConfigurationReference());
        return 0;
      }
      break;
    case 'openapi':
      out(JSON.stringify(openApiDocument(), null, 2));
      return 0;
  }
  process.stderr.write(`Unknown command: ${positionals.join(' ')}\n${usage}`);
  return 2;
}

function configCheck(): number {
  const config = loadConfig(readEnvironment(process.env, process.cwd()), { cwd: process.cwd() });
  for (const warning of config.warnings) out(`warning: ${warning}`);
  out(`Configuration is valid (data directory ${config.dataDir}, ${config.values.DATABASE_URL ? 'PostgreSQL server' : 'embedded database'}).`);
  for (const [name, value] of Object.entries(config.values)) {
    const spec = variables[name as keyof typeof variables] as VariableSpec<unknown>;
    const shown = spec.sensitive ? (value === undefined ? '(unset)' : '(set)') : JSON.stringify(value) ?? '(unset)';
    out(`  ${name}=${shown}${spec.seed ? '  [seed]' : ''}`);
  }
  return 0;
}

// Exit once the command is done even if a library left a timer behind; unref'd, so a process
// with nothing left running exits on its own first.
const exitSoon = (code: number) => {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
};

main(process.argv.slice(2)).then(exitSoon, (error: unknown) => {
  process.stderr.write(`${describeStartupError(error)}\n`);
  exitSoon(1);
});
