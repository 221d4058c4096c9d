# Stand-in for nginx:1.27, built only because CI cannot pull from Docker Hub (docker/test/README.md).
# Debian bookworm's nginx (1.22) with the official image's contract: /docker-entrypoint.sh runs every
# executable /docker-entrypoint.d/*.sh before nginx, nginx.conf includes /etc/nginx/conf.d/*.conf,
# logs go to the container's stdout and stderr, the default command is nginx in the foreground.
ARG DEBIAN_IMAGE=localhost/docqa-ci/debian:bookworm
FROM ${DEBIAN_IMAGE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx ca-certificates \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled /etc/nginx/conf.d/* \
 && mkdir -p /docker-entrypoint.d /etc/nginx/conf.d \
 && ln -sf /dev/stdout /var/log/nginx/access.log \
 && ln -sf /dev/stderr /var/log/nginx/error.log
COPY nginx.conf /etc/nginx/nginx.conf
COPY --chmod=0755 nginx-entrypoint.sh /docker-entrypoint.sh
ENTRYPOINT ["/docker-entrypoint.sh"]
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
