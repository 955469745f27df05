# Shared helpers for the lab scripts (sourced, not run).
# shellcheck shell=bash
info() { printf '[uapin] %s\n' "$*" >&2; }
die() { printf '[uapin] ERROR: %s\n' "$*" >&2; exit 1; }
