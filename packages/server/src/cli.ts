#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig, readEnvironment, renderConfigurationReference, variables, type VariableSpec } from '@docqa/kernel';
import { runAsk } from './cli/ask.js';
import { runInit } from './cli/init.js';
import { runLicense } from './cli/license.js';
import { runModelsCommand } from './cli/models.js';
import { describeStartupError, serve, serveRoles } from './cli/serve.js';
import { runExport, runImport } from './cli/transfer.js';
import { applyMemoryPolicy } from './runtime/memory-policy.js';
import { openApiDocument, startServer } from './server.js';

const usage = `Usage: docqa <command>

  serve [--role api|worker|all] [--supervise]
                     start the server (default); the role (DOCQA_ROLE, default all) says
                     whether it serves the API, runs the jobs, or both; --supervise runs
                     it in a child process and starts another when it fails
  init [--if-missing] [--force] [--pull-models]
                     write .env with generated secrets and an admin password; on a
                     terminal, offer to download the recommended models (--pull-models: do)
  migrate            apply pending database migrations and exit
  config check       validate the configuration and print what is in effect
  config reference   print the reference of every variable (docs/configuration.md)
  openapi            print the OpenAPI document
  license keygen|sign|inspect
                     issue and check license keys (docqa license --help)
  models list|pull|import|rm|use
                     local GGUF models (docqa models --help)
  mcp [--url <url>] [--key <key>]
                     an MCP server on stdio for desktop clients, forwarding to the
                     server at the URL (DOCQA_URL) with the API key (DOCQA_API_KEY)
  export --out <file> [--without-models]
                     write every table and data file into one archive (DocQA stopped
                     when on the embedded database): docs/moving-to-postgresql.md
  import <file>      load such an archive into this configuration's empty database
                     and DOCQA_DATA_DIR
  ask "<question>" [--url <url>] [--key <key>]
                     ask a running DocQA; streams the answer, then its sources (docqa ask --help)
`;

const out = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  applyMemoryPolicy();
  // Its own options (--plan, --out, ...): parsed there, not by the table below.
  if (argv[0] === 'license')
    return runLicense(argv.slice(1), {
      cwd: process.cwd(),
      env: process.env,
      out,
      err: (line) => process.stderr.write(`${line}\n`),
    });
  if (argv[0] === 'models') return runModelsCommand(argv.slice(1));
  // Imported here: the MCP SDK is about 30 MB of resident memory that `docqa serve` does not need.
  if (argv[0] === 'mcp')
    return (await import('./cli/mcp.js')).runMcpCommand(argv.slice(1), {
      env: process.env,
      err: (line) => process.stderr.write(`${line}\n`),
    });
  if (argv[0] === 'ask')
    return runAsk(argv.slice(1), {
      env: process.env,
      write: (text) => process.stdout.write(text),
      err: (line) => process.stderr.write(`${line}\n`),
    });
  const transferIo = {
    cwd: process.cwd(),
    env: process.env,
    out,
    err: (line: string) => process.stderr.write(`${line}\n`),
  };
  if (argv[0] === 'export') return runExport(argv.slice(1), transferIo);
  if (argv[0] === 'import') return runImport(argv.slice(1), transferIo);
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'if-missing': { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      'pull-models': { type: 'boolean', default: false },
      role: { type: 'string' },
      supervise: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command = 'serve', sub] = positionals;
  if (values.help) {
    out(usage);
    return 0;
  }
  switch (command) {
    case 'serve':
      if (values.role !== undefined && !serveRoles.includes(values.role)) {
        process.stderr.write(`--role must be one of ${serveRoles.join(', ')}, not "${values.role}".\n`);
        return 2;
      }
      return serve({ role: values.role, supervise: values.supervise });
    case 'init':
      // Never a download in a non-interactive run unless asked: scripts pass --pull-models.
      return runInit({
        cwd: process.cwd(),
        ifMissing: values['if-missing'],
        force: values.force,
        out,
        pullModels: values['pull-models'] || (process.stdin.isTTY && process.stdout.isTTY ? 'ask' : false),
      });
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
  out(
    `Configuration is valid (data directory ${config.dataDir}, ` +
      `${config.values.DATABASE_URL ? 'PostgreSQL server' : 'embedded database'}).`,
  );
  for (const [name, value] of Object.entries(config.values)) {
    const spec = variables[name as keyof typeof variables] as VariableSpec<unknown>;
    const shown = spec.sensitive ? (value === undefined ? '(unset)' : '(set)') : (JSON.stringify(value) ?? '(unset)');
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
