# Stand-in for pgvector/pgvector:pg15, built only because CI cannot pull from Docker Hub
# (docker/test/README.md). Debian bookworm's PostgreSQL 15 with pgvector compiled from Debian
# trixie's source package, as scripts/ci/install-postgres.sh does on the CI machine, and an entry
# point with the official postgres image's contract: POSTGRES_USER, POSTGRES_PASSWORD(_FILE),
# POSTGRES_DB(_FILE), PGDATA (/var/lib/postgresql/data), /docker-entrypoint-initdb.d/*.sql|*.sh on
# first start, password authentication over TCP, user postgres (999), port 5432.
ARG DEBIAN_IMAGE=localhost/docqa-ci/debian:bookworm
FROM ${DEBIAN_IMAGE}
RUN groupadd -r --gid 999 postgres \
 && useradd -r --gid postgres --uid 999 --home-dir /var/lib/postgresql --shell /bin/bash postgres \
 && mkdir -p /var/lib/postgresql && chown postgres:postgres /var/lib/postgresql
ENV PG_MAJOR=15
# No cluster from Debian's package: the entry point initialises PGDATA itself, as the official one.
RUN mkdir -p /etc/postgresql-common/createcluster.d \
 && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/docqa.conf \
 && apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      postgresql-15 postgresql-client-15 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# pgvector: trixie's source package built against PostgreSQL 15 (install-postgres.sh, step 2); the
# compiler and headers are removed again in the same layer.
RUN printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      > /etc/apt/sources.list.d/trixie-src.sources \
 && apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      postgresql-server-dev-15 build-essential dpkg-dev \
 && mkdir /tmp/pgv && cd /tmp/pgv && chown _apt /tmp/pgv \
 && apt-get source -qq --download-only pgvector/trixie \
 && dpkg-source -x --no-check pgvector_*.dsc src >/dev/null \
 && make -s -C src USE_PGXS=1 PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config OPTFLAGS="" -j"$(nproc)" \
 && make -s -C src USE_PGXS=1 PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config OPTFLAGS="" install \
 && cd / && rm -rf /tmp/pgv /etc/apt/sources.list.d/trixie-src.sources \
 && DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq --auto-remove postgresql-server-dev-15 build-essential dpkg-dev \
 && rm -rf /var/lib/apt/lists/* \
 && test -f /usr/share/postgresql/15/extension/vector.control
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
RUN mkdir -p /docker-entrypoint-initdb.d /var/run/postgresql "$PGDATA" \
 && chown postgres:postgres /var/run/postgresql "$PGDATA" && chmod 3777 /var/run/postgresql
COPY --chmod=0755 postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
ENTRYPOINT ["docker-entrypoint.sh"]
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["postgres"]
