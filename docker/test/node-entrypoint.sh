#!/bin/sh
# As the official node image's: a first argument that is an option or not a command runs node.
set -e
if [ "${1#-}" != "$1" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
