#!/bin/sh
# Renders DocQA's nginx configuration from the stack's variables (docker/README.md lists them).
#
# In the nginx container it runs from /docker-entrypoint.d/ with no arguments, before nginx starts,
# and writes the server file /etc/nginx/conf.d/default.conf. The tests run the same script with
# --standalone, which wraps the same server blocks in a complete nginx.conf (events, http, pid, logs
# and temp paths under the nginx prefix), so what is tested is what the container serves.
#
#   render-nginx-conf.sh [--standalone] [--redirect-only] [OUTPUT]
#
# --redirect-only renders only the plain-HTTP listener that sends every request to https:// (the
# stack's http-redirect service, for port 80). A bad value stops with a message naming the variable
# and a non-zero exit, so the container does not start with a configuration nobody asked for.
set -eu

me=render-nginx-conf
fail() {
  printf '%s: %s\n' "$me" "$*" >&2
  exit 1
}

standalone=0
redirect_only=0
output=/etc/nginx/conf.d/default.conf
for arg in "$@"; do
  case $arg in
    --standalone) standalone=1 ;;
    --redirect-only) redirect_only=1 ;;
    -*) fail "unknown option $arg (use --standalone, --redirect-only and an output path)" ;;
    *) output=$arg ;;
  esac
done

# --- Inputs, with the defaults of the spec (section 8.2) -------------------------------------
TLS_ENABLED=${TLS_ENABLED:-0}
SERVER_NAME=${SERVER_NAME:-}
TLS_CERT_PATH=${TLS_CERT_PATH:-/etc/nginx/certs/fullchain.pem}
TLS_KEY_PATH=${TLS_KEY_PATH:-/etc/nginx/certs/privkey.pem}
HSTS_MAX_AGE=${HSTS_MAX_AGE:-31536000}
OCSP_STAPLING=${OCSP_STAPLING:-on}
STACK_PORT=${STACK_PORT:-3000}
RATE_LIMIT_RESET=${RATE_LIMIT_RESET:-10r/m}
RATE_LIMIT_RESET_BURST=${RATE_LIMIT_RESET_BURST:-20}
# DocQA's own: the largest request body (uploads), in nginx's size syntax.
UPLOAD_MAX_BODY_SIZE=${UPLOAD_MAX_BODY_SIZE:-1g}
# Where nginx itself listens and where DocQA's API is: the container's ports and the api service.
NGINX_LISTEN=${NGINX_LISTEN:-8080}
NGINX_REDIRECT_LISTEN=${NGINX_REDIRECT_LISTEN:-8081}
NGINX_UPSTREAM=${NGINX_UPSTREAM:-api:8000}
# Docker's embedded DNS: finds the api service and the certificate's OCSP responder.
NGINX_RESOLVER=${NGINX_RESOLVER:-127.0.0.11}

case $(printf '%s' "$TLS_ENABLED" | tr 'A-Z' 'a-z') in
  1 | true | yes | on) tls=1 ;;
  0 | false | no | off) tls=0 ;;
  *) fail "TLS_ENABLED=\"$TLS_ENABLED\" must be 1 or 0 (also true/false, yes/no, on/off)" ;;
esac

is_uint() { case $1 in '' | *[!0-9]*) return 1 ;; *) return 0 ;; esac; }
is_port() { is_uint "$1" && [ "${#1}" -le 5 ] && [ "$1" -ge 1 ] && [ "$1" -le 65535 ]; }
# A value written into the configuration must not be able to end a directive or open a block.
is_plain_path() {
  case $1 in /*) ;; *) return 1 ;; esac
  case $1 in *[!A-Za-z0-9._/@+=-]*) return 1 ;; esac
}
is_listen() {
  case $1 in
    *:*) is_port "${1##*:}" && case ${1%:*} in '' | *[!0-9.]*) false ;; *) true ;; esac ;;
    *) is_port "$1" ;;
  esac
}

if [ -n "$SERVER_NAME" ]; then
  case $SERVER_NAME in
    *[!A-Za-z0-9.-]* | .* | *. | -*) fail "SERVER_NAME=\"$SERVER_NAME\" must be a domain name such as docqa.example.com" ;;
  esac
fi
if [ "$tls" = 1 ] && [ -z "$SERVER_NAME" ]; then
  fail "SERVER_NAME is required when TLS_ENABLED=$TLS_ENABLED: the certificate, the redirect and HSTS are for one domain name"
fi
is_plain_path "$TLS_CERT_PATH" || fail "TLS_CERT_PATH=\"$TLS_CERT_PATH\" must be an absolute path (letters, digits, . _ - / only)"
is_plain_path "$TLS_KEY_PATH" || fail "TLS_KEY_PATH=\"$TLS_KEY_PATH\" must be an absolute path (letters, digits, . _ - / only)"
is_uint "$HSTS_MAX_AGE" || fail "HSTS_MAX_AGE=\"$HSTS_MAX_AGE\" must be a whole number of seconds (0 disables HSTS)"
case $OCSP_STAPLING in on | off) ;; *) fail "OCSP_STAPLING=\"$OCSP_STAPLING\" must be on or off" ;; esac
is_port "$STACK_PORT" || fail "STACK_PORT=\"$STACK_PORT\" must be a port from 1 to 65535"
rate_count=${RATE_LIMIT_RESET%r/?}
rate_unit=${RATE_LIMIT_RESET##*r/}
if ! is_uint "$rate_count" || [ "$rate_count" -lt 1 ] || [ "$rate_count" = "$RATE_LIMIT_RESET" ] || { [ "$rate_unit" != s ] && [ "$rate_unit" != m ]; }; then
  fail "RATE_LIMIT_RESET=\"$RATE_LIMIT_RESET\" must be a rate such as 10r/m or 5r/s"
fi
is_uint "$RATE_LIMIT_RESET_BURST" || fail "RATE_LIMIT_RESET_BURST=\"$RATE_LIMIT_RESET_BURST\" must be a whole number (0 or more)"
case $UPLOAD_MAX_BODY_SIZE in
  *[!0-9kKmMgG]* | '' | [kKmMgG]* | *[kKmMgG]?*) fail "UPLOAD_MAX_BODY_SIZE=\"$UPLOAD_MAX_BODY_SIZE\" must be a size such as 1g, 500m or 10240k" ;;
esac
is_listen "$NGINX_LISTEN" || fail "NGINX_LISTEN=\"$NGINX_LISTEN\" must be a port or address:port"
is_listen "$NGINX_REDIRECT_LISTEN" || fail "NGINX_REDIRECT_LISTEN=\"$NGINX_REDIRECT_LISTEN\" must be a port or address:port"
case $NGINX_UPSTREAM in
  *[!A-Za-z0-9.:_-]* | *: | :*) fail "NGINX_UPSTREAM=\"$NGINX_UPSTREAM\" must be host:port of DocQA's API (api:8000)" ;;
  *:*) is_port "${NGINX_UPSTREAM##*:}" || fail "NGINX_UPSTREAM=\"$NGINX_UPSTREAM\" must end in a port" ;;
  *) fail "NGINX_UPSTREAM=\"$NGINX_UPSTREAM\" must be host:port of DocQA's API (api:8000)" ;;
esac
case $NGINX_RESOLVER in *[!A-Za-z0-9.:_-]* | '') fail "NGINX_RESOLVER=\"$NGINX_RESOLVER\" must be a DNS server address" ;; esac
if [ "$redirect_only" = 1 ] && [ "$tls" = 0 ]; then
  fail "--redirect-only needs TLS_ENABLED=1: without TLS there is nothing to redirect to"
fi

# --- Derived values ---------------------------------------------------------------------------
# Retry-After of the proxy's 429: the seconds until the bucket holds one request again.
if [ "$rate_unit" = m ]; then retry_after=$(((60 + rate_count - 1) / rate_count)); else retry_after=1; fi
# The address users reach: the port is left out where it is the scheme's own.
if [ "$STACK_PORT" = 443 ]; then public_port=''; else public_port=":$STACK_PORT"; fi
if [ "$tls" = 1 ] && [ "$HSTS_MAX_AGE" -gt 0 ]; then
  hsts="add_header Strict-Transport-Security \"max-age=$HSTS_MAX_AGE; includeSubDomains\" always;"
else
  hsts='# HSTS: off (TLS_ENABLED=0 or HSTS_MAX_AGE=0)'
fi

# --- Rendering --------------------------------------------------------------------------------
# How every request reaches DocQA: set once at server level, where every location inherits it
# (nginx passes proxy_set_header down only to a location that sets none of its own).
proxy_settings() {
  cat <<EOF
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host \$http_host;
    # nginx is the edge: the client's own X-Forwarded-For is replaced, not appended to, so a client
    # cannot choose the address DocQA rate-limits and audits (TRUST_PROXY trusts nginx).
    proxy_set_header X-Forwarded-For \$remote_addr;
    proxy_set_header X-Real-IP \$remote_addr;
    proxy_set_header X-Forwarded-Proto \$scheme;
    proxy_set_header X-Forwarded-Host \$host;
    proxy_set_header X-Forwarded-Port $STACK_PORT;
EOF
}

# error_page is inherited only by a location that sets none itself: every such location repeats these.
error_pages() { # indentation
  printf '%serror_page 413 @docqa_payload_too_large;\n%serror_page 502 503 504 =503 @docqa_unavailable;\n' "$1" "$1"
}

# A JSON error in the shape of DocQA's own ({detail, code}; docs/errors.md).
json_error() { # status code detail [header line]
  printf '    location @docqa_%s {\n' "$2"
  printf '        default_type application/json;\n'
  printf '        %s\n' "$hsts"
  if [ -n "${4:-}" ]; then printf '        %s\n' "$4"; fi
  printf "        return %s '{\"detail\":\"%s\",\"code\":\"%s\"}';\n" "$1" "$3" "$2"
  printf '    }\n'
}

redirect_server() {
  cat <<EOF
# Plain HTTP: every request goes to the HTTPS address.
server {
    listen $NGINX_REDIRECT_LISTEN;
    server_name $SERVER_NAME;
    server_tokens off;
    return 301 https://$SERVER_NAME$public_port\$request_uri;
}
EOF
}

main_server() {
  if [ "$tls" = 1 ]; then
    listen="listen $NGINX_LISTEN ssl;"
    tls_block=$(cat <<EOF
    ssl_certificate $TLS_CERT_PATH;
    ssl_certificate_key $TLS_KEY_PATH;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_prefer_server_ciphers off;
    ssl_session_cache shared:docqa_tls:10m;
    ssl_session_timeout 1d;
    ssl_session_tickets off;
    # Plain HTTP sent to this HTTPS port: answer with the HTTPS address instead of an error page.
    error_page 497 =301 https://$SERVER_NAME$public_port\$request_uri;
EOF
)
    if [ "$OCSP_STAPLING" = on ]; then
      tls_block="$tls_block
    ssl_stapling on;
    ssl_stapling_verify on;
    ssl_trusted_certificate $TLS_CERT_PATH;"
    else
      tls_block="$tls_block
    # OCSP stapling: off (OCSP_STAPLING=off, for air-gapped deployments)."
    fi
    name=$SERVER_NAME
  else
    listen="listen $NGINX_LISTEN;"
    tls_block='    # TLS: off (TLS_ENABLED=0); terminate it here with TLS_ENABLED=1 or in front of the stack.'
    name=${SERVER_NAME:-_}
  fi
  cat <<EOF
# Only POSTs count against the password-reset rate: a request with an empty key is not limited.
map \$request_method \$docqa_reset_client {
    POST \$binary_remote_addr;
    default "";
}
limit_req_zone \$docqa_reset_client zone=docqa_password_reset:10m rate=$RATE_LIMIT_RESET;

server {
    $listen
    server_name $name;
    server_tokens off;
    # Uploads (POST /api/docs/upload) are the largest requests: UPLOAD_MAX_BODY_SIZE.
    client_max_body_size $UPLOAD_MAX_BODY_SIZE;
$tls_block
    $hsts

    # DocQA's API by name, looked up again as it changes (a recreated api container gets a new
    # address), instead of once at start; the same DNS server reaches the OCSP responder.
    resolver $NGINX_RESOLVER valid=10s ipv6=off;
    resolver_timeout 5s;
    set \$docqa_api $NGINX_UPSTREAM;
$(proxy_settings)

    # nginx's own refusals answer JSON like DocQA's errors.
$(error_pages '    ')

    location / {
        proxy_pass http://\$docqa_api;
    }

    # RATE_LIMIT_RESET with RATE_LIMIT_RESET_BURST, per client address; DocQA enforces the same limit.
    location ~ ^/api/auth/(forgot|reset)-password$ {
        limit_req zone=docqa_password_reset burst=$RATE_LIMIT_RESET_BURST nodelay;
        limit_req_status 429;
        error_page 429 @docqa_rate_limited;
$(error_pages '        ')
        proxy_pass http://\$docqa_api;
    }

    # Chat answers stream as server-sent events: every piece goes to the client when DocQA writes it.
    location = /api/chat {
        proxy_buffering off;
        proxy_cache off;
        # DocQA sends a keep-alive comment every 15 s; an answer may take minutes on a CPU.
        proxy_read_timeout 3600s;
        proxy_pass http://\$docqa_api;
    }

    # Uploads stream through to DocQA, which stores them as they arrive, instead of being spooled here.
    location = /api/docs/upload {
        proxy_request_buffering off;
        proxy_read_timeout 600s;
        proxy_send_timeout 600s;
        proxy_pass http://\$docqa_api;
    }

$(json_error 429 rate_limited 'Too many password reset requests; try again later.' "add_header Retry-After $retry_after always;")
$(json_error 413 payload_too_large "The request body is larger than the $UPLOAD_MAX_BODY_SIZE the proxy allows (UPLOAD_MAX_BODY_SIZE).")
$(json_error 503 unavailable 'DocQA is not reachable right now; try again in a moment.' 'add_header Retry-After 5 always;')
}
EOF
  if [ "$tls" = 1 ] && [ "$standalone" = 1 ]; then
    echo
    redirect_server
  fi
}

body() {
  echo "# Generated by render-nginx-conf.sh at start from the stack's variables; edits here are overwritten."
  echo "# TLS_ENABLED=$TLS_ENABLED SERVER_NAME=$SERVER_NAME STACK_PORT=$STACK_PORT RATE_LIMIT_RESET=$RATE_LIMIT_RESET RATE_LIMIT_RESET_BURST=$RATE_LIMIT_RESET_BURST UPLOAD_MAX_BODY_SIZE=$UPLOAD_MAX_BODY_SIZE"
  if [ "$redirect_only" = 1 ]; then redirect_server; else main_server; fi
}

render() {
  if [ "$standalone" = 0 ]; then
    body
    return
  fi
  # A complete configuration for nginx -p <prefix> -c <file>: every path relative to the prefix.
  cat <<EOF
worker_processes 1;
pid nginx.pid;
error_log error.log warn;
events {
    worker_connections 256;
}
http {
    default_type application/octet-stream;
    access_log access.log;
    client_body_temp_path temp/body;
    proxy_temp_path temp/proxy;
    fastcgi_temp_path temp/fastcgi;
    uwsgi_temp_path temp/uwsgi;
    scgi_temp_path temp/scgi;

$(body | sed 's/^/    /')
}
EOF
}

# Written beside the target and renamed, so nginx never reads half a file.
tmp="$output.tmp.$$"
render >"$tmp" || { rm -f "$tmp"; fail "could not write $output"; }
mv -f "$tmp" "$output"
printf '%s: wrote %s (TLS %s, upstream %s)\n' "$me" "$output" "$([ "$tls" = 1 ] && echo "on for $SERVER_NAME" || echo off)" "$NGINX_UPSTREAM" >&2
