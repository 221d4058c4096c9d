#!/bin/sh
# `docqa <command>` inside the image: serve, migrate, models, config check, ... (README.md).
# exec, so that the server is the process that receives docker's SIGTERM. A 4 MB young generation
# (semi-space) on the main thread, and no memory reducer: docs/operations.md, Memory.
exec node --max-semi-space-size=4 --no-memory-reducer --enable-source-maps /app/packages/server/dist/cli.js "$@"
