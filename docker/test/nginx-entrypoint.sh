#!/bin/sh
# As the official nginx image's /docker-entrypoint.sh: when the command is nginx, run the executable
# /docker-entrypoint.d/*.sh in order first (a failing one stops the container), then exec the command.
set -e
if [ "$1" = nginx ] || [ "$1" = nginx-debug ]; then
  if find /docker-entrypoint.d/ -mindepth 1 -maxdepth 1 -type f -print -quit 2>/dev/null | read -r _; then
    echo "$0: /docker-entrypoint.d/ is not empty, will attempt to perform configuration"
    for f in $(find /docker-entrypoint.d/ -follow -type f -name '*.sh' -print | sort -V); do
      if [ -x "$f" ]; then
        echo "$0: Launching $f"
        "$f"
      else
        echo "$0: Ignoring $f, not executable"
      fi
    done
    echo "$0: Configuration complete; ready for start up"
  fi
fi
exec "$@"
