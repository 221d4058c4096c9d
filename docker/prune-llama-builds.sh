#!/bin/sh
# Removes node-llama-cpp's prebuilt binaries that DocQA's image cannot or does not load, after
# `npm ci --omit=dev` (docker/Dockerfile):
#
#   prune-llama-builds.sh NODE_MODULES cuda|cuda-all|none
#
# Always kept: @node-llama-cpp/linux-x64 (the CPU build DocQA falls back to). Always removed: the
# builds for other CPUs (linux-arm64, linux-armv7l: they list x64 as a build host, so npm installs
# them here) and Vulkan (DocQA asks node-llama-cpp for CUDA or the CPU, never Vulkan).
#   cuda      keeps linux-x64-cuda, removes linux-x64-cuda-ext (the fallback build for GPUs and drivers
#             the main CUDA build does not support; 360 MB)
#   cuda-all  keeps both CUDA builds
#   none      removes both: in-process llama.cpp on the CPU only
# node-llama-cpp treats a missing optional build as unavailable and uses the next one (CPU last).
set -eu
[ $# -eq 2 ] || { echo "usage: prune-llama-builds.sh NODE_MODULES cuda|cuda-all|none" >&2; exit 2; }
dir=$1/@node-llama-cpp
case $2 in cuda | cuda-all | none) ;; *) echo "prune-llama-builds: NODE_LLAMA_CPP_GPU must be cuda, cuda-all or none, not '$2'" >&2; exit 2 ;; esac
[ -d "$dir/linux-x64" ] || { echo "prune-llama-builds: $dir/linux-x64 is missing" >&2; exit 1; }
for build in "$dir"/*; do
  name=${build##*/}
  case $name in
    linux-x64) keep=yes ;;
    linux-x64-cuda) [ "$2" = none ] && keep=no || keep=yes ;;
    linux-x64-cuda-ext) [ "$2" = cuda-all ] && keep=yes || keep=no ;;
    *) keep=no ;;
  esac
  if [ "$keep" = no ]; then rm -rf "$build"; echo "prune-llama-builds: removed @node-llama-cpp/$name"; fi
done
