#!/bin/sh
# Prepares the compose stack in this directory: writes .env (the stack's settings) and ./secrets/*
# (generated secrets, mode 600), then says how to start. Safe to run again: an existing .env or
# secret file is never changed, only missing ones are written. The admin password is printed once,
# when it is generated; it is in ./secrets/default_admin_password afterwards.
#
#   ./install.sh [--tls DOMAIN] [--port PORT] [--inference] [--dir DIR]
#
#   --tls DOMAIN   HTTPS for DOMAIN: TLS_ENABLED=1, port 443, port 80 redirected (profile tls);
#                  put fullchain.pem and privkey.pem into ./certs
#   --port PORT    STACK_PORT, the host port of the stack (3000, or 443 with --tls)
#   --inference    the bundled llama.cpp server answers chat (profile inference, INFERENCE_URL)
#   --dir DIR      prepare DIR instead of this script's directory (it must hold compose.yaml)
set -eu

me=install.sh
fail() {
  printf '%s: %s\n' "$me" "$*" >&2
  exit 1
}

stack_dir=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
server_name=''
port=''
inference=0
while [ $# -gt 0 ]; do
  case $1 in
    --tls) [ $# -ge 2 ] || fail "--tls needs a domain name"; server_name=$2; shift 2 ;;
    --port) [ $# -ge 2 ] || fail "--port needs a port"; port=$2; shift 2 ;;
    --inference) inference=1; shift ;;
    --dir) [ $# -ge 2 ] || fail "--dir needs a directory"; stack_dir=$2; shift 2 ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) fail "unknown argument $1 (see --help)" ;;
  esac
done
[ -f "$stack_dir/compose.yaml" ] || fail "$stack_dir has no compose.yaml"
if [ -n "$server_name" ]; then
  case $server_name in *[!A-Za-z0-9.-]* | .* | *. | -*) fail "--tls \"$server_name\" is not a domain name" ;; esac
fi
if [ -n "$port" ]; then
  case $port in '' | *[!0-9]*) fail "--port \"$port\" is not a port" ;; esac
  [ "$port" -ge 1 ] && [ "$port" -le 65535 ] || fail "--port $port is not a port from 1 to 65535"
fi

# The user the DocQA image runs as (node, 1000:1000): the secrets it reads must be readable by it.
service_uid=1000
service_gid=1000

umask 077

# Random URL-safe characters: openssl when present, else the kernel's generator.
random_hex() { # bytes
  if command -v openssl >/dev/null 2>&1; then
    openssl rand -hex "$1"
  else
    od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'
    echo
  fi
}

secrets_dir=$stack_dir/secrets
mkdir -p "$secrets_dir"
chmod 700 "$secrets_dir"

# Writes a secret only when its file does not exist yet; an existing one, even empty, is kept.
created_any=0
write_secret() { # name value readable_by_service
  file=$secrets_dir/$1
  if [ -e "$file" ]; then return 1; fi
  printf '%s' "$2" >"$file.tmp"
  chmod 600 "$file.tmp"
  if [ "$3" = yes ] && [ "$(id -u)" = 0 ]; then chown "$service_uid:$service_gid" "$file.tmp"; fi
  mv "$file.tmp" "$file"
  created_any=1
  return 0
}

write_secret jwt_secret_key "$(random_hex 32)" yes || true
write_secret mfa_encryption_key "$(random_hex 32)" yes || true
admin_password=$(random_hex 12)
if write_secret default_admin_password "$admin_password" yes; then new_admin=1; else new_admin=0; fi
# PostgreSQL's password, and DATABASE_URL built from the one in use (hex: nothing to escape in a URL).
write_secret postgres_password "$(random_hex 24)" no || true
write_secret database_url "postgres://docqa:$(cat "$secrets_dir/postgres_password")@postgres:5432/docqa" yes || true
write_secret vectordb_api_key "$(random_hex 32)" yes || true
# Empty until you have them: an empty secret file is an unset variable.
write_secret smtp_password '' yes || true
write_secret hosted_api_key '' yes || true
write_secret license_key '' yes || true

mkdir -p "$stack_dir/certs"
# The nginx image runs only executable scripts from /docker-entrypoint.d/ (a copy may have lost the bit).
if [ -f "$stack_dir/nginx/render-nginx-conf.sh" ]; then chmod 755 "$stack_dir/nginx/render-nginx-conf.sh"; fi

env_file=$stack_dir/.env
if [ -e "$env_file" ]; then
  env_note="kept $env_file as it is"
else
  if [ -n "$server_name" ]; then
    tls=1
    port=${port:-443}
    if [ "$port" = 443 ]; then public_url="https://$server_name"; else public_url="https://$server_name:$port"; fi
    profiles=tls
  else
    tls=0
    port=${port:-3000}
    public_url="http://localhost:$port"
    profiles=''
  fi
  if [ "$inference" = 1 ]; then
    profiles=${profiles:+$profiles,}inference
    inference_url=http://inference:8080
  else
    inference_url=''
  fi
  {
    echo "# DocQA compose stack (docker/README.md), written by install.sh on $(date -u +%Y-%m-%d)."
    echo "# Secrets are files in ./secrets, never here. Any DocQA variable (docs/configuration.md) may be added."
    echo "STACK_IMAGE=docqa:latest"
    echo "STACK_PORT=$port"
    echo "PUBLIC_URL=$public_url"
    echo "TLS_ENABLED=$tls"
    echo "SERVER_NAME=$server_name"
    echo "TLS_CERTS_DIR=./certs"
    echo "HSTS_MAX_AGE=31536000"
    echo "OCSP_STAPLING=on"
    echo "RATE_LIMIT_RESET=10r/m"
    echo "RATE_LIMIT_RESET_BURST=20"
    echo "UPLOAD_MAX_BODY_SIZE=1g"
    echo "LLM_BACKEND=local"
    echo "INFERENCE_URL=$inference_url"
    echo "INFERENCE_MODEL=Qwen2.5-1.5B-Instruct-Q4_K_M.gguf"
    echo "EMAIL_PROVIDER=console"
    if [ -n "$profiles" ]; then echo "COMPOSE_PROFILES=$profiles"; else echo "# COMPOSE_PROFILES=inference,tls"; fi
  } >"$env_file.tmp"
  chmod 600 "$env_file.tmp"
  mv "$env_file.tmp" "$env_file"
  env_note="wrote $env_file"
fi

echo "$me: $env_note; secrets in $secrets_dir$([ "$created_any" = 1 ] || echo ' (all present already, none changed)')"
if [ "$(id -u)" != 0 ] && [ "$(id -u)" != "$service_uid" ]; then
  echo "$me: note: DocQA runs as uid $service_uid in its container and must read the secret files;"
  echo "  as root: chown $service_uid:$service_gid $secrets_dir/*"
fi
if [ "$new_admin" = 1 ]; then
  echo
  echo "  Administrator: admin"
  echo "  Password:      $admin_password"
  echo "  (shown once; change it after signing in)"
  echo
fi
echo "Start the stack: cd $stack_dir && docker compose up -d --build"
