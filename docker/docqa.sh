#!/bin/sh
# `docqa <command>` inside the image: serve, migrate, models, config check, ... (README.md).
# exec, so that the server is the process that receives docker's SIGTERM.
exec node --enable-source-maps /app/packages/server/dist/cli.js "$@"
